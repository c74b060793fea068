package search

import "context"

// Terms is the SQL of a full-text index that finds matches and hands back their words for
// this package to rank (FTS5 on SQLite), as opposed to one that ranks in SQL itself
// (PostgreSQL's ts_rank, see Store.RankedSearch). It reads and writes rows and nothing more:
// which sections to score, how, and which belong in a champion list is decided here
// (rank.go, champions.go).
//
// The methods that write (marked so) are only valid on the Terms given to WriteTerms's
// function, inside its transaction.
type Terms interface {
	// Corpus returns how many sections the index holds and their words, title and body.
	Corpus(ctx context.Context) (sections, words int64, err error)
	// WordDocs returns how many sections hold the word w; with prefix, the sum of that over
	// the first limit words that start with w.
	WordDocs(ctx context.Context, w string, prefix bool, limit int) (int, error)
	// WordsDocs calls each with every word held by at least atLeast sections, and how many
	// hold it (one pass over the whole index).
	WordsDocs(ctx context.Context, atLeast int, each func(word string, docs int)) error
	// FrequentWords returns, of the first scan words that start with prefix, the top ones
	// held by the most sections, most first.
	FrequentWords(ctx context.Context, prefix string, scan, top int) ([]string, error)
	// ScopeSections counts the indexed sections of the given spaces.
	ScopeSections(ctx context.Context, spaceIDs []string) (int64, error)
	// CountMatches counts the sections matching every term of m, up to limit: of m's spaces
	// when scoped, of every space otherwise.
	CountMatches(ctx context.Context, m Match, scoped bool, limit int) (int, error)
	// Matches calls each with every section matching every term of m, in its title or body:
	// of m's spaces when scoped, of every space otherwise.
	Matches(ctx context.Context, m Match, scoped bool, each func(Text) error) error
	// TitleMatches returns the sections of every space whose title matches every term of m.
	TitleMatches(ctx context.Context, m Match) ([]int64, error)
	// Texts calls each with those of the sections ids that exist.
	Texts(ctx context.Context, ids []int64, each func(Text) error) error
	// AllTexts calls each with every section of the index.
	AllTexts(ctx context.Context, each func(Text) error) error
	// Rows returns the stored sections with the given ids, by id.
	Rows(ctx context.Context, ids []int64) (map[int64]Row, error)

	// ChampionList returns the entries of word w's champion list, with their weights.
	ChampionList(ctx context.Context, w string) ([]Champion, error)
	// ListVersion returns the version of word w's champion list, which changes whenever an
	// entry is added or removed and never comes back: 0 for a word that never had a list.
	ListVersion(ctx context.Context, w string) (int64, error)
	// ListSizes returns the size of every non-empty champion list, by word.
	ListSizes(ctx context.Context) (map[string]int, error)
	// Listed returns, of the sections ids, the (word, section) entries the lists hold.
	Listed(ctx context.Context, ids []int64) (map[ListEntry]bool, error)
	// Lightest returns the n lightest entries of word w's list, lightest first.
	Lightest(ctx context.Context, w string, n int) ([]Champion, error)
	// UnlistedWords returns the words held by more than common sections that have no list.
	UnlistedWords(ctx context.Context, common int) ([]string, error)
	// Waiting returns the sections that were indexed since the last batch (they are in no list
	// yet), and how many were deleted since.
	Waiting(ctx context.Context) (added []int64, deleted int, err error)

	// WriteTerms runs fn in one write transaction, with a Terms bound to it.
	WriteTerms(ctx context.Context, fn func(Terms) error) error
	// ReplaceList replaces word w's champion list by list (writes).
	ReplaceList(ctx context.Context, w string, list []Champion) error
	// AddToLists adds the entries of lists, by word (writes).
	AddToLists(ctx context.Context, lists map[string][]Champion) error
	// DropFromLists removes the given entries (writes).
	DropFromLists(ctx context.Context, entries []ListEntry) error
	// SettleWaiting removes the deleted sections from every list, and forgets both the
	// deleted sections and the waiting ones (writes).
	SettleWaiting(ctx context.Context) error
}

// Text is an indexed section as the full-text index holds it: its title and body are folded
// words (IndexText).
type Text struct {
	ID      int64
	SpaceID string
	Title   string
	Body    string
}

// Champion is a section's entry in a word's champion list, with the word's weight in it.
type Champion struct {
	Section int64
	Weight  float64
}

// ListEntry names a section in a word's champion list.
type ListEntry struct {
	Word    string
	Section int64
}
