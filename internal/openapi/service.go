package openapi

import (
	"context"
	"net/url"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/clock"
	"docsd/internal/fetch"
	"docsd/internal/ids"
	"docsd/internal/org"
	"docsd/internal/paging"
)

// Service is the API's OpenAPI specs: who may do what, and processing.
type Service struct {
	store Store
	orgs  *org.Service
	fetch *fetch.Client
	clock clock.Clock
}

// NewService builds the service; fo is the outbound policy and limits URL sources are
// fetched under.
func NewService(st Store, orgs *org.Service, fo fetch.Options, clk clock.Clock) *Service {
	return &Service{store: st, orgs: orgs, fetch: fetch.New(fo), clock: clk}
}

// Permissions are the caller's on the organization's specs.
type Permissions struct{ View, Edit bool }

// View is a spec with the caller's permissions.
type View struct {
	Spec
	Permissions Permissions
}

// access returns the caller's permissions in the organization; a non-member gets 404, as
// the organization's existence is private.
func (s *Service) access(ctx context.Context, c auth.Caller, orgID string) (Permissions, error) {
	role, member, err := s.orgs.Role(ctx, c, orgID)
	if err != nil {
		return Permissions{}, err
	}
	if !member || role == auth.Guest {
		return Permissions{}, apperr.NotFoundf("organization %s not found", orgID)
	}
	// Specs are organization-wide content, like spaces: made and changed by creators.
	return Permissions{View: true, Edit: role.AtLeast(auth.Create)}, nil
}

func (s *Service) editor(ctx context.Context, c auth.Caller, orgID string) (Permissions, error) {
	p, err := s.access(ctx, c, orgID)
	if err == nil && !p.Edit {
		err = apperr.Forbiddenf("changing OpenAPI specifications needs the create role in the organization")
	}
	return p, err
}

// CheckSlug validates a spec's slug.
func CheckSlug(slug string) error {
	if slug == "" || len(slug) > SlugMax || !slugPattern.MatchString(slug) {
		return apperr.Invalidf("slug: must be 1 to %d lower-case letters, digits and single hyphens between them (%s), got %q", SlugMax, slugPattern, slug)
	}
	return nil
}

