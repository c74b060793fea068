package translate

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/clock"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/ids"
	"docsd/internal/paging"
	"docsd/internal/richtext"
	"docsd/internal/space"
	"docsd/internal/validate"
)

// Orgs tells a caller's role in an organization (org.Service does).
type Orgs interface {
	Role(ctx context.Context, c auth.Caller, orgID string) (auth.Role, bool, error)
}

// Spaces reads and makes spaces (space.Service does).
type Spaces interface {
	RoleOn(ctx context.Context, c auth.Caller, spaceID string) (space.View, error)
	Create(ctx context.Context, c auth.Caller, orgID string, n space.NewSpace) (space.View, error)
}

// Content reads and replaces a space's content (content.Service does).
type Content interface {
	Tree(ctx context.Context, revisionID string) (*contenttree.Tree, error)
	Replace(ctx context.Context, c auth.Caller, spaceID string, tree *contenttree.Tree) (content.Revision, content.Stats, error)
}

// Service answers the translation and glossary operations and runs translations.
type Service struct {
	store     Store
	orgs      Orgs
	spaces    Spaces
	content   Content
	providers *Providers
	clock     clock.Clock
	log       *slog.Logger
}

// NewService returns the service.
func NewService(st Store, orgs Orgs, spaces Spaces, cs Content, p *Providers, clk clock.Clock, log *slog.Logger) *Service {
	return &Service{store: st, orgs: orgs, spaces: spaces, content: cs, providers: p, clock: clk, log: log}
}

// Providers returns the configured providers.
func (s *Service) Providers() *Providers { return s.providers }

// View is a translation with what the caller may do with it.
type View struct {
	Translation
	CanEdit bool
}

// access returns the caller's role in the organization: 404 for non-members (an
// organization's existence is private), 403 for guests; write needs the create role.
func (s *Service) access(ctx context.Context, c auth.Caller, orgID string, write bool) (auth.Role, error) {
	role, member, err := s.orgs.Role(ctx, c, orgID)
	if err != nil {
		return role, err
	}
	if !member {
		return role, apperr.NotFoundf("organization %s not found", orgID)
	}
	if role == auth.Guest {
		return role, apperr.Forbiddenf("guests may not use translations")
	}
	if write && !role.AtLeast(auth.Create) {
		return role, apperr.Forbiddenf("this needs the create role in the organization (you have %s)", role)
	}
	return role, nil
}

// Input is what a caller sets on a translation; nil leaves a field as it is.
type Input struct {
	SourceSpace    *string
	SourceLanguage *string
	Language       *string
	Instructions   json.RawMessage
	AutoRun        *bool
}

func validLanguage(field string, l *string) error {
	if l == nil || *l == "" {
		return validate.Required(field)
	}
	return validate.OneOf(field, *l, Languages...)
}

// Create makes a translation of a space the caller can read (create role in the
// organization). It does not run it.
func (s *Service) Create(ctx context.Context, c auth.Caller, orgID string, in Input) (View, error) {
	if in.SourceSpace == nil || *in.SourceSpace == "" {
		return View{}, validate.Required("source.space")
	}
	if err := validate.First(validLanguage("source.language", in.SourceLanguage), validLanguage("language", in.Language)); err != nil {
		return View{}, err
	}
	if *in.SourceLanguage == *in.Language {
		return View{}, apperr.Invalidf("language: must differ from source.language (both %s)", *in.Language)
	}
	doc := richtext.Empty()
	if len(in.Instructions) > 0 && string(in.Instructions) != "null" {
		var err error
		if doc, err = richtext.Validate("instructions", in.Instructions); err != nil {
			return View{}, err
		}
	}
	if _, err := s.access(ctx, c, orgID, true); err != nil {
		return View{}, err
	}
	sv, err := s.spaces.RoleOn(ctx, c, *in.SourceSpace)
	if apperr.CodeOf(err) == apperr.NotFound || (err == nil && sv.OrganizationID != orgID) {
		return View{}, apperr.Invalidf("source.space: no space %s in this organization", *in.SourceSpace)
	} else if err != nil {
		return View{}, err
	}
	now := s.clock.Now()
	t := Translation{ID: ids.New(), OrgID: orgID, SourceSpace: sv.ID, SourceLanguage: *in.SourceLanguage,
		Language: *in.Language, Instructions: doc, AutoRun: in.AutoRun == nil || *in.AutoRun, Status: Completed,
		CreatedBy: c.UserID, CreatedAt: now, UpdatedAt: now}
	if err := s.store.Insert(ctx, t); err != nil {
		return View{}, err
	}
	return View{Translation: t, CanEdit: true}, nil
}

