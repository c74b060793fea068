package search_test

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"docsd/internal/clock"
	"docsd/internal/search"
	"docsd/internal/store"
)

// newRanking opens a fresh SQLite database, whose index hands back its matches' words for
// the search service to rank.
func newRanking(t *testing.T) (*store.DB, *store.Searches, *search.Service) {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "docsd.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := store.NewSearches(db)
	return db, s, search.NewService(s, nil, clock.Real{}, slog.New(slog.DiscardHandler))
}

// firstPages ranks q over the space "space" and returns the pages of its first limit hits:
// exactly when it matches at most exact sections, from the champion lists otherwise.
func firstPages(t *testing.T, svc *search.Service, q search.Query, limit, exact int) []string {
	t.Helper()
	hits, err := svc.Rank(context.Background(), search.Match{SpaceIDs: []string{"space"}, Query: q, Limit: limit, Exact: exact})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.PageID)
	}
	return out
}

// The champion-list path on a crafted corpus: with lists shorter than the matches, the
// first results are those of exact ranking, every title match is found, and lists follow
// insertions (in batches) and deletions.
func TestSearchChampionLists(t *testing.T) {
	restore := search.SetChampionLimits(20, 2)
	defer restore()
	ctx := context.Background()
	db, s, svc := newRanking(t)
	row := func(page, title, body string) search.Row {
		return search.Row{SpaceID: "space", PageID: page, Title: title, Body: body}
	}
	apply := func(from, to string, pages []string, rows ...search.Row) {
		t.Helper()
		if ok, err := s.ApplyIndex(ctx, time.Now(), "space", from, to, false, pages, rows); err != nil || !ok {
			t.Fatalf("apply %s: %v %v", to, ok, err)
		}
	}
	q, err := search.Parse("alpha beta")
	if err != nil {
		t.Fatal(err)
	}
	first := func(exact int) []string {
		t.Helper()
		return firstPages(t, svc, q, 10, exact)
	}
	check := func(want ...string) {
		t.Helper()
		got, exact := first(50), first(1<<30)
		if !slices.Equal(got, exact) || !slices.Equal(got[:len(want)], want) {
			t.Fatalf("champion ranking %v, exact %v, want first %v", got, exact, want)
		}
	}

	apply("", "r1", nil, row("old", "Old", strings.Repeat("alpha beta ", 10)))
	var rows []search.Row
	for i := range 200 {
		rows = append(rows, row(fmt.Sprintf("p%03d", i), fmt.Sprintf("Page %d", i),
			"alpha beta "+strings.Repeat("filler words ", i%40)))
	}
	rows = append(rows, row("titled", "Alpha beta", "alpha beta "+strings.Repeat("filler words ", 50)))
	apply("r1", "r2", []string{}, rows...)
	maintain := func() {
		t.Helper()
		if err := svc.MaintainRanking(ctx); err != nil {
			t.Fatal(err)
		}
	}
	maintain() // no lists yet: the waiting sections are let go
	check("titled", "old")
	var listed int
	if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM search_champions WHERE term = 'alpha'`).Scan(&listed); err != nil || listed != 20 {
		t.Fatalf("alpha's list holds %d sections (%v), want 20", listed, err)
	}

	// Lists built in one pass after a large update weigh as those built on first use.
	weights := func() []float64 {
		t.Helper()
		rows, err := db.Read().Query(ctx, `SELECT weight FROM search_champions WHERE term IN ('alpha', 'beta') ORDER BY term, weight`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []float64
		for rows.Next() {
			var w float64
			rows.Scan(&w)
			out = append(out, w)
		}
		return out
	}
	lazy := weights()
	if err := db.Write(ctx, time.Now(), func(q *store.Q) error {
		_, err := q.Exec(ctx, `DELETE FROM search_champions`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := svc.PrepareLists(ctx, 50); err != nil {
		t.Fatal(err)
	}
	if bulk := weights(); len(lazy) != 40 || !slices.Equal(bulk, lazy) {
		t.Fatalf("lists built in one pass %v, on first use %v", bulk, lazy)
	}
	check("titled", "old")

	// A new section waits outside the lists, and is ranked all the same.
	apply("r2", "r3", []string{"heavy"}, row("heavy", "Heavy", strings.Repeat("alpha beta ", 30)))
	maintain() // one section waiting: not enough for a batch
	check("titled", "heavy", "old")
	inList := func(page string) (n int) {
		t.Helper()
		if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM search_champions c JOIN search_sections s ON s.id = c.section_id
			WHERE c.term = 'alpha' AND s.page_id = ?`, page).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	var pending int
	if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM search_champions_pending`).Scan(&pending); err != nil || pending != 1 || inList("heavy") != 0 {
		t.Fatalf("%d sections waiting (%v), heavy listed %d times; want the heavy one waiting", pending, err, inList("heavy"))
	}

	// Past championBatch, the waiting sections join the lists at once: each pushes the
	// lightest section out of each full list, and the sizes kept by triggers follow the lists.
	lightest := map[string][]int64{}
	for _, term := range []string{"alpha", "beta"} {
		rows, err := db.Read().Query(ctx, `SELECT section_id FROM search_champions WHERE term = ? ORDER BY weight, section_id LIMIT 3`, term)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			lightest[term] = append(lightest[term], id)
		}
		rows.Close()
	}
	apply("r3", "r4", []string{"heavy2", "heavy3"}, row("heavy2", "Heavy 2", strings.Repeat("alpha beta ", 25)),
		row("heavy3", "Heavy 3", strings.Repeat("alpha beta ", 20)))
	maintain()
	check("titled", "heavy")
	for term, ids := range lightest {
		for _, id := range ids {
			var n int
			if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM search_champions WHERE term = ? AND section_id = ?`, term, id).Scan(&n); err != nil || n != 0 {
				t.Errorf("section %d, among the lightest of %s's list, is still in it (%v)", id, term, err)
			}
		}
	}
	if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM search_champions_pending`).Scan(&pending); err != nil || pending != 0 {
		t.Fatalf("%d sections still waiting (%v)", pending, err)
	}
	for _, page := range []string{"heavy", "heavy2", "heavy3"} {
		if inList(page) != 1 {
			t.Errorf("%s is not in alpha's list after the batch", page)
		}
	}
	if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM search_champions WHERE term = 'alpha'`).Scan(&listed); err != nil || listed != 20 {
		t.Fatalf("alpha's list holds %d sections after a batch (%v), want 20", listed, err)
	}
	var drift int
	if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM search_champion_sizes s
		WHERE size != (SELECT COUNT(*) FROM search_champions c WHERE c.term = s.term)`).Scan(&drift); err != nil || drift != 0 {
		t.Fatalf("%d list sizes differ from their lists (%v)", drift, err)
	}

	// Deleted sections leave the lists, and the waiting ones.
	apply("r4", "r5", []string{"waiting"}, row("waiting", "Waiting", strings.Repeat("alpha beta ", 40)))
	check("titled", "waiting", "heavy")

	// A list built on first use while a section waited holds it already: the batch leaves
	// it as it is.
	if err := db.Write(ctx, time.Now(), func(q *store.Q) error {
		_, err := q.Exec(ctx, `DELETE FROM search_champions WHERE term = 'alpha'`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	check("titled", "waiting", "heavy")
	search.SetChampionLimits(20, 0)
	maintain()
	search.SetChampionLimits(20, 2)
	if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM search_champions WHERE term = 'alpha'`).Scan(&listed); err != nil || listed != 20 || inList("waiting") != 1 {
		t.Fatalf("alpha's list holds %d sections (%v), waiting listed %d times", listed, err, inList("waiting"))
	}
	if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM search_champion_sizes s
		WHERE size != (SELECT COUNT(*) FROM search_champions c WHERE c.term = s.term)`).Scan(&drift); err != nil || drift != 0 {
		t.Fatalf("%d list sizes differ from their lists (%v)", drift, err)
	}
	apply("r5", "r6", []string{"heavy", "heavy2", "heavy3", "old", "waiting"})
	check("titled") // their entries wait for the next batch, and match nothing meanwhile
	maintain()      // five deleted: a batch
	check("titled")
	if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM search_champions WHERE section_id NOT IN (SELECT id FROM search_sections)`).Scan(&listed); err != nil || listed != 0 {
		t.Fatalf("%d list entries name deleted sections (%v)", listed, err)
	}
	var gone int
	if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM search_champions_gone`).Scan(&gone); err != nil || gone != 0 {
		t.Fatalf("%d deleted sections still noted (%v)", gone, err)
	}
	if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM search_champions_pending`).Scan(&pending); err != nil || pending != 0 {
		t.Fatalf("%d deleted sections still waiting (%v)", pending, err)
	}
}

