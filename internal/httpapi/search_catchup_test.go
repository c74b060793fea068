package httpapi_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"docsd/internal/apitest"
)

// A change whose index update did not follow it (it failed, or the process stopped first)
// is found all the same: a search that finds a space's index behind its head makes the
// update itself. Here neither the outbox's search consumer nor jobs run, so only searches
// move the index.
func TestSearchCatchesUpOnQuery(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp, _ := crSpace(t, e)
	if err := e.App.Jobs.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	e.App.Outbox.Stop()
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
	merge := func(subject, page, markdown string) {
		t.Helper()
		cr := newChangeRequest(t, e, e.Admin, sp, subject)
		editPage(t, e, sp, cr, page, map[string]any{"markdown": markdown})
		e.Post(e.Admin, crPath(sp, cr)+"/merge", nil).Expect(200)
	}

	t.Run("the search right after a merge finds its words, and brings the index to the head", func(t *testing.T) {
		merge("zebra", "p1", "First paragraph.\n\n## Stripes\n\nA zebra grazes.\n")
		if rev, _, _ := indexed(sp); rev == headOf(e, sp) {
			t.Fatal("the premise: the merge's change is not indexed yet")
		}
		r := spaceSearch(e, e.Admin, sp, "zebra").Expect(200)
		if !slices.Equal(pageIDs(r), []string{"p1"}) || r.Items()[0]["sections"].([]any)[0].(map[string]any)["title"] != "Stripes" {
			t.Errorf("after merge %v", r.Map())
		}
		if rev, sections, rows := indexed(sp); rev != headOf(e, sp) || sections != rows || rows != 3 {
			t.Errorf("index at %s (head %s) with %d sections, counted %d, want 3", rev, headOf(e, sp), sections, rows)
		}
	})
	t.Run("an organization search catches up too", func(t *testing.T) {
		merge("giraffe", "p2", "A giraffe browses.\n")
		if got := orgHits(orgSearch(e, e.Admin, "giraffe").Expect(200)); !slices.Equal(got, []string{sp + "/p2"}) {
			t.Errorf("found %v", got)
		}
	})
	t.Run("concurrent searches of a lagging space update its index once", func(t *testing.T) {
		merge("okapi", "p1", "An okapi hides.\n\n## Forest\n\nThe okapi again.\n")
		var wg sync.WaitGroup
		found := make(chan []string, 8)
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				found <- pageIDs(spaceSearch(e, e.Admin, sp, "okapi").Expect(200))
			}()
		}
		wg.Wait()
		close(found)
		for got := range found {
			if !slices.Equal(got, []string{"p1"}) {
				t.Errorf("a concurrent search found %v", got)
			}
		}
		if rev, sections, rows := indexed(sp); rev != headOf(e, sp) || sections != rows || rows != 3 {
			t.Errorf("index at %s (head %s) with %d sections, counted %d, want 3", rev, headOf(e, sp), sections, rows)
		}
		if got := spaceSearch(e, e.Admin, sp, "zebra").Expect(200); len(got.Items()) != 0 {
			t.Errorf("edited-away words still found: %v", got.Map())
		}
	})
	t.Run("a large change is left to the job", func(t *testing.T) {
		big := newSpace(t, e, e.Admin, e.Org, nil)
		b := newTreeBuilder()
		for i := range 80 {
			b.doc(fmt.Sprintf("g%02d", i), "", fmt.Sprintf("Gnu %d", i), fmt.Sprintf("g%02d", i), "wildebeest text\n")
		}
		replaceContent(t, e, e.Admin, big, b.tree)
		for range 2 { // the second search skips the comparison the first one made
			if got := spaceSearch(e, e.Admin, big, "wildebeest").Expect(200); len(got.Items()) != 0 {
				t.Fatalf("a search indexed an 80-page change: %v", got.Map())
			}
		}
		e.RunDue()
		r := e.Get(e.Admin, "/v1/spaces/"+big+"/search?query=wildebeest&limit=1000").Expect(200)
		if r.Num("count") != 80 {
			t.Errorf("found %v pages after the job, want 80", r.Num("count"))
		}
	})
}