// Get returns a translation of the organization to a member.
func (s *Service) Get(ctx context.Context, c auth.Caller, orgID, id string) (View, error) {
	role, err := s.access(ctx, c, orgID, false)
	if err != nil {
		return View{}, err
	}
	t, err := s.store.Get(ctx, orgID, id)
	if errors.Is(err, ErrNotFound) {
		return View{}, apperr.NotFoundf("translation %s not found", id)
	}
	return View{Translation: t, CanEdit: role.AtLeast(auth.Create)}, err
}

// List returns the organization's translations to a member, oldest first.
func (s *Service) List(ctx context.Context, c auth.Caller, orgID string, page paging.Request) (paging.Result[View], error) {
	role, err := s.access(ctx, c, orgID, false)
	if err != nil {
		return paging.Result[View]{}, err
	}
	res, err := s.store.List(ctx, orgID, page)
	if err != nil {
		return paging.Result[View]{}, err
	}
	out := paging.Result[View]{Count: res.Count, Next: res.Next, Items: make([]View, 0, len(res.Items))}
	for _, t := range res.Items {
		out.Items = append(out.Items, View{Translation: t, CanEdit: role.AtLeast(auth.Create)})
	}
	return out, nil
}

// Update sets a translation's instructions (required, as in the API) and autoRun.
func (s *Service) Update(ctx context.Context, c auth.Caller, orgID, id string, in Input) (View, error) {
	if len(in.Instructions) == 0 || string(in.Instructions) == "null" {
		return View{}, apperr.Invalidf("instructions: is required (a rich-text document)")
	}
	doc, err := richtext.Validate("instructions", in.Instructions)
	if err != nil {
		return View{}, err
	}
	if _, err := s.access(ctx, c, orgID, true); err != nil {
		return View{}, err
	}
	t, err := s.store.Get(ctx, orgID, id)
	if errors.Is(err, ErrNotFound) {
		return View{}, apperr.NotFoundf("translation %s not found", id)
	} else if err != nil {
		return View{}, err
	}
	t.Instructions, t.UpdatedAt = doc, s.clock.Now()
	if in.AutoRun != nil {
		t.AutoRun = *in.AutoRun
	}
	if err := s.store.UpdateSettings(ctx, t); err != nil {
		return View{}, err
	}
	return View{Translation: t, CanEdit: true}, nil
}

// Delete removes a translation (its result space stays); it reports whether one existed.
func (s *Service) Delete(ctx context.Context, c auth.Caller, orgID, id string) (bool, error) {
	if _, err := s.access(ctx, c, orgID, true); err != nil {
		return false, err
	}
	return s.store.Delete(ctx, orgID, id)
}

// Run queues a run of the translation. A pair that no configured provider covers is refused
// now, with a 400 that names the pair and how to add a provider.
func (s *Service) Run(ctx context.Context, c auth.Caller, orgID, id string) error {
	if _, err := s.access(ctx, c, orgID, true); err != nil {
		return err
	}
	t, err := s.store.Get(ctx, orgID, id)
	if errors.Is(err, ErrNotFound) {
		return apperr.NotFoundf("translation %s not found", id)
	} else if err != nil {
		return err
	}
	if _, err := s.providers.For(t.SourceLanguage, t.Language); err != nil {
		return err
	}
	_, err = s.store.QueueRun(ctx, t.ID, s.clock.Now(), JobKind)
	return err
}

// ensure the clock is used for durations in seconds, rounded up so a run that did anything
// never counts as zero seconds of work.
func seconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}
