package httpapi_test

import (
	"context"
	"encoding/json"
	"sort"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/content"
	"docsd/internal/store"
)

func TestContentRecordsAreSharedBetweenRevisions(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, nil)
	b := generatedTree(200)
	replaceContent(t, e, e.Admin, id, b.tree)
	pages := countObjects(t, e, "page")
	if pages != 200 {
		t.Fatalf("%d page records after importing 200 pages", pages)
	}
	nodes := countObjects(t, e, "node")

	// The same tree again, with one page edited: one new page record, a few trie nodes.
	next := b.tree.Clone()
	p := next.Pages["p00150"]
	p.Markdown = "# Edited\n"
	next.Pages["p00150"] = p
	rev, st := replaceContent(t, e, e.Admin, id, next)
	if got := countObjects(t, e, "page"); got != pages+1 {
		t.Fatalf("%d page records after editing one page, want %d", got, pages+1)
	}
	if added := countObjects(t, e, "node") - nodes; added < 1 || added > 4 {
		t.Fatalf("one edit added %d trie nodes, want 1 to 4", added)
	}
	if st.Objects > 6 {
		t.Fatalf("one edit wrote %d objects", st.Objects)
	}
	r := e.Get(e.Admin, "/v1/spaces/"+id+"/revisions/"+rev.ID+"/page/p00150?format=markdown").Expect(200)
	if r.Str("markdown") != "# Edited\n" {
		t.Fatalf("edited page: %v", r.Map())
	}
	// Another space with the same content shares every record.
	other := newSpace(t, e, e.Admin, e.Org, nil)
	replaceContent(t, e, e.Admin, other, next)
	if got := countObjects(t, e, "page"); got != pages+1 {
		t.Fatalf("a second space with equal content added %d page records", got-pages-1)
	}
}

// TestContentOnePageEditInALargeSpace measures (and logs, without asserting on timings) what
// one page edit writes in a 10,000-page space, and how fast a page is read by id.
func TestContentOnePageEditInALargeSpace(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a 10,000-page space")
	}
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, nil)
	b := generatedTree(10000)
	start := time.Now()
	_, full := replaceContent(t, e, e.Admin, id, b.tree)
	t.Logf("import of 10,000 pages: %d objects, %d bytes, %s", full.Objects, full.Bytes, time.Since(start))

	next := b.tree.Clone()
	p := next.Pages["p05055"]
	p.Markdown = "# Edited\n\nOne changed page.\n"
	next.Pages["p05055"] = p
	start = time.Now()
	rev, one := replaceContent(t, e, e.Admin, id, next)
	t.Logf("one page edited in 10,000: %d objects, %d bytes, %s", one.Objects, one.Bytes, time.Since(start))
	if one.Bytes*100 > full.Bytes {
		t.Fatalf("one edit wrote %d bytes, over 1%% of the %d bytes of the whole space", one.Bytes, full.Bytes)
	}

	ctx := context.Background()
	var took []time.Duration
	for i := 0; i < 200; i++ {
		start := time.Now()
		pg, err := e.App.Content.Page(ctx, rev.ID, "p05055")
		took = append(took, time.Since(start))
		if err != nil || pg.Markdown != p.Markdown {
			t.Fatalf("page: %v %q", err, pg.Markdown)
		}
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	t.Logf("page by id in 10,000 pages, in process: p50 %s, p99 %s", took[len(took)/2], took[len(took)*99/100])
	// A process that has not decoded the revision reads the page through its trie path.
	cold := content.NewService(store.Contents{DB: e.App.DB}, e.App.Spaces, e.App.Clock)
	took = took[:0]
	for _, pid := range []string{"p00001", "p01234", "p05055", "p07777", "p09999", "p00100", "p04242"} {
		start := time.Now()
		pg, err := cold.Page(ctx, rev.ID, pid)
		took = append(took, time.Since(start))
		if err != nil || pg.ID != pid {
			t.Fatalf("cold page %s: %v", pid, err)
		}
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	t.Logf("page by id in 10,000 pages, first read in a fresh process: p50 %s", took[len(took)/2])
	if _, err := cold.Page(ctx, rev.ID, "nope"); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("missing page: %v", err)
	}
	start = time.Now()
	e.Get(e.Admin, "/v1/spaces/"+id+"/content/page/p05055").Expect(200)
	t.Logf("page by id over HTTP: %s", time.Since(start))
}

// Two writers starting from the same head: one moves it, the other gets 409 and writes nothing.
func TestContentHeadMovesByCompareAndSwap(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, nil)
	const writers = 4
	errs := make(chan error, writers)
	for i := 0; i < writers; i++ {
		tree := generatedTree(20 + i).tree
		go func() {
			_, _, err := e.App.Content.Replace(context.Background(), auth.Caller{UserID: e.Admin.ID}, id, tree)
			errs <- err
		}()
	}
	won := 0
	for i := 0; i < writers; i++ {
		err := <-errs
		switch {
		case err == nil:
			won++
		case apperr.Is(err, apperr.Conflict):
		default:
			t.Fatalf("unexpected error: %v", err)
		}
	}
	if won < 1 {
		t.Fatal("no writer won")
	}
	// The head is a revision whose parent chain has exactly won edits after the first one.
	rev := e.Get(e.Admin, "/v1/spaces/"+id).Expect(200).Str("revision")
	steps := 0
	for {
		r := e.Get(e.Admin, "/v1/spaces/"+id+"/revisions/"+rev).Expect(200)
		parents := r.Map()["parents"].([]any)
		if len(parents) == 0 {
			break
		}
		steps++
		rev = parents[0].(string)
	}
	if steps != won {
		t.Fatalf("%d revisions on the head's chain, %d writers succeeded", steps, won)
	}
}

// Every field of a page survives the store: what merges load is what was written.
func TestContentTreeRoundTrips(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, nil)
	b := sampleTree(t, e)
	p := b.tree.Pages["intro"]
	p.Emoji, p.Icon, p.Description = "1f600", "gear", "How to start"
	p.Hidden, p.NoIndex, p.NoRobotsIndex = true, true, true
	p.Layout = []byte(`{"width": "wide", "cover": true}`)
	p.Cover = []byte(`{"ref": {"kind": "file", "file": "logo"}, "yPos": 10}`)
	p.Variables = map[string]json.RawMessage{"product": []byte(`"docsd"`)}
	b.tree.Pages["intro"] = p
	b.tree.Variables["version"] = []byte(`3`)
	rev, _ := replaceContent(t, e, e.Admin, id, b.tree)
	got, err := e.App.Content.Tree(context.Background(), rev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(b.tree) {
		t.Fatalf("stored tree differs:\n%+v\nwant\n%+v", got.Pages["intro"], b.tree.Pages["intro"])
	}
	r := e.Get(e.Admin, "/v1/spaces/"+id+"/content/page/intro?format=markdown").Expect(200)
	if r.Str("emoji") != "1f600" || r.Str("layout.width") != "wide" || r.Str("cover.ref.file") != "logo" ||
		r.Str("variables.product") != "docsd" || !r.Bool("hidden") || !r.Bool("noIndex") || r.Str("description") != "How to start" {
		t.Fatalf("page fields: %v", r.Map())
	}
	if e.Get(e.Admin, "/v1/spaces/"+id+"/content").Expect(200).Num("variables.version") != 3 {
		t.Fatal("space variables lost")
	}
}
