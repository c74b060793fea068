package httpapi_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/search"
	"docsd/internal/store"
)

// A large index update is written in batches, each in a transaction of its own, and the index
// has no revision until the last one: an update cut short (a crash between batches) leaves an
// index that no search takes for up to date, and the next update rebuilds it whole, dropping
// what the cut one wrote of pages the content no longer has. An update that begins later
// takes the index over from an earlier one, whose batches then write nothing.
func TestSearchIndexInBatches(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	if err := e.App.Jobs.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	e.App.Outbox.Stop()
	st := store.NewSearches(e.App.DB)
	indexed := func(spaceID string) (rev string, sections, rows int) {
		t.Helper()
		q := e.App.DB.Read()
		if err := q.QueryRow(t.Context(), `SELECT COALESCE(MAX(revision_id), ''), COALESCE(MAX(sections), 0) FROM search_indexed WHERE space_id = ?`,
			spaceID).Scan(&rev, &sections); err != nil {
			t.Fatal(err)
		}
		if err := q.QueryRow(t.Context(), `SELECT COUNT(*) FROM search_sections WHERE space_id = ?`, spaceID).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		return rev, sections, rows
	}
	const pages = 700 // three batches
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	b := newTreeBuilder()
	for i := range pages {
		b.doc(fmt.Sprintf("h%03d", i), "", fmt.Sprintf("Heron %d", i), fmt.Sprintf("h%03d", i), fmt.Sprintf("heron text word%03d\n", i))
	}
	replaceContent(t, e, e.Admin, sp, b.tree)
	e.RunDue() // the first index of the space: 700 pages, in batches

	rev, sections, rows := indexed(sp)
	if rev != headOf(e, sp) || sections != pages || rows != pages {
		t.Fatalf("index at %q (head %s) with %d sections, counted %d, want %d", rev, headOf(e, sp), sections, rows, pages)
	}
	for _, w := range []string{"word000", "word350", "word699"} { // one page of each batch
		if got := pageIDs(spaceSearch(e, e.Admin, sp, w).Expect(200)); len(got) != 1 || got[0] != "h"+w[4:] {
			t.Errorf("%s found %v", w, got)
		}
	}

	t.Run("an update cut short between batches is redone whole", func(t *testing.T) {
		from := headOf(e, sp)
		claim, ok, err := st.BeginIndexBatches(t.Context(), time.Now(), sp, from)
		if err != nil || !ok {
			t.Fatalf("begin: %v %v", ok, err)
		}
		ghost := []search.Row{{SpaceID: sp, PageID: "ghost", Title: "Ghost", Body: "phantom"}}
		if ok, err := st.ApplyIndexBatch(t.Context(), time.Now(), sp, claim, []string{"ghost"}, ghost); err != nil || !ok {
			t.Fatalf("batch: %v %v", ok, err)
		}
		// The process stops here. No search takes the index for up to date meanwhile.
		if rev, sections, rows := indexed(sp); rev != "" || sections != pages+1 || rows != pages+1 {
			t.Fatalf("cut short: index at %q with %d sections, counted %d", rev, sections, rows)
		}
		if got := spaceSearch(e, e.Admin, sp, "phantom").Expect(200); len(got.Items()) != 0 {
			t.Errorf("a page the content does not have is found: %v", got.Map())
		}
		// The outbox consumer after a restart, on the event it had not acknowledged.
		if err := e.App.Search.Refresh(t.Context(), sp, 0); err != nil {
			t.Fatal(err)
		}
		if rev, sections, rows := indexed(sp); rev != headOf(e, sp) || sections != pages || rows != pages {
			t.Errorf("redone: index at %q (head %s) with %d sections, counted %d, want %d", rev, headOf(e, sp), sections, rows, pages)
		}
		problems, err := e.App.Search.Verify(t.Context(), sp)
		if err != nil || len(problems) != 0 {
			t.Errorf("verify: %v %v", problems, err)
		}
		if got := pageIDs(spaceSearch(e, e.Admin, sp, "word699").Expect(200)); !slices.Equal(got, []string{"h699"}) {
			t.Errorf("after the update found %v", got)
		}
		// A rebuild (docsd's admin command) goes through the same batches.
		if err := e.App.Search.Rebuild(t.Context(), sp); err != nil {
			t.Fatal(err)
		}
		if rev, sections, rows := indexed(sp); rev != headOf(e, sp) || sections != pages || rows != pages {
			t.Errorf("rebuilt: index at %q with %d sections, counted %d, want %d", rev, sections, rows, pages)
		}
	})

	t.Run("a later update takes the index over from an earlier one", func(t *testing.T) {
		from := headOf(e, sp)
		first, ok, err := st.BeginIndexBatches(t.Context(), time.Now(), sp, from)
		if err != nil || !ok {
			t.Fatalf("begin: %v %v", ok, err)
		}
		if _, ok, err := st.BeginIndexBatches(t.Context(), time.Now(), sp, from); err != nil || ok {
			t.Fatalf("a second update from the old revision began: %v %v", ok, err)
		}
		second, ok, err := st.BeginIndexBatches(t.Context(), time.Now(), sp, "")
		if err != nil || !ok || second <= first {
			t.Fatalf("take-over: claim %d after %d, %v %v", second, first, ok, err)
		}
		ghost := []search.Row{{SpaceID: sp, PageID: "ghost", Title: "Ghost", Body: "phantom"}}
		if ok, err := st.ApplyIndexBatch(t.Context(), time.Now(), sp, first, []string{"ghost"}, ghost); err != nil || ok {
			t.Errorf("the earlier update wrote a batch: %v %v", ok, err)
		}
		if ok, err := st.FinishIndexBatches(t.Context(), time.Now(), sp, first, from, nil); err != nil || ok {
			t.Errorf("the earlier update finished: %v %v", ok, err)
		}
		if rev, _, rows := indexed(sp); rev != "" || rows != pages {
			t.Errorf("index at %q with %d sections after the earlier update's attempts", rev, rows)
		}
		keep := make([]string, pages)
		for i := range keep {
			keep[i] = fmt.Sprintf("h%03d", i)
		}
		if ok, err := st.FinishIndexBatches(t.Context(), time.Now(), sp, second, from, keep); err != nil || !ok {
			t.Fatalf("finish: %v %v", ok, err)
		}
		if rev, sections, rows := indexed(sp); rev != from || sections != pages || rows != pages {
			t.Errorf("index at %q (want %s) with %d sections, counted %d", rev, from, sections, rows)
		}
	})
}
