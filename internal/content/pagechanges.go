package content

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"docsd/internal/apperr"
	"docsd/internal/contenttree"
)

// PageChanges lists the pages whose records differ between two revisions: those added or
// changed in to (Changed) and those gone from it (Removed), each sorted. from may be "" for
// "no content". It walks the two page tries together and skips every subtree whose hash is
// the same in both, so its cost follows the size of the difference, not of the spaces: a
// one-page edit of a 10,000-page space reads a handful of trie nodes.
func (s *Service) PageChanges(ctx context.Context, from, to string) (changed, removed []string, err error) {
	tx := s.store.Read()
	roots := [2]string{}
	for i, id := range []string{from, to} {
		if id == "" {
			continue
		}
		rev, err := tx.Revision(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return nil, nil, apperr.NotFoundf("revision %s not found", id)
		}
		if err != nil {
			return nil, nil, err
		}
		roots[i] = rev.PagesRoot
	}
	d := trieDiff{get: s.nodes(tx)}
	if err := d.walk(ctx, roots[0], roots[1], 0); err != nil {
		return nil, nil, err
	}
	slices.Sort(d.changed)
	slices.Sort(d.removed)
	return d.changed, d.removed, nil
}

type trieDiff struct {
	get              nodeSource
	changed, removed []string
}

// walk compares the subtrees a (old) and b (new) at depth d.
func (t *trieDiff) walk(ctx context.Context, a, b string, d int) error {
	if a == b {
		return nil
	}
	na, nb, err := t.pair(ctx, a, b)
	if err != nil {
		return err
	}
	if na != nil && nb != nil && na.Children != nil && nb.Children != nil {
		for i := range fanout {
			if err := t.walk(ctx, na.Children[i], nb.Children[i], d+1); err != nil {
				return err
			}
		}
		return nil
	}
	// A leaf on either side holds few entries (a branch beside it only just outgrew one),
	// so comparing the two subtrees entry by entry stays small.
	ea, err := t.entries(ctx, a, na)
	if err != nil {
		return err
	}
	eb, err := t.entries(ctx, b, nb)
	if err != nil {
		return err
	}
	for k, v := range eb {
		if ea[k] != v {
			t.changed = append(t.changed, k)
		}
	}
	for k := range ea {
		if _, ok := eb[k]; !ok {
			t.removed = append(t.removed, k)
		}
	}
	return nil
}

func (t *trieDiff) pair(ctx context.Context, a, b string) (*node, *node, error) {
	var hs []string
	for _, h := range []string{a, b} {
		if h != "" {
			hs = append(hs, h)
		}
	}
	got, err := t.get(ctx, hs)
	if err != nil {
		return nil, nil, err
	}
	for _, h := range hs {
		if got[h] == nil {
			return nil, nil, fmt.Errorf("content: trie node %s is missing", h)
		}
	}
	return got[a], got[b], nil
}

func (t *trieDiff) entries(ctx context.Context, h string, n *node) (map[string]string, error) {
	if n == nil {
		return map[string]string{}, nil
	}
	if n.Children == nil {
		out := make(map[string]string, len(n.Entries))
		for _, e := range n.Entries {
			out[e[0]] = e[1]
		}
		return out, nil
	}
	return trieAll(ctx, t.get, h)
}

// PageAt returns one page of a revision with its markdown, like Page, and whether it exists;
// a missing page is not an error here, as an indexer racing a later edit meets it.
func (s *Service) PageAt(ctx context.Context, revisionID, pageID string) (contenttree.Page, bool, error) {
	p, err := s.Page(ctx, revisionID, pageID)
	if apperr.Is(err, apperr.NotFound) {
		return p, false, nil
	}
	return p, err == nil, err
}

// Snapshot returns a decoded revision without checking anyone's access: for services that
// check it themselves (search resolves the titles and paths of the pages it found).
func (s *Service) Snapshot(ctx context.Context, revisionID string) (*Snapshot, error) {
	return s.snapshot(ctx, s.store.Read(), revisionID)
}
