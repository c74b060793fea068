package httpapi_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/outbox"
	"docsd/internal/search"
	"docsd/internal/store"
)

// spaceSearch searches one space as a and returns the answer.
func spaceSearch(e *apitest.Env, a apitest.Actor, spaceID, query string) *apitest.Resp {
	return e.Get(a, "/v1/spaces/"+spaceID+"/search?query="+url.QueryEscape(query))
}

// orgSearch searches the env's organization as a.
func orgSearch(e *apitest.Env, a apitest.Actor, query string) *apitest.Resp {
	return e.Get(a, "/v1/orgs/"+e.Org+"/search?query="+url.QueryEscape(query))
}

// pageIDs lists the page ids of a space search answer, in order.
func pageIDs(r *apitest.Resp) []string {
	var ids []string
	for _, it := range r.Items() {
		ids = append(ids, it["id"].(string))
	}
	return ids
}

// orgHits lists "space/page" for every page of an organization search answer, in order.
func orgHits(r *apitest.Resp) []string {
	var out []string
	for _, sp := range r.Items() {
		for _, p := range sp["pages"].([]any) {
			out = append(out, sp["id"].(string)+"/"+p.(map[string]any)["id"].(string))
		}
	}
	return out
}

// searchCorpus is a space whose pages test ranking, phrases, prefixes and folding.
func searchCorpus(t *testing.T, e *apitest.Env) string {
	t.Helper()
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Corpus"})
	filler := strings.Repeat("Plain words about nothing in particular fill this long paragraph. ", 30)
	b := newTreeBuilder().
		doc("body-long", "", "Overview", "overview", "Intro.\n\n"+filler+"The kestrel appears once here.\n").
		doc("body-short", "", "Birds", "birds", "# Falcons\n\nThe kestrel hovers. A kestrel hunts.\n").
		doc("title", "", "Kestrel", "kestrel", "A page about a small falcon. "+filler+"\n").
		doc("phrase", "", "Animals", "animals", "The quick brown fox jumps.\n\n## Dogs\n\nA brown dog is quick.\n").
		doc("folding", "", "Café culture", "cafe", "Crème brûlée at the café. 这是文档系统。\n").
		doc("hidden-from-search", "", "Secret kestrel", "secret", "kestrel kestrel\n")
	p := b.tree.Pages["hidden-from-search"]
	p.NoIndex = true
	b.tree.Pages[p.ID] = p
	replaceContent(t, e, e.Admin, sp, b.tree)
	return sp
}

