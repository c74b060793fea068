package changereq

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/ids"
	"docsd/internal/markdoc"
	"docsd/internal/opt"
	"docsd/internal/pagelayout"
	"docsd/internal/space"
	"docsd/internal/validate"
)

// Page field limits, as the space content's.
const (
	PageTitleMax       = 255
	PageSlugMax        = 100
	PageDescriptionMax = 1000
	PageEmojiMax       = 30
)

// PageEdit changes one page of a change request; absent fields are left alone (a new page
// gets an empty value). Parent null or "" places the page at the top level; Position is its
// index among its siblings (absent: last).
type PageEdit struct {
	Kind        string
	Title       opt.Field[string]
	Slug        opt.Field[string]
	Description opt.Field[string]
	Emoji       opt.Field[string]
	Markdown    opt.Field[string]
	Parent      opt.Field[string]
	Position    opt.Field[int]
	// Layout is the API's layout as JSON: a preset, some options (the others are kept), or
	// null (the defaults); nil when absent. Documents only.
	Layout json.RawMessage
}

// EditResult names the page edited and the change request's new revision.
type EditResult struct {
	PageID   string
	Revision string
}

// takeTitle treats markdown that starts with a "# Title" line as an import does: the line is
// the page's title, not a line of its body. A title the edit gives explicitly wins over the
// heading, as a SUMMARY.md title does on import; the heading leaves the body either way.
func (e *PageEdit) takeTitle() {
	if !e.Markdown.Set || e.Markdown.Null {
		return
	}
	title, body := markdoc.SplitTitle(e.Markdown.Value)
	if title == "" {
		return
	}
	e.Markdown.Value = body
	if !e.Title.Set || e.Title.Null {
		e.Title = opt.Field[string]{Set: true, Value: title}
	}
}

func (e PageEdit) validate() error {
	checks := []struct {
		field string
		v     opt.Field[string]
		min   int
		max   int
	}{
		{"title", e.Title, 0, PageTitleMax}, {"slug", e.Slug, 0, PageSlugMax},
		{"description", e.Description, 0, PageDescriptionMax}, {"emoji", e.Emoji, 0, PageEmojiMax},
	}
	for _, c := range checks {
		if c.v.Set && !c.v.Null {
			if err := validate.Length(c.field, c.v.Value, c.min, c.max); err != nil {
				return err
			}
		}
	}
	if e.Position.Set && !e.Position.Null && e.Position.Value < 0 {
		return apperr.Invalidf("position: must be 0 or more (got %d)", e.Position.Value)
	}
	if e.Kind != "" {
		return validate.OneOf("kind", e.Kind, string(contenttree.KindDocument), string(contenttree.KindGroup))
	}
	return nil
}

// value returns the field's value, "" when null.
func value(f opt.Field[string]) string {
	if f.Null {
		return ""
	}
	return f.Value
}

// CreatePage adds a page to the change request's content.
func (s *Service) CreatePage(ctx context.Context, c auth.Caller, spaceID, ref string, e PageEdit) (EditResult, error) {
	e.takeTitle()
	if err := e.validate(); err != nil {
		return EditResult{}, err
	}
	if !e.Title.Set || value(e.Title) == "" {
		return EditResult{}, apperr.Invalidf("title: is required (1 to %d characters)", PageTitleMax)
	}
	kind := contenttree.Kind(e.Kind)
	if kind == "" {
		kind = contenttree.KindDocument
	}
	p := contenttree.Page{ID: ids.New(), Kind: kind}
	return s.editPages(ctx, c, spaceID, ref, p.ID, func(v *content.View) (content.Changes, error) {
		p, err := apply(v, p, e)
		return content.Changes{UpsertPages: []contenttree.Page{p}}, err
	})
}

