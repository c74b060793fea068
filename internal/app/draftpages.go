package app

import (
	"context"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/changereq"
	"docsd/internal/opt"
)

// draftPages gives conversations' agent tasks the pages they draft change requests to
// (conversation.Pages), through the space, content and change-request services and so with
// the drafting user's rights.
type draftPages struct{ a *App }

func (d draftPages) Page(ctx context.Context, c auth.Caller, spaceID, pageID string) (string, string, string, error) {
	v, err := d.a.Spaces.RoleOn(ctx, c, spaceID)
	if err != nil {
		return "", "", "", err
	}
	if v.Revision == "" {
		return "", "", "", apperr.NotFoundf("space %s has no content", spaceID)
	}
	tree, err := d.a.Content.Tree(ctx, v.Revision)
	if err != nil {
		return "", "", "", err
	}
	if pageID == "" {
		home, ok := tree.Home()
		if !ok {
			return "", "", "", apperr.NotFoundf("space %s has no page", spaceID)
		}
		pageID = home.ID
	}
	p, ok := tree.Pages[pageID]
	if !ok {
		return "", "", "", apperr.NotFoundf("page %s not found in space %s", pageID, spaceID)
	}
	return p.ID, p.Title, p.Markdown, nil
}

func (d draftPages) Open(ctx context.Context, c auth.Caller, spaceID, subject string) (string, error) {
	cr, err := d.a.ChangeRequests.Create(ctx, c, spaceID, changereq.Create{Subject: subject})
	return cr.ID, err
}

func (d draftPages) Edit(ctx context.Context, c auth.Caller, spaceID, changeRequest, pageID, markdown string) error {
	_, err := d.a.ChangeRequests.UpdatePage(ctx, c, spaceID, changeRequest, pageID,
		changereq.PageEdit{Markdown: opt.Of(markdown)})
	return err
}