func TestSearchRanking(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := searchCorpus(t, e)

	// The title page's long body would rank it below body-short on BM25 alone.
	t.Run("a title match comes first, then short sections before long ones", func(t *testing.T) {
		got := pageIDs(spaceSearch(e, e.Admin, sp, "kestrel").Expect(200))
		if want := []string{"title", "body-short", "body-long"}; !slices.Equal(got, want) {
			t.Fatalf("pages %v, want %v", got, want)
		}
	})
	t.Run("a result names its page and the matching sections with an excerpt", func(t *testing.T) {
		r := spaceSearch(e, e.Admin, sp, "hovers").Expect(200)
		if r.Num("count") != 1 || len(r.Items()) != 1 {
			t.Fatalf("answer %v", r.Map())
		}
		p := r.Items()[0]
		secs := p["sections"].([]any)
		if p["id"] != "body-short" || p["title"] != "Birds" || p["path"] != "birds" || len(secs) != 1 {
			t.Fatalf("page %v", p)
		}
		sec := secs[0].(map[string]any)
		urls := sec["urls"].(map[string]any)
		if sec["title"] != "Falcons" || sec["id"] != "body-short#falcons" || sec["path"] != "birds#falcons" ||
			!strings.Contains(sec["body"].(string), "kestrel hovers") ||
			urls["app"] != e.URL+"/app/s/"+sp+"/birds#falcons" ||
			p["urls"].(map[string]any)["app"] != e.URL+"/app/s/"+sp+"/birds" {
			t.Errorf("section %v of page %v", sec, p)
		}
	})
	t.Run("an excerpt of a long section shows the match", func(t *testing.T) {
		r := spaceSearch(e, e.Admin, sp, "appears").Expect(200)
		body := r.Items()[0]["sections"].([]any)[0].(map[string]any)["body"].(string)
		if !strings.Contains(body, "kestrel appears") || !strings.HasPrefix(body, "…") || len(body) > 300 {
			t.Errorf("excerpt %q", body)
		}
	})
	t.Run("every word must match", func(t *testing.T) {
		if got := pageIDs(spaceSearch(e, e.Admin, sp, "kestrel hovers").Expect(200)); !slices.Equal(got, []string{"body-short"}) {
			t.Errorf("pages %v", got)
		}
		if got := spaceSearch(e, e.Admin, sp, "kestrel zeppelin").Expect(200); got.Num("count") != 0 || len(got.Items()) != 0 {
			t.Errorf("answer %v", got.Map())
		}
	})
	t.Run("a quoted phrase matches its words in order only", func(t *testing.T) {
		r := spaceSearch(e, e.Admin, sp, `"quick brown"`).Expect(200)
		secs := r.Items()[0]["sections"].([]any)
		if !slices.Equal(pageIDs(r), []string{"phrase"}) || len(secs) != 1 || secs[0].(map[string]any)["title"] != "Animals" {
			t.Errorf("answer %v", r.Map())
		}
		if got := spaceSearch(e, e.Admin, sp, `"brown quick"`).Expect(200); len(got.Items()) != 0 {
			t.Errorf("reversed phrase found %v", got.Map())
		}
		// Unquoted, both sections of the page hold both words.
		r = spaceSearch(e, e.Admin, sp, "brown quick").Expect(200)
		if secs := r.Items()[0]["sections"].([]any); len(secs) != 2 {
			t.Errorf("sections %v", secs)
		}
	})
	t.Run("a word ending in * is a prefix; a bare word is whole", func(t *testing.T) {
		if got := pageIDs(spaceSearch(e, e.Admin, sp, "kestr*").Expect(200)); len(got) != 3 {
			t.Errorf("prefix found %v", got)
		}
		if got := spaceSearch(e, e.Admin, sp, "kestr").Expect(200); len(got.Items()) != 0 {
			t.Errorf("partial word found %v", got.Map())
		}
	})
	t.Run("accents and case fold, and ideographs match inside a sentence", func(t *testing.T) {
		for _, q := range []string{"cafe", "CAFÉ", "creme brulee", "文档"} {
			if got := pageIDs(spaceSearch(e, e.Admin, sp, q).Expect(200)); !slices.Equal(got, []string{"folding"}) {
				t.Errorf("%q found %v", q, got)
			}
		}
	})
	t.Run("a page marked noIndex is left out", func(t *testing.T) {
		if got := pageIDs(spaceSearch(e, e.Admin, sp, "secret").Expect(200)); len(got) != 0 {
			t.Errorf("found %v", got)
		}
	})
	t.Run("punctuation alone matches nothing", func(t *testing.T) {
		if got := spaceSearch(e, e.Admin, sp, `"*" -`).Expect(200); len(got.Items()) != 0 {
			t.Errorf("answer %v", got.Map())
		}
	})
}

func TestSearchLimits(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	b := newTreeBuilder()
	for i := range 5 {
		b.doc(fmt.Sprintf("p%d", i), "", fmt.Sprintf("Page %d", i), fmt.Sprintf("p%d", i), "common words here\n")
	}
	replaceContent(t, e, e.Admin, sp, b.tree)
	base := "/v1/spaces/" + sp + "/search"

	for _, path := range []string{base, "/v1/orgs/" + e.Org + "/search"} {
		e.Get(e.Admin, path).ExpectError(400).ExpectMessage("query")
		e.Get(e.Admin, path+"?query=%20%20").ExpectError(400).ExpectMessage("query")
		e.Get(e.Admin, path+"?query="+strings.Repeat("a", 513)).ExpectError(400).ExpectMessage("query", "512")
		e.Get(e.Admin, path+"?query="+strings.Repeat("a", 512)).Expect(200)
		// The limit counts characters, not bytes.
		e.Get(e.Admin, path+"?query="+url.QueryEscape(strings.Repeat("é", 512))).Expect(200)
		e.Get(e.Admin, path+"?query=common&limit=1001").ExpectError(400).ExpectMessage("limit")
	}

	t.Run("pages walk the grouped results", func(t *testing.T) {
		all := e.WalkList(e.Admin, base+"?query=common", 2)
		if len(all) != 5 {
			t.Fatalf("walked %d pages", len(all))
		}
		r := e.Get(e.Admin, base+"?query=common&limit=2").Expect(200)
		if r.Num("count") != 5 || len(r.Items()) != 2 || !r.Has("next.page") {
			t.Fatalf("answer %v", r.Map())
		}
		// A cursor belongs to its query.
		e.Get(e.Admin, base+"?query=words&page="+url.QueryEscape(r.Str("next.page"))).ExpectError(400)
	})
}

