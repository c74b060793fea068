// Package search finds pages by their words. Each page of a space's current content is split
// into sections at its headings, and the sections are kept in the database's own full-text
// index (FTS5 on SQLite, tsvector with GIN on PostgreSQL) so every docsd process sees the same
// index. The index follows each space's head: whenever the head moves, the sections of the
// pages that changed are updated by the indexer, a consumer of the event outbox that reacts
// to each head-moved event (consume.go). A search that finds a space's index behind its head
// by a small change makes that update itself first, so a change's words are found as soon as
// the request that made it has answered, whether or not the consumer has come to it yet.
//
// Service.Search takes a list of space ids and does no permission checks: callers pass the
// spaces their user may read (the API's space and organization search, a published site's
// search box).
package search

import (
	"context"
	"log/slog"
	"time"

	"docsd/internal/clock"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/gencache"
)

// Row is one indexed section of a page.
type Row struct {
	SpaceID   string
	PageID    string
	Position  int    // the section's place in its page, 0 for the page's opening section
	SectionID string // the heading's anchor; "" for the opening section, titled by the page
	Title     string
	Body      string
}

// Hit is a section that matched: those whose title holds every term come first, then by
// score, higher first.
type Hit struct {
	Row
	InTitle bool
	Score   float64
}

// Match is one ranked lookup in the index.
type Match struct {
	SpaceIDs []string
	Query    Query
	Limit    int // at most this many hits, best first
	// Exact bounds the work of ranking every match: a query matching at most Exact sections
	// (or searching spaces that hold at most Exact sections) is ranked exactly, over all its
	// matches. A query matching more, made only of common words, ranks a candidate set chosen
	// by relevance instead (every title match, and the sections where each of its words
	// weighs most: champion lists, champions.go), on an index that hands back its matches
	// (Terms).
	Exact int
	// ScopeSections is how many indexed sections the spaces hold, when ScopeKnown (the
	// search read it with the spaces' index state); otherwise the ranking counts them.
	ScopeSections int64
	ScopeKnown    bool
}

// Store is what search needs from the database.
type Store interface {
	// Indexed returns the revision the space's index was built from; "" when it has none.
	Indexed(ctx context.Context, spaceID string) (string, error)
	// Head returns the space's head revision, including for a space in the trash; ok is
	// false when the space does not exist.
	Head(ctx context.Context, spaceID string) (head string, ok bool, err error)
	// LiveSpaces returns the index state of each space of ids that exists and is not in the
	// trash.
	LiveSpaces(ctx context.Context, ids []string) (map[string]IndexState, error)
	// ApplyIndex replaces, in one transaction, the sections of pages (of every page when all
	// is true) by rows and records that the index is at revision to, provided it is still at
	// from; ok is false, with nothing written, when another indexer moved it first.
	ApplyIndex(ctx context.Context, now time.Time, spaceID, from, to string, all bool, pages []string, rows []Row) (ok bool, err error)
	// BeginIndexBatches starts an update of the space's index written in several
	// transactions (a large one: see Refresh), provided the index is still at revision from
	// (ok is false, with nothing written, when another indexer moved it first). Until the
	// update finishes the index has no revision (Indexed returns ""), so that an update cut
	// short is redone whole by the next and no reader takes the index for up to date. claim
	// names this update: an update that begins later takes the index over from it.
	BeginIndexBatches(ctx context.Context, now time.Time, spaceID, from string) (claim int64, ok bool, err error)
	// ApplyIndexBatch replaces, in one transaction, the sections of pages by rows, provided
	// the update claim still holds the index; ok is false, with nothing written, otherwise.
	ApplyIndexBatch(ctx context.Context, now time.Time, spaceID string, claim int64, pages []string, rows []Row) (ok bool, err error)
	// FinishIndexBatches ends the update claim, provided it still holds the index: it drops
	// the sections of every page not in keep (sorted; none when keep is nil) and records that
	// the index is at revision to.
	FinishIndexBatches(ctx context.Context, now time.Time, spaceID string, claim int64, to string, keep []string) (ok bool, err error)
	// Terms is the index's SQL when the engine hands back matches for this package to rank
	// (FTS5), nil when it ranks in SQL itself (RankedSearch).
	Terms() Terms
	// RankedSearch returns the best hits of m, best first, ranked by the engine itself; it is
	// used when Terms is nil.
	RankedSearch(ctx context.Context, m Match) ([]Hit, error)
	// Sections returns every section the index holds for a space, in no particular order.
	Sections(ctx context.Context, spaceID string) ([]Row, error)
}

// IndexState is where a space's head is, and the revision its index was built from.
type IndexState struct {
	Head     string
	Indexed  string // "" when the space has no index yet
	Sections int64  // the sections its index holds
}

// Content is what search reads of space content.
type Content interface {
	PageChanges(ctx context.Context, from, to string) (changed, removed []string, err error)
	PageAt(ctx context.Context, revisionID, pageID string) (contenttree.Page, bool, error)
	Tree(ctx context.Context, revisionID string) (*contenttree.Tree, error)
	Snapshot(ctx context.Context, revisionID string) (*content.Snapshot, error)
	Markdowns(ctx context.Context, snap *content.Snapshot, pageIDs []string) (map[string]string, error)
}

// Service searches and maintains the index.
type Service struct {
	store   Store
	content Content
	clock   clock.Clock
	log     *slog.Logger
	large   largeChanges
	rank    *ranker // nil when the store ranks in SQL
	// states keeps LiveSpaces' answers by the requests' database generation
	// (gencache.WithGeneration): one query per search, a tenth of a cheap search's CPU,
	// asked again only once something was written.
	states *gencache.Cache[map[string]IndexState]
}

// Bounds of the index states kept (Service.states): a state is about 100 bytes.
const (
	maxStateBytes   = 4 << 20
	maxStateEntries = 4096
)

// NewService returns the search service.
func NewService(st Store, c Content, clk clock.Clock, log *slog.Logger) *Service {
	s := &Service{store: st, content: c, clock: clk, log: log,
		states: gencache.New[map[string]IndexState](maxStateBytes, maxStateEntries)}
	if t := st.Terms(); t != nil {
		s.rank = &ranker{terms: t}
	}
	return s
}
