package changereq

import (
	"context"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/ids"
	"docsd/internal/opt"
	"docsd/internal/validate"
)

// ReusableContentTitleMax bounds a reusable content's title, as a page's.
const ReusableContentTitleMax = PageTitleMax

// ReusableContentEdit changes a reusable content of a change request; absent fields are left
// alone.
type ReusableContentEdit struct {
	Title    opt.Field[string]
	Markdown opt.Field[string]
}

func (e ReusableContentEdit) validate(creating bool) error {
	if e.Title.Set && e.Title.Null {
		return apperr.Invalidf("title: must be a string of 1 to %d characters", ReusableContentTitleMax)
	}
	if e.Title.Set {
		if err := validate.Length("title", e.Title.Value, 1, ReusableContentTitleMax); err != nil {
			return err
		}
	} else if creating {
		return apperr.Invalidf("title: is required (1 to %d characters)", ReusableContentTitleMax)
	}
	if e.Markdown.Set && e.Markdown.Null {
		return apperr.Invalidf("markdown: must be a string")
	}
	return nil
}

// CreateReusableContent adds a reusable content to the change request's content; the
// result's PageID is its id.
func (s *Service) CreateReusableContent(ctx context.Context, c auth.Caller, spaceID, ref string, e ReusableContentEdit) (EditResult, error) {
	if err := e.validate(true); err != nil {
		return EditResult{}, err
	}
	r := contenttree.ReusableContent{ID: ids.New(), Title: e.Title.Value, Markdown: e.Markdown.Value}
	return s.editPages(ctx, c, spaceID, ref, r.ID, func(*content.View) (content.Changes, error) {
		return content.Changes{UpsertReusable: []contenttree.ReusableContent{r}}, nil
	})
}

// UpdateReusableContent changes the title or the markdown of a reusable content of the change
// request; a 404 when it has none with that id.
func (s *Service) UpdateReusableContent(ctx context.Context, c auth.Caller, spaceID, ref, id string, e ReusableContentEdit) (EditResult, error) {
	if err := e.validate(false); err != nil {
		return EditResult{}, err
	}
	return s.editPages(ctx, c, spaceID, ref, id, func(v *content.View) (content.Changes, error) {
		r, found, err := s.content.ViewReusableContent(ctx, v, id)
		if err != nil {
			return content.Changes{}, err
		}
		if !found {
			return content.Changes{}, apperr.NotFoundf("reusable content %s not found in the change request", id)
		}
		next := r
		if e.Title.Set {
			next.Title = e.Title.Value
		}
		if e.Markdown.Set {
			next.Markdown = e.Markdown.Value
		}
		if next == r {
			return content.Changes{}, errNothingToDo
		}
		return content.Changes{UpsertReusable: []contenttree.ReusableContent{next}}, nil
	})
}

// DeleteReusableContent removes a reusable content from the change request's content; one
// that is not there is already deleted, and no revision is made.
func (s *Service) DeleteReusableContent(ctx context.Context, c auth.Caller, spaceID, ref, id string) (EditResult, error) {
	return s.editPages(ctx, c, spaceID, ref, id, func(v *content.View) (content.Changes, error) {
		_, found, err := s.content.ViewReusableContent(ctx, v, id)
		if err != nil {
			return content.Changes{}, err
		}
		if !found {
			return content.Changes{}, errNothingToDo
		}
		return content.Changes{RemoveReusable: []string{id}}, nil
	})
}