func TestSearchPermissions(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	open := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Open"})
	closed := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Closed"})
	for _, sp := range []string{open, closed} {
		replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("p", "", "Shared", "shared", "albatross sighting\n").tree)
	}
	reader := e.Member("reader", auth.Read)
	grant(t, e, e.Admin, "/v1/spaces/"+open, "read", []string{reader.ID}, nil)
	e.Get(reader, "/v1/spaces/"+closed).Expect(404) // the premise: reader cannot see it

	t.Run("organization search shows only readable spaces, grouped per space", func(t *testing.T) {
		r := orgSearch(e, reader, "albatross").Expect(200)
		if got := orgHits(r); !slices.Equal(got, []string{open + "/p"}) || r.Items()[0]["title"] != "Open" {
			t.Errorf("reader found %v", r.Map())
		}
		if got := orgHits(orgSearch(e, e.Admin, "albatross").Expect(200)); len(got) != 2 {
			t.Errorf("admin found %v", got)
		}
	})
	t.Run("an unreadable space answers 404", func(t *testing.T) {
		spaceSearch(e, reader, closed, "albatross").ExpectError(404)
		spaceSearch(e, reader, open, "albatross").Expect(200)
	})
	t.Run("a stranger cannot search the organization", func(t *testing.T) {
		orgSearch(e, e.NewUser("stranger"), "albatross").ExpectError(404)
	})
	t.Run("a deleted space leaves the results, and comes back when restored", func(t *testing.T) {
		e.Delete(e.Admin, "/v1/spaces/"+closed).Expect(204)
		if got := orgHits(orgSearch(e, e.Admin, "albatross").Expect(200)); !slices.Equal(got, []string{open + "/p"}) {
			t.Errorf("after delete found %v", got)
		}
		spaceSearch(e, e.Admin, closed, "albatross").ExpectError(404)
		e.Post(e.Admin, "/v1/spaces/"+closed+"/restore", nil).Expect(200)
		if got := orgHits(orgSearch(e, e.Admin, "albatross").Expect(200)); len(got) != 2 {
			t.Errorf("after restore found %v", got)
		}
	})
	t.Run("purging a space drops its sections from the index", func(t *testing.T) {
		indexed := func() int {
			var n int
			err := e.App.DB.Read().QueryRow(t.Context(), `SELECT COUNT(*) FROM search_sections WHERE space_id = ?`, closed).Scan(&n)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		if indexed() == 0 {
			t.Fatal("the premise: the space has indexed sections")
		}
		e.Delete(e.Admin, "/v1/spaces/"+closed).Expect(204)
		e.Clock.Advance(8 * 24 * time.Hour)
		e.RunDue()
		if n := indexed(); n != 0 {
			t.Errorf("%d sections left after the purge", n)
		}
		if got := orgHits(orgSearch(e, e.Admin, "albatross").Expect(200)); !slices.Equal(got, []string{open + "/p"}) {
			t.Errorf("after purge found %v", got)
		}
	})
}

