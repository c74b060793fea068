package integration

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"docsd/internal/apperr"
	"docsd/internal/ids"
)

// PublishedScript is a script a site installation injects into its site's published pages.
type PublishedScript struct {
	InstallationID string
	// Version changes with the integration's script, the installation and the site
	// installation (its configuration): the script's answer is cached under it.
	Version string
}

// PublishedScripts lists, for a published site's readers, the active installations on the site
// whose integration holds site:script:inject and has a script, in installation order. It asks
// for no caller: the site's reader was admitted by the site.
func (s *Service) PublishedScripts(ctx context.Context, siteID string) ([]PublishedScript, error) {
	tx := s.store.Read()
	cis, err := tx.ContentInstallations(ctx, "", SiteKind, siteID)
	if err != nil {
		return nil, err
	}
	var out []PublishedScript
	for _, ci := range cis {
		it, in, ok, err := s.scriptInjector(ctx, tx, ci)
		if err != nil {
			return nil, err
		} else if ok {
			out = append(out, PublishedScript{InstallationID: ci.InstallationID, Version: s.scriptVersion(it, in, ci)})
		}
	}
	return out, nil
}

// scriptInjector reads the integration and installation of a site installation; ok says
// whether they inject a script into the site.
func (s *Service) scriptInjector(ctx context.Context, tx Tx, ci ContentInstallation) (Integration, Installation, bool, error) {
	return s.siteInstaller(ctx, tx, ci, "site:script:inject")
}

// siteInstaller reads the integration and installation of a site installation; ok says
// whether it is active and its integration has a script and holds scope.
func (s *Service) siteInstaller(ctx context.Context, tx Tx, ci ContentInstallation, scope string) (Integration, Installation, bool, error) {
	if ci.Status != "" && ci.Status != "active" {
		return Integration{}, Installation{}, false, nil
	}
	in, err := tx.Installation(ctx, ci.InstallationID)
	if errors.Is(err, ErrNotFound) {
		return Integration{}, Installation{}, false, nil
	} else if err != nil {
		return Integration{}, Installation{}, false, err
	}
	it, err := tx.Integration(ctx, in.Integration)
	if errors.Is(err, ErrNotFound) {
		return Integration{}, Installation{}, false, nil
	} else if err != nil {
		return Integration{}, Installation{}, false, err
	}
	runs := it.Script != "" || it.tunnel(in.OrgID, s.clock.Now()) != ""
	return it, in, runs && slices.Contains(it.Manifest.Scopes, scope), nil
}

// scriptVersion is the version a site script's answer is cached under. In development mode it
// names the tunnel, whose answers are not cached (Delivery.Tunnel): a developer's next change
// shows on the next page.
func (s *Service) scriptVersion(it Integration, in Installation, ci ContentInstallation) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d\x00%x\x00%d\x00%d\x00%s", it.Name, it.Version, sha256.Sum256([]byte(it.Script)),
		in.UpdatedAt.UnixNano(), ci.UpdatedAt.UnixNano(), it.tunnel(in.OrgID, s.clock.Now())))
	return hex.EncodeToString(sum[:9])
}

// PublishedScriptVersion is the version of installationID's script on site siteID, read without
// writing anything (a cached answer needs no event); 404 when it injects none.
func (s *Service) PublishedScriptVersion(ctx context.Context, siteID, installationID string) (string, error) {
	it, in, ci, err := s.publishedScript(ctx, s.store.Read(), siteID, installationID)
	if err != nil {
		return "", err
	}
	return s.scriptVersion(it, in, ci), nil
}

// publishedScript reads what installationID's script on site siteID needs; 404 when it injects
// none.
func (s *Service) publishedScript(ctx context.Context, tx Tx, siteID, installationID string) (Integration, Installation, ContentInstallation, error) {
	return s.siteInstallerWith(ctx, tx, siteID, installationID, "site:script:inject", "no integration script %s on this site")
}

// siteInstallerWith reads installationID's installation on site siteID when its integration
// holds scope (see siteInstaller), and is otherwise a 404 saying notFound (of installationID).
func (s *Service) siteInstallerWith(ctx context.Context, tx Tx, siteID, installationID, scope, notFound string) (Integration, Installation, ContentInstallation, error) {
	ci, err := tx.ContentInstallation(ctx, installationID, SiteKind, siteID)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Integration{}, Installation{}, ci, err
	}
	it, in, ok, err := s.siteInstaller(ctx, tx, ci, scope)
	if err == nil && !ok {
		err = apperr.NotFoundf(notFound, installationID)
	}
	return it, in, ci, err
}

// PublishedScriptEvent returns the fetch_published_script event of installationID's
// installation on site siteID, with its environment (the site installation among it), and the
// version its answer may be cached under. An installation that does not inject a script into
// the site is 404.
func (s *Service) PublishedScriptEvent(ctx context.Context, siteID, installationID string) (Delivery, string, error) {
	var version string
	d, err := s.siteEvent(ctx, siteID, installationID, "fetch_published_script", nil,
		func(tx Tx) (Integration, Installation, ContentInstallation, error) {
			it, in, ci, err := s.publishedScript(ctx, tx, siteID, installationID)
			version = s.scriptVersion(it, in, ci)
			return it, in, ci, err
		})
	return d, version, err
}

// siteEvent builds a synchronous event of type typ (with the fields more) for a site
// installation that find reads, with the script's environment: secrets, signing secrets (the
// site installation's among them) and a fresh installation token.
func (s *Service) siteEvent(ctx context.Context, siteID, installationID, typ string, more map[string]any,
	find func(Tx) (Integration, Installation, ContentInstallation, error)) (Delivery, error) {
	var d Delivery
	now := s.clock.Now()
	err := s.store.Write(ctx, now, func(tx Tx) error {
		it, in, ci, err := find(tx)
		if err != nil {
			return err
		}
		d = Delivery{Integration: it, Content: &ci, Attempt: 1, Tunnel: it.tunnel(in.OrgID, now)}
		if err := s.openSecrets(&d); err != nil {
			return err
		}
		if err := s.withInstallation(ctx, tx, &d, in, now); err != nil {
			return err
		}
		d.SigningContent = ContentSigningSecret(d.SigningInstallation, ci)
		ev := Event{ID: ids.New(), Integration: it.Name, InstallationID: in.ID, OrgID: in.OrgID, Type: typ, CreatedAt: now}
		payload := map[string]any{"type": ev.Type, "eventId": ev.ID, "installationId": in.ID, "siteId": siteID}
		for k, v := range more {
			payload[k] = v
		}
		if ev.Payload, err = json.Marshal(payload); err != nil {
			return err
		}
		d.Event = ev
		return nil
	})
	return d, err
}
