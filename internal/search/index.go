package search

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"docsd/internal/apperr"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/markdoc"
)

// IndexJob is the kind of the job that brought a space's index up to its head before the
// indexer became a consumer of the event outbox (consume.go). Nothing enqueues it any more;
// it stays registered so that jobs queued by an older version still run.
const IndexJob = "search.index"

// IndexRequest is the payload of an IndexJob.
type IndexRequest struct {
	Space string `json:"space"`
}

// smallChangePages is the largest change indexed by a search that finds a space's index
// behind its head (see Search): small changes (an edit, a merge) are searchable as soon as
// the request that made them answers, and larger ones (an import) are left to the outbox
// consumer (consume.go) so that searches stay quick.
const smallChangePages = 50

// bulkPages is the size of a change from which the pages are read from the new revision's
// snapshot (their markdown in batches) rather than one by one.
const bulkPages = 200

// batchPages is the size of an index update from which it is written in batches of as
// many pages, each in a transaction of its own (see applyInBatches), so that the memory it
// takes does not grow with the update: a first index of a 10,000-page space built every
// section in memory and wrote them all in one transaction.
const batchPages = 300

// HandleJob runs an IndexJob.
func (s *Service) HandleJob(ctx context.Context, payload json.RawMessage) error {
	var r IndexRequest
	if err := json.Unmarshal(payload, &r); err != nil || r.Space == "" {
		return fmt.Errorf("search index: malformed payload %s", payload)
	}
	if err := s.Refresh(ctx, r.Space, 0); err != nil {
		return err
	}
	return s.MaintainRanking(ctx)
}

// MaintainRanking does the upkeep of the ranking that index updates leave to be done in
// batches (champion lists, champions.go), when enough has gathered. The consumer runs it after
// each batch.
func (s *Service) MaintainRanking(ctx context.Context) error {
	if s.rank == nil {
		return nil
	}
	return s.rank.maintain(ctx, false)
}

// PrepareRanking readies the ranking after a large index update: the sections it added join
// the champion lists at once, the words it made common get their lists (champions.go), and
// the document frequencies of the common words are read afresh (rank.go).
func (s *Service) PrepareRanking(ctx context.Context) error {
	if s.rank == nil {
		return nil
	}
	if err := s.rank.maintain(ctx, true); err != nil {
		return err
	}
	if err := s.rank.prepare(ctx, ExactBound); err != nil {
		return err
	}
	return s.rank.stats.readTableNow(ctx, s.rank.terms)
}

// catchUp brings the index of each space of states that is behind its head up to date,
// when the change is small (smallChangePages), before a search reads it: a search never
// waits for the outbox consumer. A failure here leaves that space to the consumer: the
// search still answers, from the index as it is.
func (s *Service) catchUp(ctx context.Context, states map[string]IndexState) error {
	for id, st := range states {
		if st.Indexed == st.Head {
			continue
		}
		if err := s.Refresh(ctx, id, smallChangePages); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			s.log.Warn("search: index update left to the outbox consumer", "space", id, "error", err)
		}
	}
	return nil
}