// CheckSource validates a source: exactly one of an http(s) URL and a non-empty text.
func CheckSource(src Source) error {
	switch {
	case src.URL != "" && src.Text != "":
		return apperr.Invalidf("source: give either url or text, not both")
	case src.URL != "":
		u, err := url.Parse(src.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(src.URL) > SourceURLMax {
			return apperr.Invalidf("source.url: must be an http or https URL of at most %d characters", SourceURLMax)
		}
		if err := fetch.New(fetch.Options{AllowPrivate: true}).CheckURL(u); err != nil {
			return apperr.Invalidf("source.url: %s", err)
		}
	case strings.TrimSpace(src.Text) == "":
		return apperr.Invalidf("source: needs a url or a non-empty text")
	}
	return nil
}

// Create makes a spec and queues its processing; 409 when the slug is taken.
func (s *Service) Create(ctx context.Context, c auth.Caller, orgID, slug string, src Source) (View, error) {
	p, err := s.editor(ctx, c, orgID)
	if err != nil {
		return View{}, err
	}
	if err := CheckSlug(slug); err != nil {
		return View{}, err
	}
	if err := CheckSource(src); err != nil {
		return View{}, err
	}
	now := s.clock.Now()
	sp := Spec{ID: ids.New(), OrgID: orgID, Slug: slug, SourceURL: src.URL, SourceText: src.Text, Visibility: Private,
		State: StatePending, Generation: 1, CreatedAt: now, UpdatedAt: now}
	if err := s.store.CreateSpec(ctx, now, sp, processJob(sp.ID, sp.Generation)); err != nil {
		return View{}, err
	}
	return View{Spec: sp, Permissions: p}, nil
}

// Put creates the spec of slug or replaces its source, and queues its processing either way:
// a PUT is also how a client asks for a URL source to be fetched again. created says which.
func (s *Service) Put(ctx context.Context, c auth.Caller, orgID, slug string, src Source) (v View, created bool, err error) {
	p, err := s.editor(ctx, c, orgID)
	if err != nil {
		return View{}, false, err
	}
	if err := CheckSlug(slug); err != nil {
		return View{}, false, err
	}
	if err := CheckSource(src); err != nil {
		return View{}, false, err
	}
	sp, err := s.store.UpdateSource(ctx, s.clock.Now(), orgID, slug, src)
	if apperr.CodeOf(err) == apperr.NotFound {
		v, err := s.Create(ctx, c, orgID, slug, src)
		if apperr.CodeOf(err) == apperr.Conflict {
			// Made by another request meanwhile: update it as this one asked.
			sp, err = s.store.UpdateSource(ctx, s.clock.Now(), orgID, slug, src)
			return View{Spec: sp, Permissions: p}, false, err
		}
		return v, err == nil, err
	}
	return View{Spec: sp, Permissions: p}, false, err
}

// Get returns a spec of the organization.
func (s *Service) Get(ctx context.Context, c auth.Caller, orgID, slug string) (View, error) {
	p, err := s.access(ctx, c, orgID)
	if err != nil {
		return View{}, err
	}
	sp, err := s.store.Spec(ctx, orgID, slug)
	return View{Spec: sp, Permissions: p}, err
}

// List lists the organization's specs by slug.
func (s *Service) List(ctx context.Context, c auth.Caller, orgID string, page paging.Request) (paging.Result[View], error) {
	p, err := s.access(ctx, c, orgID)
	if err != nil {
		return paging.Result[View]{}, err
	}
	res, err := s.store.ListSpecs(ctx, orgID, page)
	if err != nil {
		return paging.Result[View]{}, err
	}
	out := paging.Result[View]{Count: res.Count, Next: res.Next, Items: make([]View, 0, len(res.Items))}
	for _, sp := range res.Items {
		out.Items = append(out.Items, View{Spec: sp, Permissions: p})
	}
	return out, nil
}

// Delete removes a spec and its versions; deleting what is not there is no error.
func (s *Service) Delete(ctx context.Context, c auth.Caller, orgID, slug string) error {
	if _, err := s.editor(ctx, c, orgID); err != nil {
		return err
	}
	return s.store.DeleteSpec(ctx, s.clock.Now(), orgID, slug)
}

// SetVisibility makes a spec public or private.
func (s *Service) SetVisibility(ctx context.Context, c auth.Caller, orgID, slug, visibility string) (View, error) {
	p, err := s.editor(ctx, c, orgID)
	if err != nil {
		return View{}, err
	}
	if visibility != Private && visibility != Public {
		return View{}, apperr.Invalidf("visibility: must be %q or %q, got %q", Private, Public, visibility)
	}
	sp, err := s.store.SetVisibility(ctx, s.clock.Now(), orgID, slug, visibility)
	return View{Spec: sp, Permissions: p}, err
}

// Versions lists a spec's versions, newest first.
func (s *Service) Versions(ctx context.Context, c auth.Caller, orgID, slug string, page paging.Request) (Spec, paging.Result[Version], error) {
	v, err := s.Get(ctx, c, orgID, slug)
	if err != nil {
		return Spec{}, paging.Result[Version]{}, err
	}
	res, err := s.store.ListVersions(ctx, v.ID, page)
	return v.Spec, res, err
}

// Version returns a version of a spec by id, or its latest for "latest" (404 when it has
// none yet).
func (s *Service) Version(ctx context.Context, c auth.Caller, orgID, slug, versionID string) (Spec, Version, error) {
	v, err := s.Get(ctx, c, orgID, slug)
	if err != nil {
		return Spec{}, Version{}, err
	}
	ver, err := s.version(ctx, v.Spec, versionID)
	return v.Spec, ver, err
}

func (s *Service) version(ctx context.Context, sp Spec, versionID string) (Version, error) {
	if versionID == "latest" {
		if sp.LastVersion == "" {
			return Version{}, apperr.NotFoundf("OpenAPI specification %s has no version yet (processingState %s)", sp.Slug, sp.State)
		}
		versionID = sp.LastVersion
	}
	return s.store.Version(ctx, sp.ID, versionID)
}

// Published returns the latest version of a public spec, for anyone; a private spec, or one
// with no version, is not found.
func (s *Service) Published(ctx context.Context, specID string) (Spec, Version, error) {
	sp, err := s.store.SpecByID(ctx, specID)
	if err != nil || sp.Visibility != Public {
		return Spec{}, Version{}, apperr.NotFoundf("OpenAPI specification %s not found", specID)
	}
	ver, err := s.version(ctx, sp, "latest")
	return sp, ver, err
}
