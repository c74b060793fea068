package integration

import (
	"context"
)

// VisitorAuthScope is the scope of integrations that authenticate a site's visitors.
const VisitorAuthScope = "site:visitor:auth"

// SiteAuthenticator is the site installation that authenticates a visitor-auth site's readers
// (the site's visitor-auth backend is "integration").
type SiteAuthenticator struct {
	InstallationID string
	// Key is the site installation's signing secret: the integration signs its visitor tokens
	// (HS256) with it, as environment.signingSecrets.siteInstallation.
	Key []byte
}

// VisitorAuthenticator finds the active installation on site siteID whose integration holds
// site:visitor:auth and has a script (the first the store lists, when several do); ok is false when there is
// none, and then no token admits a reader.
func (s *Service) VisitorAuthenticator(ctx context.Context, siteID string) (a SiteAuthenticator, ok bool, err error) {
	tx := s.store.Read()
	cis, err := tx.ContentInstallations(ctx, "", SiteKind, siteID)
	if err != nil {
		return a, false, err
	}
	for _, ci := range cis {
		_, in, ok, err := s.siteInstaller(ctx, tx, ci, VisitorAuthScope)
		if err != nil {
			return a, false, err
		} else if !ok {
			continue
		}
		secret, err := s.seal.Open(in.SealedSigning)
		if err != nil {
			return a, false, err
		}
		return SiteAuthenticator{InstallationID: in.ID, Key: []byte(ContentSigningSecret(secret, ci))}, true, nil
	}
	return a, false, nil
}

// VisitorAuthEvent returns the fetch_visitor_authentication event for a reader of site siteID
// who has no valid token, at location (the path they asked for): the script answers where to
// send them (a redirect to the identity provider). An installation that does not
// authenticate the site's visitors is 404.
func (s *Service) VisitorAuthEvent(ctx context.Context, siteID, installationID, location string) (Delivery, error) {
	return s.siteEvent(ctx, siteID, installationID, "fetch_visitor_authentication", map[string]any{"location": location},
		func(tx Tx) (Integration, Installation, ContentInstallation, error) {
			return s.siteInstallerWith(ctx, tx, siteID, installationID, VisitorAuthScope, "installation %s does not authenticate this site's visitors")
		})
}
