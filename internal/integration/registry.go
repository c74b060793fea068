package integration

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/org"
	"docsd/internal/paging"
	"docsd/internal/validate"
)

// View is an integration as one caller sees it.
type View struct {
	Integration
	Owner org.Organization
	Admin bool // the caller administers its owner
}

// Filter selects integrations in a list (listIntegrations); zero values select all.
type Filter struct {
	Search         string // case-insensitive, in the name or the title
	Category       string
	BlockDomain    string
	Blocks         *bool
	ContentSources *bool
	Owner          string // organization id
	Scope          string
	Target         string
	OrgID          string // available to this organization: public ones and its own (listOrganizationIntegrations)
}

func (f Filter) match(it Integration) bool {
	m := it.Manifest
	if f.Search != "" {
		q := strings.ToLower(f.Search)
		if !strings.Contains(strings.ToLower(it.Name), q) && !strings.Contains(strings.ToLower(m.Title), q) {
			return false
		}
	}
	if f.Category != "" && !slices.Contains(m.Categories, f.Category) {
		return false
	}
	if f.Scope != "" && !slices.Contains(m.Scopes, f.Scope) {
		return false
	}
	// An integration installable everywhere matches every target.
	if f.Target != "" && it.Target != f.Target && it.Target != "all" {
		return false
	}
	if f.Owner != "" && it.OrgID != f.Owner || f.OrgID != "" && it.OrgID != f.OrgID && it.Visibility != "public" {
		return false
	}
	if f.Blocks != nil && (len(m.Blocks) > 0) != *f.Blocks {
		return false
	}
	if f.ContentSources != nil && hasContentSources(m) != *f.ContentSources {
		return false
	}
	if f.BlockDomain != "" {
		d := strings.ToLower(f.BlockDomain)
		found := false
		for _, b := range m.Blocks {
			for _, h := range blockDomains(b) {
				found = found || h == d || strings.HasSuffix(h, "."+d)
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func hasContentSources(m Manifest) bool {
	s := strings.TrimSpace(string(m.ContentSources))
	return s != "" && s != "null" && s != "[]"
}

// Get returns an integration the caller may see (404 otherwise).
func (s *Service) Get(ctx context.Context, c auth.Caller, name string) (View, error) {
	it, err := s.visible(ctx, s.store.Read(), c, name)
	if err != nil {
		return View{}, err
	}
	return s.view(ctx, c, it)
}

func (s *Service) view(ctx context.Context, c auth.Caller, it Integration) (View, error) {
	o, err := s.orgs.Lookup(ctx, it.OrgID)
	if err != nil {
		return View{}, err
	}
	admin, err := s.isOwnerAdmin(ctx, c, it)
	return View{Integration: it, Owner: o, Admin: admin}, err
}

// List returns the integrations the caller may see that match f, by name. Unlisted ones are
// listed only to their owner's members or when the owner filter names their organization.
// With f.OrgID (a member's), the list is what that organization may install: every public
// integration and its own.
func (s *Service) List(ctx context.Context, c auth.Caller, f Filter, page paging.Request) (paging.Result[View], error) {
	if f.OrgID != "" {
		if err := s.requireOrgMember(ctx, c, f.OrgID); err != nil {
			return paging.Result[View]{}, err
		}
	}
	all, err := s.store.Read().Integrations(ctx)
	if err != nil {
		return paging.Result[View]{}, err
	}
	var shown []Integration
	for _, it := range all {
		if !f.match(it) {
			continue
		}
		if it.Visibility != "public" && it.OrgID != f.OrgID {
			_, member, err := s.member(ctx, c, it.OrgID)
			if err != nil {
				return paging.Result[View]{}, err
			}
			if !member && (it.Visibility == "private" || f.Owner != it.OrgID) {
				continue
			}
		}
		shown = append(shown, it)
	}
	return s.views(ctx, c, paging.Slice(shown, func(it Integration) string { return it.Name }, page))
}

func (s *Service) views(ctx context.Context, c auth.Caller, res paging.Result[Integration]) (paging.Result[View], error) {
	out := paging.Result[View]{Count: res.Count, Next: res.Next, Items: make([]View, 0, len(res.Items))}
	for _, it := range res.Items {
		v, err := s.view(ctx, c, it)
		if err != nil {
			return out, err
		}
		out.Items = append(out.Items, v)
	}
	return out, nil
}

// Unpublish deletes an integration, its installations and events. deleted is false when it did
// not exist (or the caller cannot see it: the answer is the same).
func (s *Service) Unpublish(ctx context.Context, c auth.Caller, name string) (deleted bool, err error) {
	err = s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		if _, err := s.owned(ctx, tx, c, name); err != nil {
			if apperr.Is(err, apperr.NotFound) {
				return nil
			}
			return err
		}
		deleted, err = tx.DeleteIntegration(ctx, name)
		return err
	})
	return deleted, err
}

// Image returns one of an integration's images; images are as public as their integration's
// listing, so they are served without a caller to the addresses the integration shows.
func (s *Service) Image(ctx context.Context, name, id string) (Image, error) {
	img, err := s.store.Read().Image(ctx, name, id)
	if errors.Is(err, ErrNotFound) {
		return img, apperr.NotFoundf("image %s of integration %s not found", id, name)
	}
	return img, err
}

// SetDevelopment turns development mode on (tunnelURL) for DevelopmentModeTTL, renewed by each
// call, or off (tunnelURL ""). The tunnel's address goes through the outbound policy.
func (s *Service) SetDevelopment(ctx context.Context, c auth.Caller, name, tunnelURL string, all bool) error {
	if tunnelURL != "" {
		if err := validate.HTTPURL("tunnelUrl", tunnelURL, 256); err != nil {
			return err
		}
		u, _ := url.Parse(tunnelURL)
		if err := s.outbound.CheckURL(u); err != nil {
			return apperr.Invalidf("tunnelUrl: %v", err)
		}
	}
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		if _, err := s.owned(ctx, tx, c, name); err != nil {
			return err
		}
		d := Development{}
		if tunnelURL != "" {
			d = Development{TunnelURL: tunnelURL, All: all, ExpiresAt: now.Add(DevelopmentModeTTL)}
		}
		return tx.SetDevelopment(ctx, name, d)
	})
}

// tunnel is where an integration's events for orgID go in development mode, "" when they go to
// its script.
func (it Integration) tunnel(orgID string, now time.Time) string {
	d := it.Dev
	if d.TunnelURL == "" || !now.Before(d.ExpiresAt) || d.Failures >= DevelopmentMaxFailures {
		return ""
	}
	if !d.All && orgID != it.OrgID {
		return ""
	}
	return d.TunnelURL
}