// Refresh brings the space's index from the revision it was built from to the space's head,
// rewriting only the sections of pages whose records differ; a change of more than
// batchPages pages is written in batches (applyInBatches). With maxPages > 0 a larger change
// is left alone (without error). A space that no longer exists has nothing to index
// (purging a space drops its sections in the same transaction).
//
// Refreshes of one space may run at once, in this process and in others sharing the
// database (the outbox consumer, searches): each applies its update
// only if the index is still where it started from, and otherwise looks again, so the index
// moves forward once per change.
func (s *Service) Refresh(ctx context.Context, spaceID string, maxPages int) error {
	for range 5 {
		from, err := s.store.Indexed(ctx, spaceID)
		if err != nil {
			return err
		}
		to, ok, err := s.store.Head(ctx, spaceID)
		if err != nil || !ok || from == to {
			return err
		}
		if maxPages > 0 && s.large.has(spaceID, from, to) {
			return nil // known to be too large: the outbox consumer is on it
		}
		all := false
		changed, removed, err := s.content.PageChanges(ctx, from, to)
		if apperr.Is(err, apperr.NotFound) && from != "" {
			// The indexed revision is gone: rebuild the space's index from scratch.
			all = true
			changed, removed, err = s.content.PageChanges(ctx, "", to)
		}
		if err != nil {
			return err
		}
		if maxPages > 0 && len(changed)+len(removed) > maxPages {
			s.large.add(spaceID, from, to)
			return nil
		}
		sections, done, err := s.apply(ctx, spaceID, from, to, all, changed, removed)
		if err != nil {
			return err
		}
		if !done {
			continue // another indexer moved the index meanwhile: look again from where it left it
		}
		if maxPages == 0 && sections >= championBulk {
			// So many new sections may have made many words common at once: ready their
			// ranking here, in the consumer, rather than in the first queries that use them. (An
			// update small enough for a search to make adds too few sections for that to matter.)
			return s.PrepareRanking(ctx)
		}
		return nil
	}
	return fmt.Errorf("search index of space %s: kept losing the race to other indexers", spaceID)
}

// largeChanges remembers index updates found too large for a search to make, so that the
// searches that follow, until the consumer has made it, skip straight to the index as it is
// rather than compare the two revisions again (for an import, the whole tree).
type largeChanges struct {
	mu   sync.Mutex
	seen map[string][2]string // space → {indexed revision, head}
}

// maxLargeChanges bounds the memory of largeChanges; it forgets everything when full.
const maxLargeChanges = 1024

func (l *largeChanges) has(spaceID, from, to string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seen[spaceID] == [2]string{from, to}
}

func (l *largeChanges) add(spaceID, from, to string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil || len(l.seen) >= maxLargeChanges {
		l.seen = map[string][2]string{}
	}
	l.seen[spaceID] = [2]string{from, to}
}

// apply updates the space's index from revision from to revision to: changed are the pages
// added or changed in to, removed those gone from it, and all says that the index is to hold
// the pages of changed and no other (it is rebuilt). It returns how many sections it wrote,
// and done false when another indexer moved the index first. A small update is written in
// one transaction; a larger one in batches (applyInBatches).
func (s *Service) apply(ctx context.Context, spaceID, from, to string, all bool, changed, removed []string) (sections int, done bool, err error) {
	// An index with no revision may hold sections of an update cut short: it is rebuilt.
	all = all || from == ""
	if len(changed)+len(removed) > batchPages {
		return s.applyInBatches(ctx, spaceID, from, to, all, changed, removed)
	}
	rows, err := s.rowsOf(ctx, spaceID, to, changed)
	if err != nil {
		return 0, false, err
	}
	done, err = s.store.ApplyIndex(ctx, s.clock.Now(), spaceID, from, to, all, slices.Concat(changed, removed), rows)
	return len(rows), done, err
}

// applyInBatches writes a large index update batchPages pages at a time, each batch in a
// transaction of its own, so that only one batch's pages and sections are in memory at once.
// The index has no revision from the first batch until the last is written (see
// Store.BeginIndexBatches): a search meanwhile finds the space's index behind its head and
// searches it as it is, and an update cut short (a crash, a stop) leaves it to be rebuilt
// whole by the next, which rewrites every page and drops the sections of any other. An update
// that another one took over returns an error (the outbox consumer tries again later), one
// that another finished returns done false.
func (s *Service) applyInBatches(ctx context.Context, spaceID, from, to string, all bool, changed, removed []string) (sections int, done bool, err error) {
	claim, ok, err := s.store.BeginIndexBatches(ctx, s.clock.Now(), spaceID, from)
	if err != nil || !ok {
		return 0, false, err
	}
	snap, err := s.content.Snapshot(ctx, to)
	if err != nil {
		return 0, false, err
	}
	pages := slices.Concat(changed, removed)
	for start := 0; start < len(pages); start += batchPages {
		part := pages[start:min(start+batchPages, len(pages))]
		rows, err := s.snapshotRows(ctx, spaceID, snap, part)
		if err != nil {
			return 0, false, err
		}
		ok, err := s.store.ApplyIndexBatch(ctx, s.clock.Now(), spaceID, claim, part, rows)
		if err != nil {
			return 0, false, err
		}
		if !ok {
			return 0, false, s.lostBatches(ctx, spaceID)
		}
		sections += len(rows)
	}
	var keep []string
	if all {
		keep = changed
		if keep == nil {
			keep = []string{}
		}
	}
	ok, err = s.store.FinishIndexBatches(ctx, s.clock.Now(), spaceID, claim, to, keep)
	if err != nil {
		return 0, false, err
	}
	if !ok {
		return 0, false, s.lostBatches(ctx, spaceID)
	}
	return sections, true, nil
}

