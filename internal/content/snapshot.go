package content

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"docsd/internal/contenttree"
)

// Snapshot is a decoded revision: its tree of pages (without markdown, which is loaded per
// page), files and variables, and the record hashes it was built from. Snapshots are shared
// between requests and must not be changed.
type Snapshot struct {
	Revision Revision
	Tree     *contenttree.Tree // pages have empty Markdown; see Service.Markdown
	Paths    map[string]string // page id → path, for pages that have one

	children       map[string][]string // parent id ("" for the top level) → child ids, in order
	pageHashes     map[string]string   // page id → page record hash
	fileHashes     map[string]string   // file id → file record hash
	markdownHashes map[string]string   // page id → markdown hash

	// includeNames maps a reusable content's file name to its id, built on first use (see
	// ReusableByPath).
	includeOnce  sync.Once
	includeNames map[string]string
}

// nodes returns a nodeSource reading through the node cache.
func (s *Service) nodes(tx Tx) nodeSource {
	return func(ctx context.Context, hashes []string) (map[string]*node, error) {
		out := make(map[string]*node, len(hashes))
		var missing []string
		for _, h := range hashes {
			if n, ok := s.nodeCache.get(h); ok {
				out[h] = n
			} else {
				missing = append(missing, h)
			}
		}
		if len(missing) == 0 {
			return out, nil
		}
		bodies, err := fetchObjects(ctx, tx, missing)
		if err != nil {
			return nil, err
		}
		for h, b := range bodies {
			n := new(node)
			if err := json.Unmarshal(b, n); err != nil {
				return nil, fmt.Errorf("content: trie node %s: %w", h, err)
			}
			s.nodeCache.put(h, n)
			out[h] = n
		}
		return out, nil
	}
}

// snapshot decodes a revision, from the cache when it is there. Callers that miss the same
// revision at once share one decoding: a 10,000-page snapshot is megabytes, and a restarted
// server's first reader and its search consumer ask for the same head together.
func (s *Service) snapshot(ctx context.Context, tx Tx, id string) (*Snapshot, error) {
	if snap, ok := s.snapshots.get(id); ok {
		return snap, nil
	}
	v, err, shared := s.decoding.Do(id, func() (any, error) { return s.loadSnapshot(ctx, tx, id) })
	if err != nil && shared {
		// The caller that decoded read through its own transaction and context: one not
		// committed yet may see a revision the other cannot, and a cancelled context is
		// that caller's. This caller reads again through its own.
		return s.loadSnapshot(ctx, tx, id)
	}
	if err != nil {
		return nil, err
	}
	return v.(*Snapshot), nil
}

// loadSnapshot derives a revision committed in this process, or decodes it, and caches it.
func (s *Service) loadSnapshot(ctx context.Context, tx Tx, id string) (*Snapshot, error) {
	if snap, ok := s.snapshots.get(id); ok {
		return snap, nil
	}
	if ps, ok := s.pending.get(id); ok {
		// The view is built from ps here, not with s.view(id): that could come back to
		// snapshot(id) if ps left the cache meanwhile, inside this id's own decoding.
		base, err := s.view(ctx, tx, ps.baseID)
		if err != nil {
			return nil, err
		}
		snap := (&View{ps: ps, base: base, depth: base.depth + 1}).derive()
		s.snapshots.put(id, snap)
		s.pending.remove(id)
		return snap, nil
	}
	rev, err := tx.Revision(ctx, id)
	if err != nil {
		return nil, err
	}
	snap, err := s.decode(ctx, tx, rev)
	if err != nil {
		return nil, err
	}
	s.snapshots.put(id, snap)
	return snap, nil
}

func (s *Service) decode(ctx context.Context, tx Tx, rev Revision) (*Snapshot, error) {
	get := s.nodes(tx)
	stored, err := resolve(ctx, tx, rev)
	if err != nil {
		return nil, err
	}
	pageHashes, err := stored.allPages(ctx, get)
	if err != nil {
		return nil, err
	}
	fileHashes, err := stored.allFiles(ctx, get)
	if err != nil {
		return nil, err
	}
	snap := &Snapshot{Revision: rev, Tree: contenttree.New(), pageHashes: pageHashes, fileHashes: fileHashes,
		markdownHashes: make(map[string]string, len(pageHashes))}
	for k, v := range rev.Variables {
		snap.Tree.Variables[k] = v
	}
	bodies, err := objects(ctx, tx, values(pageHashes))
	if err != nil {
		return nil, err
	}
	for id, h := range pageHashes {
		p, md, err := decodePage(bodies[h])
		if err != nil {
			return nil, fmt.Errorf("content: page record %s of page %s: %w", h, id, err)
		}
		snap.markdownHashes[id] = md
		if rid, ok := reusableID(id); ok {
			snap.Tree.ReusableContents[rid] = reusableOf(p)
			continue
		}
		snap.Tree.Pages[id] = p
	}
	bodies, err = objects(ctx, tx, values(fileHashes))
	if err != nil {
		return nil, err
	}
	for id, h := range fileHashes {
		f, err := decodeFile(bodies[h])
		if err != nil {
			return nil, fmt.Errorf("content: file record %s of file %s: %w", h, id, err)
		}
		snap.Tree.Files[id] = f
	}
	snap.index()
	return snap, nil
}

// index derives the paths and the children lists from the tree.
func (snap *Snapshot) index() {
	snap.Paths = snap.Tree.Paths()
	snap.children = map[string][]string{}
	for id, p := range snap.Tree.Pages {
		snap.children[p.ParentID] = append(snap.children[p.ParentID], id)
	}
	for _, ids := range snap.children {
		slices.SortFunc(ids, func(a, b string) int {
			pa, pb := snap.Tree.Pages[a], snap.Tree.Pages[b]
			return cmp.Or(cmp.Compare(pa.Order, pb.Order), cmp.Compare(a, b))
		})
	}
}

// Children returns the ids of the pages under parentID ("" for the top level), in order.
func (snap *Snapshot) Children(parentID string) []string { return snap.children[parentID] }

// FileIDs returns the ids of the snapshot's files, sorted.
func (snap *Snapshot) FileIDs() []string {
	ids := make([]string, 0, len(snap.Tree.Files))
	for id := range snap.Tree.Files {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func values(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// objects fetches records in batches small enough for any engine's parameter limit, and
// fails if one is missing: a revision never points at a record that was not stored.
func objects(ctx context.Context, tx Tx, hashes []string) (map[string][]byte, error) {
	out, err := fetchObjects(ctx, tx, hashes)
	if err != nil {
		return nil, err
	}
	for _, h := range hashes {
		if _, ok := out[h]; !ok {
			return nil, fmt.Errorf("content: record %s is missing", h)
		}
	}
	return out, nil
}

const batchSize = 500

// fetchObjects reads records in batches, leaving out absent ones.
func fetchObjects(ctx context.Context, tx Tx, hashes []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(hashes))
	for start := 0; start < len(hashes); start += batchSize {
		got, err := tx.Objects(ctx, hashes[start:min(start+batchSize, len(hashes))])
		if err != nil {
			return nil, err
		}
		for h, b := range got {
			out[h] = b
		}
	}
	return out, nil
}
