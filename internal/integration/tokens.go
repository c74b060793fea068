package integration

import (
	"context"
	"errors"

	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// CreateToken makes a short-lived token for an installation (InstallationTokenTTL), for the
// integration's owner admins (the integration's own backend asks for it). Only its hash is kept.
func (s *Service) CreateToken(ctx context.Context, c auth.Caller, name, installationID string) (string, error) {
	tok := auth.NewInstallationToken()
	now := s.clock.Now()
	err := s.store.Write(ctx, now, func(tx Tx) error {
		it, in, err := s.installation(ctx, tx, c, name, installationID)
		if err != nil {
			return err
		}
		owner, err := s.isOwnerAdmin(ctx, c, it)
		if err != nil {
			return err
		}
		if !owner && !(c.Installation != nil && c.Installation.ID == in.ID) {
			return apperr.Forbiddenf("only the integration's organization admins make installation tokens")
		}
		return tx.InsertToken(ctx, auth.HashToken(tok), in.ID, now.Add(InstallationTokenTTL))
	})
	if err != nil {
		return "", err
	}
	return tok, nil
}

// Authenticate resolves an installation token to its caller: the installation's scopes, on the
// spaces and sites it covers. Expired and unknown tokens get 401.
func (s *Service) Authenticate(ctx context.Context, tok string) (auth.Caller, error) {
	tx := s.store.Read()
	in, err := tx.TokenInstallation(ctx, auth.HashToken(tok), s.clock.Now())
	if errors.Is(err, ErrNotFound) {
		return auth.Caller{}, apperr.New(apperr.Unauthorized, "invalid or expired installation token")
	} else if err != nil {
		return auth.Caller{}, err
	}
	it, err := tx.Integration(ctx, in.Integration)
	if err != nil {
		return auth.Caller{}, err
	}
	g := &auth.InstallationGrant{ID: in.ID, Integration: in.Integration, OrgID: in.OrgID, Scopes: it.Manifest.Scopes,
		AllSpaces: in.SpaceSelection == "all", AllSites: in.SiteSelection == "all"}
	cis, err := tx.ContentInstallations(ctx, in.ID, "", "")
	if err != nil {
		return auth.Caller{}, err
	}
	for _, ci := range cis {
		if ci.Kind == SpaceKind {
			g.Spaces = append(g.Spaces, ci.TargetID)
		} else {
			g.Sites = append(g.Sites, ci.TargetID)
		}
	}
	return auth.Caller{Installation: g}, nil
}
