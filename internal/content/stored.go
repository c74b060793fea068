package content

import (
	"context"
	"fmt"
)

// How revisions are stored. A revision that may become a space's head (a merge, an import,
// a template) is stored whole: the roots of its page and file tries. A change request's
// working revisions (its edits, and updates from the head) are stored as what they change in
// the revision under them, so an edit writes its own page, markdown and a short list of ids
// and hashes, whatever the size of the space: the trie paths a whole revision rewrites grow
// with the logarithm of the space. Chains of such revisions are at most maxStoredDepth deep;
// the commit that would go deeper stores its revision whole again, so reading a revision
// from the database costs at most that many small rows on top of a stored trie.
const maxStoredDepth = 32

// storedRevision is a revision resolved down its chain: the tries of the revision stored
// whole under it, and the changes the chain makes on top of them (the newest change of a key
// wins; "" removes the key).
type storedRevision struct {
	Revision
	pagesRoot, filesRoot string
	pages, files         map[string]string
}

// resolve walks rev's chain down to a revision stored whole, reading the chain in one query.
func resolve(ctx context.Context, tx Tx, rev Revision) (storedRevision, error) {
	r := storedRevision{Revision: rev, pagesRoot: rev.PagesRoot, filesRoot: rev.FilesRoot,
		pages: map[string]string{}, files: map[string]string{}}
	if rev.Base == "" {
		return r, nil
	}
	chain, err := tx.RevisionChain(ctx, rev.Base, maxStoredDepth)
	if err != nil {
		return r, err
	}
	chain = append([]Revision{rev}, chain...)
	for _, cur := range chain {
		if cur.Base == "" {
			r.pagesRoot, r.filesRoot = cur.PagesRoot, cur.FilesRoot
			return r, nil
		}
		addUnset(r.pages, cur.PageChanges)
		addUnset(r.files, cur.FileChanges)
	}
	// Not ErrNotFound: the revision asked for exists, its storage is broken.
	return r, fmt.Errorf("content: revision %s: its chain of stored changes ends at %s, which is missing or deeper than %d",
		rev.ID, chain[len(chain)-1].ID, maxStoredDepth)
}

// addUnset copies into dst the entries of src whose keys dst does not have.
func addUnset(dst, src map[string]string) {
	for k, v := range src {
		if _, ok := dst[k]; !ok {
			dst[k] = v
		}
	}
}

// resolveID reads a revision and resolves it; "" is the empty revision (no pages or files).
func resolveID(ctx context.Context, tx Tx, id string) (storedRevision, error) {
	if id == "" {
		return storedRevision{}, nil
	}
	rev, err := tx.Revision(ctx, id)
	if err != nil {
		return storedRevision{}, err
	}
	return resolve(ctx, tx, rev)
}

// pageHash is the record hash of a page of the revision ("" when it has no such page).
func (r storedRevision) pageHash(ctx context.Context, get nodeSource, id string) (string, error) {
	if h, ok := r.pages[id]; ok {
		return h, nil
	}
	h, _, err := trieGet(ctx, get, r.pagesRoot, id)
	return h, err
}

// allPages and allFiles list every entry of the revision.
func (r storedRevision) allPages(ctx context.Context, get nodeSource) (map[string]string, error) {
	return allEntries(ctx, get, r.pagesRoot, r.pages)
}

func (r storedRevision) allFiles(ctx context.Context, get nodeSource) (map[string]string, error) {
	return allEntries(ctx, get, r.filesRoot, r.files)
}

func allEntries(ctx context.Context, get nodeSource, root string, changes map[string]string) (map[string]string, error) {
	out, err := trieAll(ctx, get, root)
	if err != nil {
		return nil, err
	}
	return patchInPlace(out, changes), nil
}

// diffStored records in out, for every key whose value differs between two resolved
// revisions (one kind of entry: their roots and changes), its value in each ("" when
// absent). The tries are compared as trieDiff does, skipping equal subtrees; then every key
// either chain changed is settled on its own, so the cost follows the size of the
// difference plus the length of the chains.
func diffStored(ctx context.Context, get nodeSource, aRoot string, aChanges map[string]string, bRoot string, bChanges map[string]string, out map[string][2]string) error {
	tries := map[string][2]string{}
	if err := trieDiff(ctx, get, aRoot, bRoot, tries); err != nil {
		return err
	}
	for k, v := range tries {
		out[k] = v
	}
	// in is the value of k on one side: its chain's change, else its trie's value, which is
	// known from the comparison when the tries differ at k and is the same in both otherwise.
	in := func(k string, changes map[string]string, side int, root string) (string, error) {
		if h, ok := changes[k]; ok {
			return h, nil
		}
		if d, ok := tries[k]; ok {
			return d[side], nil
		}
		h, _, err := trieGet(ctx, get, root, k)
		return h, err
	}
	settle := func(k string) error {
		a, err := in(k, aChanges, 0, aRoot)
		if err != nil {
			return err
		}
		b, err := in(k, bChanges, 1, bRoot)
		if err != nil {
			return err
		}
		if a == b {
			delete(out, k)
		} else {
			out[k] = [2]string{a, b}
		}
		return nil
	}
	for k := range aChanges {
		if err := settle(k); err != nil {
			return err
		}
	}
	for k := range bChanges {
		if _, done := aChanges[k]; !done {
			if err := settle(k); err != nil {
				return err
			}
		}
	}
	return nil
}

// diffRevisions compares two resolved revisions' pages and files (see diffStored).
func diffRevisions(ctx context.Context, get nodeSource, a, b storedRevision) (pages, files map[string][2]string, err error) {
	pages, files = map[string][2]string{}, map[string][2]string{}
	if err := diffStored(ctx, get, a.pagesRoot, a.pages, b.pagesRoot, b.pages, pages); err != nil {
		return nil, nil, err
	}
	if err := diffStored(ctx, get, a.filesRoot, a.files, b.filesRoot, b.files, files); err != nil {
		return nil, nil, err
	}
	return pages, files, nil
}
