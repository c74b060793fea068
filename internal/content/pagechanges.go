package content

import (
	"context"
	"errors"
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
	var revs [2]storedRevision
	for i, id := range []string{from, to} {
		r, err := resolveID(ctx, tx, id)
		if errors.Is(err, ErrNotFound) {
			return nil, nil, apperr.NotFoundf("revision %s not found", id)
		}
		if err != nil {
			return nil, nil, err
		}
		revs[i] = r
	}
	return changedKeys(ctx, s.nodes(tx), revs[0], revs[1])
}

// changedKeys lists, sorted, the pages added or changed between two resolved revisions, and
// those removed.
func changedKeys(ctx context.Context, get nodeSource, a, b storedRevision) (changed, removed []string, err error) {
	diff := map[string][2]string{}
	if err := diffStored(ctx, get, a.pagesRoot, a.pages, b.pagesRoot, b.pages, diff); err != nil {
		return nil, nil, err
	}
	changed, removed = splitDiff(diff)
	return changed, removed, nil
}

// splitDiff lists, sorted, the keys a difference adds or changes, and those it removes.
func splitDiff(diff map[string][2]string) (changed, removed []string) {
	for id, h := range diff {
		if h[1] == "" {
			removed = append(removed, id)
		} else {
			changed = append(changed, id)
		}
	}
	slices.Sort(changed)
	slices.Sort(removed)
	return changed, removed
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