func TestSearchFreshness(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp, first := crSpace(t, e)
	headMoves := func() int {
		var n int
		if err := e.App.DB.Read().QueryRow(t.Context(), `SELECT COUNT(*) FROM outbox_events WHERE kind = ? AND space_id = ?`,
			outbox.HeadMoved, sp).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	movesBefore := headMoves()

	t.Run("a merge's words are found as soon as the merge answers", func(t *testing.T) {
		cr := newChangeRequest(t, e, e.Admin, sp, "zebra")
		editPage(t, e, sp, cr, "p1", map[string]any{"markdown": "First paragraph.\n\n## Stripes\n\nA zebra grazes.\n"})
		if got := spaceSearch(e, e.Admin, sp, "zebra").Expect(200); len(got.Items()) != 0 {
			t.Fatalf("an unmerged change request is searchable: %v", got.Map())
		}
		e.Post(e.Admin, crPath(sp, cr)+"/merge", nil).Expect(200)
		r := spaceSearch(e, e.Admin, sp, "zebra").Expect(200)
		if !slices.Equal(pageIDs(r), []string{"p1"}) || r.Items()[0]["sections"].([]any)[0].(map[string]any)["title"] != "Stripes" {
			t.Errorf("after merge %v", r.Map())
		}
	})
	t.Run("edited-away words and deleted pages leave the results", func(t *testing.T) {
		cr := newChangeRequest(t, e, e.Admin, sp, "cleanup")
		editPage(t, e, sp, cr, "p1", map[string]any{"markdown": "Only horses now.\n"})
		e.Delete(e.Admin, crPath(sp, cr)+"/pages/p2").Expect(204)
		e.Post(e.Admin, crPath(sp, cr)+"/merge", nil).Expect(200)
		if got := spaceSearch(e, e.Admin, sp, "zebra").Expect(200); len(got.Items()) != 0 {
			t.Errorf("zebra still found: %v", got.Map())
		}
		if got := spaceSearch(e, e.Admin, sp, "two").Expect(200); len(got.Items()) != 0 {
			t.Errorf("deleted page still found: %v", got.Map())
		}
		if got := pageIDs(spaceSearch(e, e.Admin, sp, "horses").Expect(200)); !slices.Equal(got, []string{"p1"}) {
			t.Errorf("horses found %v", got)
		}
	})
	t.Run("each head move wrote an event for the search consumer", func(t *testing.T) {
		if got := headMoves() - movesBefore; got != 2 {
			t.Errorf("%d head-moved events for two merges", got)
		}
	})
	t.Run("concurrent indexers bring a lagging index to the head once", func(t *testing.T) {
		ctx := t.Context()
		// Pretend the index is still at the space's first revision.
		if err := e.App.DB.Write(ctx, e.Clock.Now(), func(q *store.Q) error {
			_, err := q.Exec(ctx, `UPDATE search_indexed SET revision_id = ? WHERE space_id = ?`, first, sp)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for range 4 {
			wg.Add(1)
			go func() { defer wg.Done(); errs <- e.App.Search.Refresh(ctx, sp, 0) }()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		var rev string
		var sections int
		q := e.App.DB.Read()
		if err := q.QueryRow(ctx, `SELECT revision_id, sections FROM search_indexed WHERE space_id = ?`, sp).Scan(&rev, &sections); err != nil {
			t.Fatal(err)
		}
		var rows int
		if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM search_sections WHERE space_id = ?`, sp).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if rev != headOf(e, sp) || rows != 1 || sections != 1 {
			t.Errorf("index at %s (head %s) with %d sections, counted %d", rev, headOf(e, sp), rows, sections)
		}
		if got := pageIDs(spaceSearch(e, e.Admin, sp, "horses").Expect(200)); !slices.Equal(got, []string{"p1"}) {
			t.Errorf("horses found %v", got)
		}
	})
	t.Run("a large import is indexed by the job the head move enqueued", func(t *testing.T) {
		big := newSpace(t, e, e.Admin, e.Org, nil)
		b := newTreeBuilder()
		for i := range 80 {
			b.doc(fmt.Sprintf("g%02d", i), "", fmt.Sprintf("Gazelle %d", i), fmt.Sprintf("g%02d", i), "antelope text\n")
		}
		replaceContent(t, e, e.Admin, big, b.tree)
		// The server's worker may be running the job already; RunDue runs it or waits for it.
		e.RunDue()
		r := e.Get(e.Admin, "/v1/spaces/"+big+"/search?query=antelope&limit=1000").Expect(200)
		if r.Num("count") != 80 {
			t.Errorf("found %v pages, want 80", r.Num("count"))
		}
	})
	t.Run("a duplicated space is searchable", func(t *testing.T) {
		dup := e.Post(e.Admin, "/v1/spaces/"+sp+"/duplicate", nil).Expect(201).Str("id")
		e.RunDue()
		if got := pageIDs(spaceSearch(e, e.Admin, dup, "horses").Expect(200)); !slices.Equal(got, []string{"p1"}) {
			t.Errorf("duplicate found %v", got)
		}
	})
}

// A space holding most of the index is searched without the scope filter in FTS5 (see
// store/search_sqlite.go); another space's matches, indexed later, must not crowd it out.
func TestSearchLargeSpaceBesideRecentOne(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	fill := func(title string, pages int) string {
		sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": title})
		b := newTreeBuilder()
		for i := range pages {
			b.doc(fmt.Sprintf("p%04d", i), "", fmt.Sprintf("%s %d", title, i), fmt.Sprintf("p%04d", i), "a common word\n")
		}
		replaceContent(t, e, e.Admin, sp, b.tree)
		e.RunDue()
		return sp
	}
	older := fill("Older", 700)
	newer := fill("Newer", 650)
	for _, sp := range []string{older, newer} {
		r := e.Get(e.Admin, "/v1/spaces/"+sp+"/search?query=common&limit=1").Expect(200)
		if r.Num("count") == 0 || !strings.HasPrefix(r.Items()[0]["path"].(string), "p") {
			t.Errorf("space %s: %v", sp, r.Map())
		}
	}
}

// A query matching more sections than one search used to rank (the 300 most recently
// indexed) still finds the most relevant of them when it is the oldest: ranking no longer
// depends on when a section was indexed.
func TestSearchOldestMostRelevantFirst(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Many"})
	b := newTreeBuilder().doc("best", "", "First page", "first", strings.Repeat("common word ", 20)+"and little else.\n")
	replaceContent(t, e, e.Admin, sp, b.tree)
	e.RunDue()
	filler := strings.Repeat("Other text that says much about other things. ", 3)
	for i := range 450 {
		b.doc(fmt.Sprintf("p%04d", i), "", fmt.Sprintf("Page %d", i), fmt.Sprintf("p%04d", i), "A common word. "+filler+"\n")
	}
	replaceContent(t, e, e.Admin, sp, b.tree)
	e.RunDue()
	r := spaceSearch(e, e.Admin, sp, "common word").Expect(200)
	if ids := pageIDs(r); len(ids) == 0 || ids[0] != "best" {
		t.Fatalf("first results %v, want best first", ids[:min(len(ids), 3)])
	}
	if n := r.Num("count"); n < 300 {
		t.Errorf("count %v, want every matching page up to the bound", n)
	}
}

// A query of words found in more sections than are ranked exactly (search.ExactBound) ranks
// champion lists and title matches on SQLite: the index job builds the lists after a large
// update, and the heaviest section, indexed first, and a title match both come first.
func TestSearchCommonWordsChampionLists(t *testing.T) {
	if apitest.Engine() != "sqlite" {
		t.Skip("PostgreSQL keeps no champion lists")
	}
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Common"})
	b := newTreeBuilder().doc("best", "", "First page", "first", strings.Repeat("common word ", 20)+"and little else.\n")
	replaceContent(t, e, e.Admin, sp, b.tree)
	e.RunDue()
	filler := strings.Repeat("Other text that says much about other things. ", 3)
	pages := search.ExactBound/2 + 50
	for i := range pages {
		b.doc(fmt.Sprintf("p%04d", i), "", fmt.Sprintf("Page %d", i), fmt.Sprintf("p%04d", i),
			"A common word. "+filler+"\n\n## More\n\nAnother common word. "+filler+"\n")
	}
	// Long enough for its title's words to weigh less than a short body's: not a champion.
	b.doc("titled", "", "Common word", "titled", strings.Repeat(filler, 40)+"\n")
	replaceContent(t, e, e.Admin, sp, b.tree)
	e.RunDue()
	var listed int
	if err := e.App.DB.Read().QueryRow(t.Context(), `SELECT COUNT(*) FROM search_champions WHERE term = 'common'`).Scan(&listed); err != nil || listed == 0 {
		t.Fatalf("no champion list for 'common' after a large update (%d, %v)", listed, err)
	}
	r := spaceSearch(e, e.Admin, sp, "common word").Expect(200)
	if ids := pageIDs(r); len(ids) < 2 || ids[0] != "titled" || ids[1] != "best" {
		t.Fatalf("first results %v, want titled then best", ids[:min(len(ids), 3)])
	}
}

// TestSearchStatements bounds the statements a search of a space whose index is up to date
// runs on SQLite: the spaces' index state (with their section counts), the matches, and the
// rows of the best of them. It ran one more while the spaces' section count was read on its
// own.
func TestSearchStatements(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := searchCorpus(t, e)
	e.RunDue()
	e.App.Outbox.Stop()
	db := e.App.DB
	least := ^uint64(0)
	for _, q := range []string{"kestrel", "brown fox", "quick dog", "falcon"} {
		// The first search of a rare word counts the sections that hold it, kept for a
		// while: the second (another URL, so not a cached answer) is counted.
		spaceSearch(e, e.Admin, sp, q).Expect(200)
		before := db.Statements()
		r := e.Get(e.Admin, "/v1/spaces/"+sp+"/search?limit=5&query="+url.QueryEscape(q)).Expect(200)
		if r.Num("count") == 0 {
			t.Errorf("%q found nothing", q)
		}
		least = min(least, db.Statements()-before)
	}
	t.Logf("a search ran %d statements", least)
	if db.Engine == store.SQLite && least > 3 {
		t.Errorf("a search ran %d statements, want at most 3", least)
	}
}