// UpdatePage changes a page of the change request's content: its fields, and its place when
// parent or position are given.
func (s *Service) UpdatePage(ctx context.Context, c auth.Caller, spaceID, ref, pageID string, e PageEdit) (EditResult, error) {
	e.takeTitle()
	if err := e.validate(); err != nil {
		return EditResult{}, err
	}
	if e.Kind != "" {
		return EditResult{}, apperr.Invalidf("kind: cannot change once the page exists")
	}
	if e.Title.Set && value(e.Title) == "" {
		return EditResult{}, apperr.Invalidf("title: must be 1 to %d characters", PageTitleMax)
	}
	return s.editPages(ctx, c, spaceID, ref, pageID, func(v *content.View) (content.Changes, error) {
		p, found := v.Page(pageID)
		if !found {
			return content.Changes{}, apperr.NotFoundf("page %s not found in the change request", pageID)
		}
		if !e.Markdown.Set { // the view's pages carry no markdown: keep the page's own
			md, err := s.content.ViewMarkdown(ctx, v, pageID)
			if err != nil {
				return content.Changes{}, err
			}
			p.Markdown = md
		}
		p, err := apply(v, p, e)
		return content.Changes{UpsertPages: []contenttree.Page{p}}, err
	})
}

// DeletePage removes a page and every page under it. A page that is not there is already
// deleted: no revision is made.
func (s *Service) DeletePage(ctx context.Context, c auth.Caller, spaceID, ref, pageID string) (EditResult, error) {
	return s.editPages(ctx, c, spaceID, ref, pageID, func(v *content.View) (content.Changes, error) {
		if _, found := v.Page(pageID); !found {
			return content.Changes{}, errNothingToDo
		}
		removed := []string{pageID}
		for i := 0; i < len(removed); i++ {
			removed = append(removed, v.Children(removed[i])...)
		}
		return content.Changes{RemovePages: removed}, nil
	})
}

// errNothingToDo stops an edit that would change nothing.
var errNothingToDo = apperr.Invalidf("nothing to do")

// apply sets the edit's fields on p and places it among its siblings in v.
func apply(v *content.View, p contenttree.Page, e PageEdit) (contenttree.Page, error) {
	if e.Title.Set {
		p.Title = value(e.Title)
	}
	if e.Slug.Set {
		p.Slug = value(e.Slug)
	}
	if p.Slug == "" {
		p.Slug = slugOf(p.Title, p.ID)
	}
	if e.Description.Set {
		p.Description = value(e.Description)
	}
	if e.Emoji.Set {
		p.Emoji = value(e.Emoji)
	}
	if e.Layout != nil {
		if p.Kind != contenttree.KindDocument {
			return p, apperr.Invalidf("layout: only document pages have a layout (this page is a %s)", p.Kind)
		}
		layout, err := pagelayout.Edit("layout", p.Layout, e.Layout)
		if err != nil {
			return p, err
		}
		p.Layout = layout
	}
	if e.Markdown.Set {
		p.Markdown = value(e.Markdown)
		p.Git = contenttree.GitBlob{} // the page no longer matches the file it was imported from
	}
	_, exists := v.Page(p.ID)
	if !exists || e.Parent.Set || e.Position.Set {
		if e.Parent.Set {
			p.ParentID = value(e.Parent)
		}
		if p.ParentID != "" {
			if _, found := v.Page(p.ParentID); !found {
				return p, apperr.Invalidf("parent: page %s not found in the change request", p.ParentID)
			}
		}
		siblings := slices.DeleteFunc(v.ChildPages(p.ParentID), func(q contenttree.Page) bool { return q.ID == p.ID })
		at := len(siblings)
		if e.Position.Set && !e.Position.Null {
			at = min(e.Position.Value, len(siblings))
		}
		var before, after string
		if at > 0 {
			before = siblings[at-1].Order
		}
		if at < len(siblings) {
			after = siblings[at].Order
		}
		order, err := contenttree.OrderBetween(before, after)
		if err != nil {
			return p, apperr.Conflictf("position: the siblings' order keys leave no room (%v)", err)
		}
		p.Order = order
	}
	return p, nil
}

// slugOf derives a slug from a title: lower-case letters and digits joined by dashes; the
// page id when the title has none.
func slugOf(title, id string) string {
	var out []rune
	dash := false
	for _, r := range title {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			out = append(out, r)
			dash = false
		case r >= 'A' && r <= 'Z':
			out = append(out, r+'a'-'A')
			dash = false
		case len(out) > 0 && !dash:
			out = append(out, '-')
			dash = true
		}
	}
	slug := string(out)
	for len(slug) > 0 && slug[len(slug)-1] == '-' {
		slug = slug[:len(slug)-1]
	}
	if slug == "" {
		return id
	}
	return slug[:min(len(slug), PageSlugMax)]
}

