package integration

import (
	"context"
	"encoding/json"
	"slices"

	"docsd/internal/apperr"
	"docsd/internal/ids"
)

// BlockRequest is an integration block of a published page to render: the page's site and
// space, and the block as the page holds it.
type BlockRequest struct {
	SiteID, SpaceID string
	Integration     string
	Block           string
	Props           map[string]any
}

// BlockRenderEvent returns the ui_render event that renders an integration block of a page
// of a published site (the `blocks` event of Document 3), and the version its answer may be
// cached under (it changes with the script, the installations' configuration and the
// development tunnel). The integration must be installed, and active, on the site or on the
// page's space, have a script (or, in development mode, a tunnel for the installation's
// organization) and declare the block; otherwise it is a 404 saying so. The event is answered
// synchronously and read without writing anything (no API token: the script renders from its
// props and configuration), so a page's rendering never moves the database's generation; only
// in development mode is it recorded, as the tunnel's events are (Deliverer.Block).
func (s *Service) BlockRenderEvent(ctx context.Context, req BlockRequest) (Delivery, string, error) {
	tx := s.store.Read()
	var found *ContentInstallation
	for _, t := range []struct {
		kind Kind
		id   string
	}{{SiteKind, req.SiteID}, {SpaceKind, req.SpaceID}} {
		if t.id == "" || found != nil {
			continue
		}
		cis, err := tx.ContentInstallations(ctx, "", t.kind, t.id)
		if err != nil {
			return Delivery{}, "", err
		}
		for i := range cis {
			if cis[i].Integration == req.Integration && (cis[i].Status == "" || cis[i].Status == "active") {
				found = &cis[i]
				break
			}
		}
	}
	if found == nil {
		return Delivery{}, "", apperr.NotFoundf("integration %s is not installed on this site or its space", req.Integration)
	}
	it, in, ok, err := s.siteInstaller(ctx, tx, *found, "")
	if err != nil {
		return Delivery{}, "", err
	}
	_ = ok // siteInstaller's scope check: no scope is needed to render a block
	now := s.clock.Now()
	// In development mode the block goes to the tunnel, as every event does, when the site's
	// organization (the installation's) is one whose events go there.
	tunnel := it.tunnel(in.OrgID, now)
	if it.Script == "" && tunnel == "" {
		return Delivery{}, "", apperr.NotFoundf("integration %s has no script to render its blocks with", req.Integration)
	}
	if !slices.ContainsFunc(it.Manifest.Blocks, func(b Block) bool { return b.ID == req.Block }) {
		return Delivery{}, "", apperr.NotFoundf("integration %s has no block %s", req.Integration, req.Block)
	}
	props := req.Props
	if props == nil {
		props = map[string]any{}
	}
	ev := Event{ID: ids.New(), Integration: it.Name, InstallationID: in.ID, OrgID: in.OrgID, Type: "ui_render", CreatedAt: now}
	payload := map[string]any{"type": ev.Type, "eventId": ev.ID, "installationId": in.ID,
		"componentId": req.Block, "props": props,
		"context": map[string]any{"type": "document", "spaceId": req.SpaceID, "editable": false, "theme": "light"}}
	if ev.Payload, err = json.Marshal(payload); err != nil {
		return Delivery{}, "", err
	}
	d := Delivery{Integration: it, Installation: &in, Content: found, Event: ev, Attempt: 1, Tunnel: tunnel}
	if err := s.openSecrets(&d); err != nil {
		return Delivery{}, "", err
	}
	if d.SigningInstallation, err = s.seal.Open(in.SealedSigning); err != nil {
		return Delivery{}, "", err
	}
	d.SigningContent = ContentSigningSecret(d.SigningInstallation, *found)
	return d, s.scriptVersion(it, in, *found), nil
}

// SitePolicies are the Content-Security-Policy values (CSPHeader) the integrations installed
// on site siteID declare: its active site installations' integrations, each once.
func (s *Service) SitePolicies(ctx context.Context, siteID string) ([]string, error) {
	tx := s.store.Read()
	cis, err := tx.ContentInstallations(ctx, "", SiteKind, siteID)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, ci := range cis {
		if seen[ci.Integration] {
			continue
		}
		it, _, _, err := s.siteInstaller(ctx, tx, ci, "")
		if err != nil {
			return nil, err
		}
		seen[ci.Integration] = true
		if csp := CSPHeader(it.Manifest.CSP); csp != "" && it.Name != "" {
			out = append(out, csp)
		}
	}
	return out, nil
}
