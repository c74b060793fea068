package content

import (
	"cmp"
	"context"
	"errors"

	"golang.org/x/sync/singleflight"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/clock"
	"docsd/internal/contenttree"
	"docsd/internal/space"
)

// Service reads and writes space content, checking the caller's role through the space service.
type Service struct {
	store     Store
	spaces    *space.Service
	clock     clock.Clock
	snapshots *cache[*Snapshot]
	pending   *cache[*pendingSnapshot] // revisions committed here whose snapshot is not derived yet
	nodeCache *cache[*node]
	markdown  *cache[string]
	derived   *derivedValues     // see derived.go
	decoding  singleflight.Group // snapshots being decoded, by revision id
}

// Cache bounds: a snapshot of a 10,000-page space is a few megabytes, so snapshots are
// bounded by the pages and files they hold together (one unit each), not by their number.
const (
	maxSnapshotEntries = 100_000
	maxPendingPages    = 100_000
	maxNodes           = 200_000
	// maxMarkdownBytes bounds the markdown texts kept, by their size (with markdownOverhead
	// for each entry's hash and map slot): texts are content-addressed, so a text read once
	// is good forever, but pages vary in size.
	maxMarkdownBytes = 32 << 20
	markdownOverhead = 160
)

func markdownWeight(text string) int { return len(text) + markdownOverhead }

// NewService returns the content service.
func NewService(st Store, spaces *space.Service, c clock.Clock) *Service {
	return &Service{store: st, spaces: spaces, clock: c,
		snapshots: newWeighedCache(maxSnapshotEntries, snapshotWeight),
		pending:   newWeighedCache(maxPendingPages, pendingWeight),
		nodeCache: newCache[*node](maxNodes), markdown: newWeighedCache(maxMarkdownBytes, markdownWeight),
		derived: &derivedValues{cache: newCache[any](maxDerived)}}
}

func snapshotWeight(s *Snapshot) int { return len(s.Tree.Pages) + len(s.Tree.Files) + 1 }

// pendingWeight counts what a pending revision holds: its changes, not its space.
func pendingWeight(ps *pendingSnapshot) int {
	ch := ps.changes
	return len(ch.UpsertPages) + len(ch.RemovePages) + len(ch.UpsertFiles) + len(ch.RemoveFiles) + 1
}

// Head returns the space's current content, for a caller with read access (404 otherwise).
func (s *Service) Head(ctx context.Context, c auth.Caller, spaceID string) (space.View, *Snapshot, error) {
	v, err := s.spaces.RoleOn(ctx, c, spaceID)
	if err != nil {
		return v, nil, err
	}
	snap, err := s.snapshot(ctx, s.store.Read(), v.Revision)
	return v, snap, err
}

// AtRevision returns one revision of the space, for a caller with read access. A revision is
// readable through the space it was made in, and through a space whose head it is (a
// duplicate starts from its source's head); any other id is a 404.
func (s *Service) AtRevision(ctx context.Context, c auth.Caller, spaceID, revisionID string) (space.View, *Snapshot, error) {
	v, err := s.spaces.RoleOn(ctx, c, spaceID)
	if err != nil {
		return v, nil, err
	}
	snap, err := s.snapshot(ctx, s.store.Read(), revisionID)
	if errors.Is(err, ErrNotFound) || (err == nil && snap.Revision.SpaceID != spaceID && revisionID != v.Revision) {
		return v, nil, apperr.NotFoundf("revision %s not found in space %s", revisionID, spaceID)
	}
	return v, snap, err
}

// Markdown returns the markdown of one page of a snapshot.
func (s *Service) Markdown(ctx context.Context, snap *Snapshot, pageID string) (string, error) {
	h, ok := snap.markdownHashes[pageID]
	if !ok {
		return "", apperr.NotFoundf("page %s not found in revision %s", pageID, snap.Revision.ID)
	}
	return s.markdownText(ctx, s.store.Read(), h)
}

// markdownText returns the markdown stored under a hash, through the cache.
func (s *Service) markdownText(ctx context.Context, tx Tx, h string) (string, error) {
	if text, ok := s.markdown.get(h); ok {
		return text, nil
	}
	got, err := tx.Markdown(ctx, []string{h})
	if err != nil {
		return "", err
	}
	text, ok := got[h]
	if !ok {
		return "", errors.New("content: markdown " + h + " is missing")
	}
	s.markdown.put(h, text)
	return text, nil
}

// Tree loads a whole revision with every page's markdown, as merges need it. The tree is the
// caller's to change.
func (s *Service) Tree(ctx context.Context, revisionID string) (*contenttree.Tree, error) {
	return s.tree(ctx, s.store.Read(), revisionID)
}

func (s *Service) tree(ctx context.Context, tx Tx, revisionID string) (*contenttree.Tree, error) {
	snap, err := s.snapshot(ctx, tx, revisionID)
	if err != nil {
		return nil, err
	}
	hashes := make([]string, 0, len(snap.markdownHashes))
	for _, h := range snap.markdownHashes {
		hashes = append(hashes, h)
	}
	texts := map[string]string{}
	for start := 0; start < len(hashes); start += batchSize {
		got, err := tx.Markdown(ctx, hashes[start:min(start+batchSize, len(hashes))])
		if err != nil {
			return nil, err
		}
		for h, t := range got {
			texts[h] = t
		}
	}
	t := snap.Tree.Clone()
	for id, p := range t.Pages {
		text, ok := texts[snap.markdownHashes[id]]
		if !ok {
			return nil, errors.New("content: markdown of page " + id + " is missing")
		}
		p.Markdown = text
		t.Pages[id] = p
	}
	for id, r := range t.ReusableContents {
		r.Markdown = texts[snap.markdownHashes[reusableKey(id)]]
		t.ReusableContents[id] = r
	}
	return t, nil
}

// Page returns one page of a revision with its markdown. A revision that is not decoded in
// memory yet is not decoded for this: the page is found through the nodes on its path in the
// trie, so a first read costs a handful of small queries whatever the size of the space.
func (s *Service) Page(ctx context.Context, revisionID, pageID string) (contenttree.Page, error) {
	notFound := apperr.NotFoundf("page %s not found in revision %s", pageID, revisionID)
	if _, reusable := reusableID(pageID); reusable {
		return contenttree.Page{}, notFound // a reusable content's key in the trie is no page
	}
	if snap, ok := s.snapshots.get(revisionID); ok {
		p, found := snap.Tree.Pages[pageID]
		if !found {
			return p, notFound
		}
		var err error
		p.Markdown, err = s.Markdown(ctx, snap, pageID)
		return p, err
	}
	tx := s.store.Read()
	rev, err := tx.Revision(ctx, revisionID)
	if errors.Is(err, ErrNotFound) {
		return contenttree.Page{}, apperr.NotFoundf("revision %s not found", revisionID)
	}
	if err != nil {
		return contenttree.Page{}, err
	}
	stored, err := resolve(ctx, tx, rev)
	if err != nil {
		return contenttree.Page{}, err
	}
	h, err := stored.pageHash(ctx, s.nodes(tx), pageID)
	if err != nil || h == "" {
		return contenttree.Page{}, cmp.Or(err, error(notFound))
	}
	bodies, err := objects(ctx, tx, []string{h})
	if err != nil {
		return contenttree.Page{}, err
	}
	p, mdHash, err := decodePage(bodies[h])
	if err != nil {
		return p, err
	}
	p.Markdown, err = s.markdownText(ctx, tx, mdHash)
	return p, err
}