// editPages commits the changes that change makes to the change request's content, as a new
// revision of the change request. The space's head does not move. change reads the change
// request's content through a view (whose pages carry no markdown): loading the whole tree,
// or every page's markdown, would make an edit cost the size of the space.
func (s *Service) editPages(ctx context.Context, c auth.Caller, spaceID, ref, pageID string, change func(*content.View) (content.Changes, error)) (EditResult, error) {
	return s.editPagesAlso(ctx, c, spaceID, ref, pageID, change, nil)
}

// ApplyChanges commits the changes that change makes to the change request's content, as a
// page edit does, and runs also inside the same transaction after the commit, so that what
// it writes commits or vanishes with the content (an import run's completion, say).
func (s *Service) ApplyChanges(ctx context.Context, c auth.Caller, spaceID, ref string, change func(*content.View) (content.Changes, error), also func(context.Context, content.Tx, string) error) (EditResult, error) {
	return s.editPagesAlso(ctx, c, spaceID, ref, "", change, also)
}

func (s *Service) editPagesAlso(ctx context.Context, c auth.Caller, spaceID, ref, pageID string, change func(*content.View) (content.Changes, error), also func(context.Context, content.Tx, string) error) (EditResult, error) {
	v, err := s.canWrite(ctx, c, spaceID)
	if err != nil {
		return EditResult{}, err
	}
	now := s.clock.Now()
	var out EditResult
	err = s.store.Write(ctx, now, func(tx Tx) error {
		cr, err := s.unmerged(ctx, tx, v, ref)
		if err != nil {
			return err
		}
		view, err := s.content.RevisionView(ctx, cr.Revision)
		if err != nil {
			return err
		}
		ch, err := change(view)
		if err == errNothingToDo {
			out = EditResult{PageID: pageID, Revision: cr.Revision}
			return nil
		}
		if err != nil {
			return err
		}
		stamp(ch.UpsertPages, now)
		rev, _, err := s.content.Commit(ctx, tx.Content(), cr.Revision, ch,
			content.Meta{SpaceID: spaceID, AuthorID: c.UserID, Working: true}, now)
		if err != nil {
			return err
		}
		prev := cr.Revision
		cr.Revision, cr.UpdatedAt = rev.ID, now
		out = EditResult{PageID: pageID, Revision: rev.ID}
		if err := tx.AddContributor(ctx, cr.ID, c.UserID, true, now); err != nil {
			return err
		}
		if err := update(ctx, tx, cr, prev); err != nil {
			return err
		}
		if also != nil {
			return also(ctx, tx.Content(), rev.ID)
		}
		return nil
	})
	return out, err
}

// stamp records an edit made at now on pages: their last edit, and their creation when they
// have none yet (a new page, or an imported one edited for the first time: docsd cannot
// know when an imported file was written). Times keep the API's precision, milliseconds, so
// a page reads the same from memory as from its stored record.
func stamp(pages []contenttree.Page, now time.Time) {
	now = now.UTC().Truncate(time.Millisecond)
	for i := range pages {
		pages[i].UpdatedAt = now
		if pages[i].CreatedAt.IsZero() {
			pages[i].CreatedAt = now
		}
	}
}

// canWrite checks that the caller may change content through a change request: edit role,
// and the space not locked (409).
func (s *Service) canWrite(ctx context.Context, c auth.Caller, spaceID string) (space.View, error) {
	v, err := s.canEdit(ctx, c, spaceID)
	if err != nil {
		return v, err
	}
	return v, space.RequireEditable(v.Space)
}

// unmerged reads a change request in tx, refusing a merged one (409).
func (s *Service) unmerged(ctx context.Context, tx Tx, v space.View, ref string) (ChangeRequest, error) {
	cur, err := s.get(ctx, tx, v, ref)
	if err != nil {
		return ChangeRequest{}, err
	}
	return cur.ChangeRequest, requireUnmerged(cur.ChangeRequest)
}

// requireUnmerged refuses changes to a merged change request.
func requireUnmerged(cr ChangeRequest) error {
	if cr.Status == Merged {
		return apperr.Conflictf("change request %d is merged: it can no longer change", cr.Number)
	}
	return nil
}
