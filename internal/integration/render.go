package integration

import (
	"context"
	"encoding/json"
	"errors"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
)

// RenderEvent checks a render request for an integration the caller can see and returns the
// ui_render event for its script, with what the script's environment needs (the integration's
// secrets and signing secret). The event is answered synchronously and not kept in the
// integration's events. The request's fields (componentId, props, state, context, action)
// pass to the script as they came.
func (s *Service) RenderEvent(ctx context.Context, c auth.Caller, name string, req json.RawMessage) (Delivery, error) {
	var body map[string]json.RawMessage
	if err := json.Unmarshal(req, &body); err != nil || body == nil {
		return Delivery{}, apperr.Invalidf("request: must be a JSON object")
	}
	var componentID string
	switch {
	case json.Unmarshal(body["componentId"], &componentID) != nil || componentID == "":
		return Delivery{}, apperr.Invalidf("componentId: is required")
	case len(body["props"]) == 0 || body["props"][0] != '{':
		return Delivery{}, apperr.Invalidf("props: is required (an object)")
	case len(body["context"]) == 0 || body["context"][0] != '{':
		return Delivery{}, apperr.Invalidf("context: is required (an object)")
	}
	it, err := s.visible(ctx, s.store.Read(), c, name)
	if err != nil {
		return Delivery{}, err
	}
	orgID, err := s.renderOrg(ctx, c, it, body["context"])
	if err != nil {
		return Delivery{}, err
	}
	now := s.clock.Now()
	// In development mode the event goes to the tunnel, as every event does, when the render is
	// for an organization whose events go there (the owner's, or any with all).
	tunnel := it.tunnel(orgID, now)
	if tunnel == "" && it.Script == "" {
		return Delivery{}, apperr.New(apperr.Unavailable, "integration %s has no script to render with", name)
	}
	ev := Event{ID: ids.New(), Integration: it.Name, OrgID: orgID, Type: "ui_render", CreatedAt: now}
	payload := map[string]any{}
	for k, v := range body {
		if k != "installationId" && string(v) != "null" {
			payload[k] = v
		}
	}
	payload["type"], payload["eventId"] = ev.Type, ev.ID
	payload["context"] = completeContext(body["context"], orgID)
	d := Delivery{Integration: it, Attempt: 1, Tunnel: tunnel}
	if err := s.openSecrets(&d); err != nil {
		return Delivery{}, err
	}
	// The organization's installation, when it has one, is the event's (the public spec's
	// ui_render is an installation's event) and in the script's environment, without a token:
	// a render reads, and writes nothing.
	if in, ok, err := s.renderInstallation(ctx, c, it, orgID); err != nil {
		return Delivery{}, err
	} else if ok {
		if d.SigningInstallation, err = s.seal.Open(in.SealedSigning); err != nil {
			return Delivery{}, err
		}
		d.Installation, ev.InstallationID, payload["installationId"] = &in, in.ID, in.ID
	}
	if ev.Payload, err = json.Marshal(payload); err != nil {
		return Delivery{}, err
	}
	d.Event = ev
	return d, nil
}

// renderInstallation is the installation of the integration a render in orgID is for: the
// caller's own for an installation token, else orgID's; ok is false when there is none.
func (s *Service) renderInstallation(ctx context.Context, c auth.Caller, it Integration, orgID string) (Installation, bool, error) {
	if orgID == "" || c.Installation != nil && c.Installation.Integration != it.Name {
		return Installation{}, false, nil
	}
	tx := s.store.Read()
	var in Installation
	var err error
	if c.Installation != nil {
		in, err = tx.Installation(ctx, c.Installation.ID)
	} else {
		in, err = tx.InstallationIn(ctx, it.Name, orgID)
	}
	if errors.Is(err, ErrNotFound) {
		return Installation{}, false, nil
	}
	return in, err == nil, err
}

// renderOrg is the organization a render is for, which decides whether development mode sends
// it to the tunnel: an installation token's own organization; else the one the request's
// context names (organizationId, or the organization of its spaceId or siteId), which the
// caller must be able to see (404 otherwise, as for any resource they cannot see); else, with
// nothing named, the integration's owner when the caller is its member (its developers
// previewing their own screens), and no organization ("") for anyone else.
func (s *Service) renderOrg(ctx context.Context, c auth.Caller, it Integration, rawContext json.RawMessage) (string, error) {
	if c.Installation != nil {
		return c.Installation.OrgID, nil
	}
	var named struct {
		OrganizationID string `json:"organizationId"`
		SpaceID        string `json:"spaceId"`
		SiteID         string `json:"siteId"`
	}
	_ = json.Unmarshal(rawContext, &named) // fields of other types name nothing
	switch {
	case named.OrganizationID != "":
		if _, member, err := s.member(ctx, c, named.OrganizationID); err != nil || !member {
			return "", orNotFound(err, "context.organizationId: organization %s not found", named.OrganizationID)
		}
		return named.OrganizationID, nil
	case named.SpaceID != "":
		v, err := s.spaces.RoleOn(ctx, c, named.SpaceID)
		if err != nil {
			return "", err
		}
		return v.OrganizationID, nil
	case named.SiteID != "":
		return s.siteOrg(ctx, c, named.SiteID)
	}
	if _, member, err := s.member(ctx, c, it.OrgID); err != nil || member {
		return it.OrgID, err
	}
	return "", nil
}

// siteOrg is the organization of site siteID when the caller can see the site; 404 otherwise.
func (s *Service) siteOrg(ctx context.Context, c auth.Caller, siteID string) (string, error) {
	orgID, err := s.store.Read().SiteOrg(ctx, siteID)
	if errors.Is(err, ErrNotFound) {
		return "", apperr.NotFoundf("context.siteId: site %s not found", siteID)
	} else if err != nil {
		return "", err
	}
	if _, err := s.sites.Get(ctx, c, orgID, siteID); err != nil {
		return "", err
	}
	return orgID, nil
}

// orNotFound is err, or when it is nil a 404 saying format.
func orNotFound(err error, format string, args ...any) error {
	if err != nil {
		return err
	}
	return apperr.NotFoundf(format, args...)
}

// completeContext is a render's context as the event carries it, completed with what docsd
// knows where the request left it out and the public spec requires it: the theme (light), and
// the organization of an account configuration when the render is for one.
func completeContext(raw json.RawMessage, orgID string) map[string]any {
	var ctx map[string]any
	if json.Unmarshal(raw, &ctx) != nil || ctx == nil {
		ctx = map[string]any{}
	}
	if _, ok := ctx["theme"].(string); !ok {
		ctx["theme"] = "light"
	}
	if ctx["type"] == "configuration_account" && ctx["organizationId"] == nil && orgID != "" {
		ctx["organizationId"] = orgID
	}
	return ctx
}