// A query of common words reads its champion lists' sections in the order of an upper bound
// of their scores, and stops once the sections it has found outrank every bound left: fewer
// reads, the same first results as exact ranking.
func TestSearchChampionListsReadByBound(t *testing.T) {
	defer search.SetChampionLimits(50, 0)() // any section waiting makes a batch
	defer search.SetBoundedBatch(10)()
	ctx := context.Background()
	db, s, svc := newRanking(t)
	// Fifteen short sections hold both words often. Sixty hold alpha as often, and no beta:
	// alpha's list (50) holds them with the fifteen, bounded by the lightest of beta's list,
	// and none matches. A hundred hold beta often and alpha once, in longer bodies: beta's list
	// holds the heaviest, bounded below the fifteen. The rest hold each word once.
	var rows []search.Row
	add := func(n int, body string) {
		for range n {
			i := len(rows)
			rows = append(rows, search.Row{SpaceID: "space", PageID: fmt.Sprintf("p%03d", i), Title: fmt.Sprintf("Page %d", i),
				Body: body + strings.Repeat(" filler", i%7)})
		}
	}
	add(15, "alpha alpha alpha beta beta beta"+strings.Repeat(" filler", 5))
	add(60, "alpha alpha alpha"+strings.Repeat(" filler", 8))
	add(100, "beta beta beta alpha"+strings.Repeat(" filler", 40))
	add(185, "alpha beta"+strings.Repeat(" filler", 80))
	if ok, err := s.ApplyIndex(ctx, time.Now(), "space", "", "r1", false, nil, rows); err != nil || !ok {
		t.Fatalf("apply: %v %v", ok, err)
	}
	if err := svc.MaintainRanking(ctx); err != nil { // no lists yet: the sections wait for none
		t.Fatal(err)
	}
	q, err := search.Parse("alpha beta")
	if err != nil {
		t.Fatal(err)
	}
	first := func(limit, exact int) []string {
		t.Helper()
		return firstPages(t, svc, q, limit, exact)
	}
	var candidates int
	// The first ten are the fifteen's best: found before the bounds of the others.
	got := first(10, 100) // 375 matches: the champion lists
	read := svc.BoundedReads()
	if want := first(10, 1<<30); len(got) != 10 || !slices.Equal(got, want) {
		t.Fatalf("first ten read by bound: %v; exact ranking: %v", got, want)
	}
	if err := db.Read().QueryRow(ctx, `SELECT COUNT(DISTINCT section_id) FROM search_champions WHERE term IN ('alpha', 'beta')`).Scan(&candidates); err != nil {
		t.Fatal(err)
	}
	if candidates < 80 || read <= 0 || read >= int64(candidates)/2 {
		t.Fatalf("read %d of the lists' %d sections for the first ten, want fewer than half (and some)", read, candidates)
	}
	// The lists read for that search (each word's twice: missing, then built) serve the next
	// ones while they do not change.
	lists := svc.ListReads()
	if again := first(10, 100); !slices.Equal(again, got) || svc.ListReads() != lists || lists != 4 {
		t.Fatalf("the same search again: %v, %d list reads after %d; want %v, no more reads after 4", again, svc.ListReads(), lists, got)
	}
	if err := db.Write(ctx, time.Now(), func(q *store.Q) error {
		_, err := q.Exec(ctx, `DELETE FROM search_champions WHERE term = 'beta' AND section_id = (SELECT MIN(section_id) FROM search_champions WHERE term = 'beta')`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	first(10, 100)
	if n := svc.ListReads(); n != lists+1 {
		t.Fatalf("%d list reads after beta's list changed, want %d: only beta's read again", n, lists+1)
	}

	// The first twenty take five sections scoring below the sixty's bounds: every candidate
	// is read, and the sixty, which do not match, are not among them.
	got = first(20, 100)
	if want := first(20, 1<<30); len(got) != 20 || !slices.Equal(got, want) {
		t.Fatalf("first twenty read by bound: %v; exact ranking: %v", got, want)
	}
	t.Logf("read %d of the lists' %d sections for the first ten", read, candidates)
}
