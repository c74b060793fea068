package content

import (
	"context"
	"errors"
	"slices"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/contenttree"
	"docsd/internal/space"
)

// PageDiff is one page that differs between two revisions: its record before and after (nil
// where it is absent), with the hashes of its markdown, which stand for its document.
type PageDiff struct {
	Before, After     *contenttree.Page
	BeforeMD, AfterMD string
	// BeforePath and AfterPath are the page's paths in each revision ("" for a link).
	BeforePath, AfterPath string
	// ParentBefore and ParentAfter are the page's parents when it moved to another parent
	// (nil for the top level, or when it did not move).
	ParentBefore, ParentAfter *contenttree.Page
}

// FileDiff is one file that differs between two revisions, before and after.
type FileDiff struct {
	Before, After *contenttree.File
}

// RevisionIn checks that the caller can read the space (404 otherwise) and that the revision
// is readable through it, by the rule of AtRevision, without loading its content.
func (s *Service) RevisionIn(ctx context.Context, c auth.Caller, spaceID, revisionID string) (space.View, Revision, error) {
	v, err := s.spaces.RoleOn(ctx, c, spaceID)
	if err != nil {
		return v, Revision{}, err
	}
	rev, err := s.store.Read().Revision(ctx, revisionID)
	if errors.Is(err, ErrNotFound) || (err == nil && rev.SpaceID != spaceID && revisionID != v.Revision) {
		return v, rev, apperr.NotFoundf("revision %s not found in space %s", revisionID, spaceID)
	}
	return v, rev, err
}

// Diff lists the pages and files that differ between two revisions (from "" for no content),
// sorted by id. Like Delta it walks the two tries together, skipping equal subtrees, and reads
// only the records of what changed (and the parents of moved pages): its cost follows the
// size of the change.
func (s *Service) Diff(ctx context.Context, fromID, toID string) ([]PageDiff, []FileDiff, error) {
	tx := s.store.Read()
	a, err := resolveID(ctx, tx, fromID)
	if err != nil {
		return nil, nil, err
	}
	b, err := resolveID(ctx, tx, toID)
	if err != nil {
		return nil, nil, err
	}
	get := s.nodes(tx)
	pages, files, err := diffRevisions(ctx, get, a, b)
	if err != nil {
		return nil, nil, err
	}
	var want []string
	for _, hs := range []map[string][2]string{pages, files} {
		for _, h := range hs {
			for _, x := range h {
				if x != "" {
					want = append(want, x)
				}
			}
		}
	}
	bodies, err := objects(ctx, tx, want)
	if err != nil {
		return nil, nil, err
	}
	page := func(h string) (*contenttree.Page, string, error) {
		if h == "" {
			return nil, "", nil
		}
		p, md, err := decodePage(bodies[h])
		return &p, md, err
	}
	var outPages []PageDiff
	seenA, seenB := map[string]*contenttree.Page{}, map[string]*contenttree.Page{}
	for _, id := range sortedKeys(pages) {
		h := pages[id]
		var d PageDiff
		if d.Before, d.BeforeMD, err = page(h[0]); err != nil {
			return nil, nil, err
		}
		if d.After, d.AfterMD, err = page(h[1]); err != nil {
			return nil, nil, err
		}
		if d.Before != nil && d.After != nil && d.Before.ParentID != d.After.ParentID {
			if d.ParentBefore, err = s.record(ctx, tx, get, a, d.Before.ParentID); err != nil {
				return nil, nil, err
			}
			if d.ParentAfter, err = s.record(ctx, tx, get, b, d.After.ParentID); err != nil {
				return nil, nil, err
			}
		}
		if d.BeforePath, err = s.pathIn(ctx, tx, get, a, d.Before, seenA); err != nil {
			return nil, nil, err
		}
		if d.AfterPath, err = s.pathIn(ctx, tx, get, b, d.After, seenB); err != nil {
			return nil, nil, err
		}
		outPages = append(outPages, d)
	}
	var outFiles []FileDiff
	for _, id := range sortedKeys(files) {
		var d FileDiff
		for i, h := range files[id] {
			if h == "" {
				continue
			}
			f, err := decodeFile(bodies[h])
			if err != nil {
				return nil, nil, err
			}
			if i == 0 {
				d.Before = &f
			} else {
				d.After = &f
			}
		}
		outFiles = append(outFiles, d)
	}
	return outPages, outFiles, nil
}

// record reads one page's record from a resolved revision; nil for "" or an absent page.
func (s *Service) record(ctx context.Context, tx Tx, get nodeSource, r storedRevision, id string) (*contenttree.Page, error) {
	if id == "" {
		return nil, nil
	}
	h, err := r.pageHash(ctx, get, id)
	if err != nil || h == "" {
		return nil, err
	}
	bodies, err := objects(ctx, tx, []string{h})
	if err != nil {
		return nil, err
	}
	p, _, err := decodePage(bodies[h])
	return &p, err
}

// pathMaxDepth bounds the walk up a page's ancestors.
const pathMaxDepth = 100

// pathIn is p's path in a resolved revision: its ancestors' slugs and its own, read one
// record per ancestor (remembered in seen); "" for nil, a link, or a broken chain.
func (s *Service) pathIn(ctx context.Context, tx Tx, get nodeSource, r storedRevision, p *contenttree.Page, seen map[string]*contenttree.Page) (string, error) {
	if p == nil || p.Kind == contenttree.KindLink {
		return "", nil
	}
	slugs := []string{p.Slug}
	for id, depth := p.ParentID, 0; id != ""; depth++ {
		if depth == pathMaxDepth {
			return "", nil
		}
		parent, ok := seen[id]
		if !ok {
			var err error
			if parent, err = s.record(ctx, tx, get, r, id); err != nil {
				return "", err
			}
			seen[id] = parent
		}
		if parent == nil {
			return "", nil
		}
		slugs = append(slugs, parent.Slug)
		id = parent.ParentID
	}
	slices.Reverse(slugs)
	return strings.Join(slugs, "/"), nil
}

func sortedKeys(m map[string][2]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
