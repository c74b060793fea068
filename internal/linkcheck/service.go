package linkcheck

import (
	"context"

	"docsd/internal/content"
	"docsd/internal/contenttree"
)

// Service computes link checks of revisions. A revision never changes, so its checker and
// its index are computed once and cached with the content service's derived values: the
// links of one page cost that page's markdown and, once per revision, an index of its paths;
// only space-wide lists and backlinks read every page, once per revision.
type Service struct {
	content   *content.Service
	appPrefix string
}

// NewService returns the link-check service; appPrefix starts this server's app URLs.
func NewService(cs *content.Service, appPrefix string) *Service {
	return &Service{content: cs, appPrefix: appPrefix}
}

func (s *Service) checker(snap *content.Snapshot) *Checker {
	c, _ := content.Derive(s.content, snap.Revision.ID, "linkcheck.checker", func() (*Checker, error) {
		return NewChecker(snap.Tree, s.appPrefix), nil
	})
	return c
}

// Index returns every link of a revision.
func (s *Service) Index(ctx context.Context, snap *content.Snapshot) (*Index, error) {
	return content.Derive(s.content, snap.Revision.ID, "linkcheck.index", func() (*Index, error) {
		// Other requests may be waiting for this computation: the one that started it
		// going away must not fail theirs.
		tree, err := s.content.Tree(context.WithoutCancel(ctx), snap.Revision.ID)
		if err != nil {
			return nil, err
		}
		var order []string
		tree.Walk(func(p contenttree.Page, _ int) bool {
			order = append(order, p.ID)
			return true
		})
		c := s.checker(snap)
		return Build(order, func(id string) []Link { return c.linksOf(tree.Pages[id]) }), nil
	})
}

// PageLinks returns the targets page pageID links to: a document's links, a link page's
// target; groups have none. ok is false when the revision has no such page.
func (s *Service) PageLinks(ctx context.Context, snap *content.Snapshot, pageID string) (links []Usage, ok bool, err error) {
	p, found := snap.Tree.Pages[pageID]
	if !found {
		return nil, false, nil
	}
	if p.Kind == contenttree.KindDocument {
		if p.Markdown, err = s.content.Markdown(ctx, snap, pageID); err != nil {
			return nil, true, err
		}
	}
	ls := s.checker(snap).linksOf(p)
	out := make([]Usage, len(ls))
	for i, l := range ls {
		out[i] = Usage{Link: l, Pages: []string{pageID}}
	}
	return out, true, nil
}

// linksOf returns the links of a page that carries its markdown.
func (c *Checker) linksOf(p contenttree.Page) []Link {
	switch p.Kind {
	case contenttree.KindDocument:
		return c.PageLinks(p.ID, p.Markdown)
	case contenttree.KindLink:
		if l, ok := c.LinkPageTarget(p); ok {
			return []Link{l}
		}
	}
	return nil
}
