package site

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/opt"
	"docsd/internal/paging"
	"docsd/internal/validate"
)

// Patterns of the public specification.
var (
	hostnamePattern = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$`)
	proxyPattern    = regexp.MustCompile(`^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$`)
)

// View is a site with what its answer shows besides the site itself.
type View struct {
	Site
	SiteSpaces int // live site spaces
	// CallerRole is the caller's role in the organization, for the site's `permissions`:
	// members read every site, admins change them (see orgAccess).
	CallerRole auth.Role
}

// NewSite is the body of a new site.
type NewSite struct {
	Type       *string
	Title      *string
	Visibility *string
	Spaces     []string // spaces to publish at the root, in order
}

// Create makes a site in orgID, unpublished, with the given spaces as its root site spaces.
// Only organization admins may.
func (s *Service) Create(ctx context.Context, c auth.Caller, orgID string, n NewSite) (View, error) {
	st := Site{ID: ids.New(), OrganizationID: orgID, Type: "basic", Title: "Docs", Visibility: Public,
		AgentsContext: "included", VisitorAuth: VisitorAuthSettings{Key: ids.Secret(), Backend: "custom"}}
	if n.Type != nil {
		if err := validate.OneOf("type", *n.Type, Types...); err != nil {
			return View{}, err
		}
		st.Type = *n.Type
	}
	if n.Title != nil {
		if err := validate.Length("title", *n.Title, TitleMin, TitleMax); err != nil {
			return View{}, err
		}
		st.Title = *n.Title
	}
	if n.Visibility != nil {
		if err := validate.OneOf("visibility", *n.Visibility, Visibilities...); err != nil {
			return View{}, err
		}
		st.Visibility = Visibility(*n.Visibility)
	}
	if _, err := s.orgAccess(ctx, s.store.Read(), c, orgID, true); err != nil {
		return View{}, err
	}
	now := s.clock.Now()
	st.CreatedAt, st.UpdatedAt = now, now
	var v View
	var err error
	// Two creations at once (on PostgreSQL) may both find the same basename free; the second
	// insert then breaks the unique constraint, and the creation starts over in a new
	// transaction that sees the first one's site.
	for attempt := 1; ; attempt++ {
		err = s.store.Write(ctx, now, func(tx Tx) error {
			base, err := freeBasename(ctx, tx, orgID, slugify(st.Title, "docs"))
			if err != nil {
				return err
			}
			st.Basename = base
			if err := tx.InsertSite(ctx, st); err != nil {
				return err
			}
			for i, spaceID := range n.Spaces {
				if _, err := s.addSiteSpace(ctx, tx, st, spaceID, nil, "spaces."+strconv.Itoa(i), now); err != nil {
					return err
				}
			}
			v, err = s.view(ctx, tx, st, auth.Admin)
			return err
		})
		if !errors.Is(err, ErrTaken) {
			return v, err
		}
		if attempt == createAttempts {
			return View{}, apperr.Conflictf("basename: %q was taken by sites created at the same time; try again", st.Basename)
		}
	}
}

// createAttempts bounds the retries of a creation that lost a race for its basename.
const createAttempts = 10

// freeBasename returns base, or base-2, base-3, ... whichever is free in the organization.
func freeBasename(ctx context.Context, tx Tx, orgID, base string) (string, error) {
	for i := 1; ; i++ {
		name := withSuffix(base, i, BasenameMax)
		taken, err := tx.BasenameTaken(ctx, orgID, name)
		if err != nil || !taken {
			return name, err
		}
	}
}

// view is the site with its counts, for a caller of role (admin where only admins reach).
func (s *Service) view(ctx context.Context, tx Tx, st Site, role auth.Role) (View, error) {
	n, err := tx.CountSiteSpaces(ctx, []string{st.ID})
	return View{Site: st, SiteSpaces: n[st.ID], CallerRole: role}, err
}

// List lists an organization's sites for its members.
func (s *Service) List(ctx context.Context, c auth.Caller, orgID string, f Filter, page paging.Request) (paging.Result[View], error) {
	for i, t := range f.Types {
		if err := validate.OneOf("type."+strconv.Itoa(i), t, Types...); err != nil {
			return paging.Result[View]{}, err
		}
	}
	role, err := s.orgAccess(ctx, s.store.Read(), c, orgID, false)
	if err != nil {
		return paging.Result[View]{}, err
	}
	tx := s.store.Read()
	res, err := tx.ListSites(ctx, orgID, f, page)
	if err != nil {
		return paging.Result[View]{}, err
	}
	idList := make([]string, len(res.Items))
	for i, st := range res.Items {
		idList[i] = st.ID
	}
	counts, err := tx.CountSiteSpaces(ctx, idList)
	out := paging.Result[View]{Count: res.Count, Next: res.Next, Items: make([]View, len(res.Items))}
	for i, st := range res.Items {
		out.Items[i] = View{Site: st, SiteSpaces: counts[st.ID], CallerRole: role}
	}
	return out, err
}

// CountSites counts the sites of orgID (for members' `sites`: every member but a guest can
// access each of them).
func (s *Service) CountSites(ctx context.Context, orgID string) (int, error) {
	res, err := s.store.Read().ListSites(ctx, orgID, Filter{}, paging.Request{Limit: 0})
	return res.Count, err
}

// Get returns a site to a member of its organization.
func (s *Service) Get(ctx context.Context, c auth.Caller, orgID, id string) (View, error) {
	role, err := s.orgAccess(ctx, s.store.Read(), c, orgID, false)
	if err != nil {
		return View{}, err
	}
	tx := s.store.Read()
	st, err := loadSite(ctx, tx, orgID, id)
	if err != nil {
		return View{}, err
	}
	return s.view(ctx, tx, st, role)
}

// Update holds the site fields a PATCH may change.
type Update struct {
	Title              *string
	Visibility         *string
	Basename           *string
	Hostname           opt.Field[string] // null removes the custom hostname (docsd's extension)
	AdaptiveContent    *bool
	AgentsContext      *string
	DefaultSiteSpace   *string
	DefaultSiteSection *string
	Proxy              opt.Field[string] // null removes the proxy
}

func (u Update) validate() error {
	if u.Title != nil {
		if err := validate.Length("title", *u.Title, TitleMin, TitleMax); err != nil {
			return err
		}
	}
	if u.Visibility != nil {
		if err := validate.OneOf("visibility", *u.Visibility, Visibilities...); err != nil {
			return err
		}
	}
	if u.Basename != nil {
		if err := validate.Length("basename", *u.Basename, 1, BasenameMax); err != nil {
			return err
		}
		if slugify(*u.Basename, "") != *u.Basename {
			return apperr.Invalidf("basename: must be lowercase letters, digits and single dashes, as in a URL path segment (got %q)", *u.Basename)
		}
	}
	if u.Hostname.Set && !u.Hostname.Null {
		if err := validate.Length("hostname", u.Hostname.Value, 1, HostnameMax); err != nil {
			return err
		}
		if err := validate.Pattern("hostname", u.Hostname.Value, hostnamePattern); err != nil {
			return err
		}
	}
	if u.AgentsContext != nil {
		if err := validate.OneOf("agentsContext", *u.AgentsContext, "excluded", "included"); err != nil {
			return err
		}
	}
	if u.Proxy.Set && !u.Proxy.Null {
		if err := validate.Length("proxy", u.Proxy.Value, 1, ProxyMax); err != nil {
			return err
		}
		if err := validate.Pattern("proxy", u.Proxy.Value, proxyPattern); err != nil {
			return err
		}
	}
	return nil
}

// Patch changes a site; only organization admins may.
func (s *Service) Patch(ctx context.Context, c auth.Caller, orgID, id string, u Update) (View, error) {
	if err := u.validate(); err != nil {
		return View{}, err
	}
	var v View
	err := s.write(ctx, c, orgID, id, func(tx Tx, st Site, now time.Time) error {
		if u.Title != nil {
			st.Title = *u.Title
		}
		if u.Visibility != nil {
			st.Visibility = Visibility(*u.Visibility)
		}
		if u.Basename != nil {
			st.Basename = *u.Basename
		}
		if u.Hostname.Set {
			st.Hostname = u.Hostname.Value
		}
		if u.AdaptiveContent != nil {
			st.AdaptiveContent = *u.AdaptiveContent
		}
		if u.AgentsContext != nil {
			st.AgentsContext = *u.AgentsContext
		}
		if u.Proxy.Set {
			st.ProxyOrigin = u.Proxy.Value
		}
		if u.DefaultSiteSpace != nil || u.DefaultSiteSection != nil {
			tr, err := tx.Tree(ctx, st.ID)
			if err != nil {
				return err
			}
			if u.DefaultSiteSection != nil {
				if err := setDefaultSection(ctx, tx, tr, *u.DefaultSiteSection); err != nil {
					return err
				}
				if tr, err = tx.Tree(ctx, st.ID); err != nil {
					return err
				}
			}
			if u.DefaultSiteSpace != nil {
				if err := setDefaultSiteSpaceOfSite(ctx, tx, tr, *u.DefaultSiteSpace); err != nil {
					return err
				}
			}
		}
		st.UpdatedAt = now
		if err := tx.UpdateSite(ctx, st); err != nil {
			if errors.Is(err, ErrTaken) {
				return takenError(u)
			}
			return err
		}
		var err error
		v, err = s.view(ctx, tx, st, auth.Admin)
		return err
	})
	return v, err
}

// takenError names the unique value of an update that another site holds.
func takenError(u Update) error {
	if u.Hostname.Set && !u.Hostname.Null {
		if u.Basename == nil {
			return apperr.Conflictf("hostname: %q is already used by another site", u.Hostname.Value)
		}
		return apperr.Conflictf("hostname %q or basename %q is already used by another site", u.Hostname.Value, *u.Basename)
	}
	if u.Basename != nil {
		return apperr.Conflictf("basename: %q is already used by another site of this organization", *u.Basename)
	}
	return apperr.Conflictf("a unique value of this site is already used by another site")
}

// Delete removes a site with everything in it. Absent sites are deleted already.
func (s *Service) Delete(ctx context.Context, c auth.Caller, orgID, id string) error {
	err := s.write(ctx, c, orgID, id, func(tx Tx, st Site, now time.Time) error { return tx.DeleteSite(ctx, st.ID) })
	if apperr.Is(err, apperr.NotFound) {
		if _, oerr := s.orgAccess(ctx, s.store.Read(), c, orgID, true); oerr != nil {
			return oerr
		}
		return nil
	}
	return err
}

// SetPublished publishes or unpublishes a site.
func (s *Service) SetPublished(ctx context.Context, c auth.Caller, orgID, id string, published bool) (View, error) {
	var v View
	err := s.write(ctx, c, orgID, id, func(tx Tx, st Site, now time.Time) error {
		st.Published, st.UpdatedAt = published, now
		if err := tx.UpdateSite(ctx, st); err != nil {
			return err
		}
		var err error
		v, err = s.view(ctx, tx, st, auth.Admin)
		return err
	})
	return v, err
}

// slugify makes a URL path segment from a title: lowercase ASCII letters and digits joined by
// single dashes, at most PathMax characters; fallback when nothing is left.
func slugify(title, fallback string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
		if b.Len() >= PathMax {
			break
		}
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > PathMax {
		out = strings.TrimRight(out[:PathMax], "-")
	}
	if out == "" {
		return fallback
	}
	return out
}

// withSuffix is base for i = 1 and base-i after, cut so it fits in max characters.
func withSuffix(base string, i, max int) string {
	if i == 1 {
		return base
	}
	suffix := "-" + strconv.Itoa(i)
	if len(base)+len(suffix) > max {
		base = base[:max-len(suffix)]
	}
	return base + suffix
}