// lostBatches is the outcome of an update in batches whose claim was lost: nil when the index
// has a revision again (another indexer finished an update: Refresh looks again from there),
// an error when another update in batches has taken it over and is still writing.
func (s *Service) lostBatches(ctx context.Context, spaceID string) error {
	indexed, err := s.store.Indexed(ctx, spaceID)
	if err != nil || indexed != "" {
		return err
	}
	return fmt.Errorf("search index of space %s: another indexer took the update over", spaceID)
}

// snapshotRows returns the sections of the given pages of a revision, reading the markdown of
// only those that are indexed.
func (s *Service) snapshotRows(ctx context.Context, spaceID string, snap *content.Snapshot, pageIDs []string) ([]Row, error) {
	var indexed []string
	for _, id := range pageIDs {
		if p, ok := snap.Tree.Pages[id]; ok && indexedPage(p) {
			indexed = append(indexed, id)
		}
	}
	texts, err := s.content.Markdowns(ctx, snap, indexed)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, id := range indexed {
		p := snap.Tree.Pages[id]
		p.Markdown = texts[id]
		rows = append(rows, PageRows(spaceID, p)...)
	}
	return rows, nil
}

// rowsOf returns the sections of the given pages of a revision.
func (s *Service) rowsOf(ctx context.Context, spaceID, revisionID string, pageIDs []string) ([]Row, error) {
	if len(pageIDs) >= bulkPages {
		snap, err := s.content.Snapshot(ctx, revisionID)
		if err != nil {
			return nil, err
		}
		return s.snapshotRows(ctx, spaceID, snap, pageIDs)
	}
	var rows []Row
	for _, id := range pageIDs {
		p, ok, err := s.content.PageAt(ctx, revisionID, id)
		if err != nil {
			return nil, err
		}
		if ok {
			rows = append(rows, PageRows(spaceID, p)...)
		}
	}
	return rows, nil
}

// PageRows splits a page into the sections the index keeps: an opening section titled by the
// page (holding its description and the text before its first heading), then one section per
// top-level heading. Only document pages are indexed, and not those marked noIndex (their
// owners asked for them to stay out of search).
func PageRows(spaceID string, p contenttree.Page) []Row {
	if !indexedPage(p) {
		return nil
	}
	opening := Row{SpaceID: spaceID, PageID: p.ID, Title: p.Title, Body: p.Description}
	rows := []Row{opening}
	for _, sec := range markdoc.Sections(p.Markdown) {
		if sec.ID == "" {
			rows[0].Body = strings.TrimSpace(rows[0].Body + "\n" + sec.Body)
			continue
		}
		rows = append(rows, Row{SpaceID: spaceID, PageID: p.ID, Position: len(rows), SectionID: sec.ID,
			Title: sec.Title, Body: sec.Body})
	}
	return rows
}

// indexedPage says whether the index holds sections of page p.
func indexedPage(p contenttree.Page) bool {
	return p.Kind == contenttree.KindDocument && !p.NoIndex
}
