package httpapi_test

import (
	"fmt"
	"testing"
	"time"

	"docsd/internal/apitest"
)

// linkedTree is a space whose pages link to each other, to a file, to a missing page, to an
// outside URL and to a location of the server's app.
func linkedTree(t *testing.T, e *apitest.Env) *treeBuilder {
	b := newTreeBuilder().
		doc("home", "", "Home", "home", "# Home\n\n[intro](guide/intro/README.md) [deep](guide/intro/deeper.md#part) "+
			"[gone](missing.md) [out](https://example.com/x) [app]("+e.URL+"/app/s/elsewhere) "+
			"![logo](.gitbook/assets/logo.png) [self](#home) [intro again](guide/intro/)\n").
		page("guide", "", "group", "Guide", "guide", "").
		doc("intro", "guide", "Introduction", "intro", "[home](../../README.md) [gone too](../../missing.md) [deep](deeper.md)\n").
		doc("deep", "intro", "Deeper", "deeper", "![logo](../../.gitbook/assets/logo.png)\n").
		file(t, e, "logo", "logo.png", "image/png", []byte("\x89PNG"))
	// Link pages point at their target: an outside URL, and a page that is gone.
	b.page("out", "", "link", "Elsewhere", "", "").page("stale", "", "link", "Stale", "", "")
	out, stale := b.tree.Pages["out"], b.tree.Pages["stale"]
	out.Target, stale.Target = []byte(`{"kind":"url","url":"https://example.com/x"}`), []byte(`{"kind":"page","page":"gone"}`)
	b.tree.Pages["out"], b.tree.Pages["stale"] = out, stale
	return b
}

// linkSummary renders link-check items as "status target <- pages".
func linkSummary(items []map[string]any) []string {
	var out []string
	for _, it := range items {
		target := it["targetReference"].(map[string]any)
		name := fmt.Sprint(target["kind"], ":")
		switch target["kind"] {
		case "page":
			name += target["page"].(map[string]any)["id"].(string)
			if in, ok := target["internalLocation"].(map[string]any); ok {
				name += "#" + in["anchor"].(string)
			}
		case "file":
			name += target["file"].(map[string]any)["id"].(string)
		default:
			name += target["url"].(string)
		}
		s := it["status"].(string) + " " + name + " <-"
		for _, l := range it["locationReferences"].([]any) {
			s += " " + l.(map[string]any)["page"].(map[string]any)["id"].(string)
		}
		out = append(out, s)
	}
	return out
}

func sameStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s:\n got %q\nwant %q", what, got, want)
	}
}

func TestSpaceLinks(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	replaceContent(t, e, e.Admin, sp, linkedTree(t, e).tree)
	base := "/v1/spaces/" + sp
	all := []string{
		"ok file:logo <- home deep",
		"broken url:missing.md <- home intro",
		"broken url:page gone <- stale",
		"ok page:deep <- intro",
		"ok page:deep#part <- home",
		"ok page:home <- intro",
		"ok page:intro <- home",
		"in-app url:" + e.URL + "/app/s/elsewhere <- home",
		"ok url:https://example.com/x <- home out",
	}

	t.Run("every target once, with the pages linking to it and stats", func(t *testing.T) {
		r := e.Get(e.Admin, base+"/links").Expect(200)
		sameStrings(t, "links", linkSummary(r.Items()), all)
		if r.Num("count") != 9 || r.Num("stats.total") != 9 || r.Num("stats.broken.total") != 2 || r.Has("stats.broken.changeRequest") {
			t.Fatalf("envelope: %v", r.Map())
		}
		it := r.Items()[0]
		if it["relation"] != "reference" {
			t.Fatalf("relation %v", it["relation"])
		}
		loc := it["locationReferences"].([]any)[0].(map[string]any)
		if loc["kind"] != "page" || loc["organization"].(map[string]any)["id"] != e.Org ||
			loc["space"].(map[string]any)["id"] != sp || loc["versionContext"] != nil {
			t.Fatalf("location: %v", loc)
		}
		if f := it["targetReference"].(map[string]any)["file"].(map[string]any); f["name"] != "logo.png" || f["downloadURL"] == "" {
			t.Fatalf("file target: %v", f)
		}
	})
	t.Run("the status filter keeps the stats of all", func(t *testing.T) {
		r := e.Get(e.Admin, base+"/links?status=broken").Expect(200)
		sameStrings(t, "broken", linkSummary(r.Items()), all[1:3])
		if r.Num("count") != 2 || r.Num("stats.total") != 9 {
			t.Fatalf("envelope: %v", r.Map())
		}
		sameStrings(t, "in-app", linkSummary(e.Get(e.Admin, base+"/links?status=in-app").Expect(200).Items()), all[7:8])
		if n := len(e.Get(e.Admin, base+"/links?status=ok").Expect(200).Items()); n != 6 {
			t.Fatalf("%d ok links", n)
		}
	})
	t.Run("pages of results", func(t *testing.T) {
		sameStrings(t, "walked", linkSummary(e.WalkList(e.Admin, base+"/links", 3)), all)
	})
	t.Run("one page's links", func(t *testing.T) {
		r := e.Get(e.Admin, base+"/content/page/home/links").Expect(200)
		sameStrings(t, "home", linkSummary(r.Items()), []string{
			"ok file:logo <- home", "broken url:missing.md <- home", "ok page:deep#part <- home", "ok page:intro <- home",
			"in-app url:" + e.URL + "/app/s/elsewhere <- home", "ok url:https://example.com/x <- home"})
		if r.Num("stats.total") != 6 || r.Num("stats.broken.total") != 1 {
			t.Fatalf("stats: %v", r.Map())
		}
		r = e.Get(e.Admin, base+"/content/page/home/links?status=broken&limit=1").Expect(200)
		if r.Num("count") != 1 || r.Has("next") {
			t.Fatalf("filtered: %v", r.Map())
		}
		if r := e.Get(e.Admin, base+"/content/page/guide/links").Expect(200); r.Num("count") != 0 || r.Num("stats.total") != 0 {
			t.Fatalf("a group's links: %v", r.Map())
		}
		sameStrings(t, "a link page", linkSummary(e.Get(e.Admin, base+"/content/page/stale/links").Expect(200).Items()),
			[]string{"broken url:page gone <- stale"})
	})
	t.Run("backlinks", func(t *testing.T) {
		for path, want := range map[string][]string{
			"/content/page/deep/backlinks":  {"home", "intro"},
			"/content/page/home/backlinks":  {"intro"},
			"/content/page/guide/backlinks": {},
			"/content/files/logo/backlinks": {"home", "deep"},
		} {
			var got []string
			for _, it := range e.WalkList(e.Admin, base+path, 1) {
				if it["kind"] != "page" || it["space"].(map[string]any)["id"] != sp {
					t.Fatalf("%s: %v", path, it)
				}
				got = append(got, it["page"].(map[string]any)["id"].(string))
			}
			if want := fmt.Sprint(want); fmt.Sprint(got) != want && !(len(got) == 0 && want == "[]") {
				t.Fatalf("%s: got %v, want %v", path, got, want)
			}
		}
	})
	t.Run("bad input and missing things", func(t *testing.T) {
		e.Get(e.Admin, base+"/links?status=gone").ExpectError(400).ExpectMessage("status", "ok, broken, in-app")
		e.Get(e.Admin, base+"/links?limit=1001").ExpectError(400).ExpectMessage("limit")
		e.Get(e.Admin, base+"/links?page=forged").ExpectError(400).ExpectMessage("page")
		e.Get(e.Admin, base+"/content/page/home/links?status=x").ExpectError(400).ExpectMessage("status")
		e.Get(e.Admin, base+"/content/page/nope/links").ExpectError(404)
		e.Get(e.Admin, base+"/content/page/nope/backlinks").ExpectError(404)
		e.Get(e.Admin, base+"/content/files/nope/backlinks").ExpectError(404)
		e.Get(e.Admin, "/v1/spaces/nope/links").ExpectError(404)
		// A cursor of one list does not page another.
		next := e.Get(e.Admin, base+"/links?limit=1").Expect(200).Str("next.page")
		e.Get(e.Admin, base+"/links?status=ok&page="+next).ExpectError(400)
	})
	t.Run("a stranger sees nothing", func(t *testing.T) {
		stranger := e.NewUser("stranger")
		for _, path := range []string{"/links", "/content/page/home/links", "/content/page/home/backlinks", "/content/files/logo/backlinks"} {
			e.Get(stranger, base+path).ExpectError(404)
		}
	})
}

func TestChangeRequestLinks(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	replaceContent(t, e, e.Admin, sp, linkedTree(t, e).tree)
	cr := newChangeRequest(t, e, e.Admin, sp, "break a link")
	number := e.Get(e.Admin, crPath(sp, cr)).Expect(200).Num("number")
	editPage(t, e, sp, cr, "intro", map[string]any{"markdown": "[home](../../README.md) [gone too](../../missing.md) [new](../nothere.md)\n"})

	for _, ref := range []string{cr, fmt.Sprint(number)} {
		base := crPath(sp, ref)
		r := e.Get(e.Admin, base+"/links").Expect(200)
		if r.Num("stats.total") != 9 || r.Num("stats.broken.total") != 3 || r.Num("stats.broken.changeRequest") != 1 {
			t.Fatalf("stats: %v", r.Map())
		}
		loc := r.Items()[0]["locationReferences"].([]any)[0].(map[string]any)
		if vc := loc["versionContext"].(map[string]any); vc["type"] != "changeRequest" || vc["changeRequest"].(map[string]any)["id"] != cr {
			t.Fatalf("version context: %v", loc["versionContext"])
		}
		r = e.Get(e.Admin, base+"/links?status=broken&brokenContext=change-request").Expect(200)
		sameStrings(t, "newly broken", linkSummary(r.Items()), []string{"broken url:../nothere.md <- intro"})
		if n := len(e.Get(e.Admin, base+"/links?status=broken").Expect(200).Items()); n != 3 {
			t.Fatalf("%d broken links", n)
		}
		r = e.Get(e.Admin, base+"/content/page/intro/links").Expect(200)
		if r.Num("stats.total") != 3 || r.Num("stats.broken.total") != 2 || r.Num("stats.broken.changeRequest") != 1 {
			t.Fatalf("page stats: %v", r.Map())
		}
		// The change request dropped intro's link to deep.
		if n := len(e.WalkList(e.Admin, base+"/content/page/deep/backlinks", 10)); n != 1 {
			t.Fatalf("deep has %d backlinks in the change request", n)
		}
		e.Get(e.Admin, base+"/links?brokenContext=all").ExpectError(400).ExpectMessage("brokenContext")
	}
	// The head is untouched.
	if n := len(e.WalkList(e.Admin, "/v1/spaces/"+sp+"/content/page/deep/backlinks", 10)); n != 2 {
		t.Fatalf("deep has %d backlinks at the head", n)
	}
	e.Get(e.Admin, crPath(sp, "999")+"/links").ExpectError(404)
	e.Get(e.Admin, crPath(sp, "999")+"/content/page/home/links").ExpectError(404)
}

// TestLinksInALargeSpace measures (and logs, without asserting on timings) link checks in a
// 10,000-page space: one page's links read that page only; the space's links and backlinks
// index every page once per revision.
func TestLinksInALargeSpace(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a 10,000-page space")
	}
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	b := generatedTree(10000)
	for id, p := range b.tree.Pages {
		p.Markdown += fmt.Sprintf("\n[home](/README.md) [gone](nowhere.md) [out](https://example.com/%s)\n", id)
		b.tree.Pages[id] = p
	}
	replaceContent(t, e, e.Admin, sp, b.tree)
	base := "/v1/spaces/" + sp

	timed := func(path string) (*apitest.Resp, time.Duration) {
		start := time.Now()
		r := e.Get(e.Admin, path).Expect(200)
		return r, time.Since(start)
	}
	r, took := timed(base + "/content/page/p05055/links")
	if r.Num("count") != 3 || r.Num("stats.broken.total") != 1 {
		t.Fatalf("page links: %s", r.Body)
	}
	t.Logf("one page's links in 10,000 pages, first of the revision (paths indexed): %s", took)
	_, took = timed(base + "/content/page/p07777/links")
	t.Logf("another page's links: %s", took)
	r, took = timed(base + "/links?status=broken&limit=1000")
	// A top-level page and its 99 children (whose files sit in its directory) share one
	// missing target: 100 in all.
	if r.Num("stats.total") != 1+100+10000 || r.Num("stats.broken.total") != 100 || r.Num("count") != 100 {
		t.Fatalf("space links: %v %v %v", r.Num("stats.total"), r.Num("stats.broken.total"), r.Num("count"))
	}
	t.Logf("space links of 10,000 pages, first (index built): %s", took)
	r, took = timed(base + "/links?status=broken&limit=1000")
	t.Logf("space links of 10,000 pages, again (index cached): %s, %d bytes", took, len(r.Body))
	home := e.Get(e.Admin, base+"/links?status=ok&limit=1").Expect(200).Items()[0]
	if n := len(home["locationReferences"].([]any)); n != 10 {
		t.Fatalf("the home page, linked from every page, shows %d locations, want the first 10", n)
	}
	r, took = timed(base + "/content/page/p00000/backlinks?limit=10")
	if r.Num("count") != 10000 {
		t.Fatalf("home has %v backlinks", r.Num("count"))
	}
	t.Logf("backlinks of the home page (10,000, first 10): %s", took)
}

// Requests that find a revision's link index missing at the same time get the same answer.
func TestSpaceLinksConcurrently(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	replaceContent(t, e, e.Admin, sp, linkedTree(t, e).tree)
	const n = 8
	answers := make(chan *apitest.Resp, n)
	for range n {
		go func() { answers <- e.Get(e.Admin, "/v1/spaces/"+sp+"/links") }()
	}
	first := string((<-answers).Expect(200).Body)
	for range n - 1 {
		if got := string((<-answers).Expect(200).Body); got != first {
			t.Fatalf("answers differ:\n%s\n%s", first, got)
		}
	}
}

// A duplicate's change request may start from a revision made in the space it was copied
// from; its link check still compares with that revision.
func TestChangeRequestLinksInADuplicate(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	src := newSpace(t, e, e.Admin, e.Org, nil)
	replaceContent(t, e, e.Admin, src, linkedTree(t, e).tree)
	dup := e.Post(e.Admin, "/v1/spaces/"+src+"/duplicate", nil).Expect(201).Str("id")
	cr := newChangeRequest(t, e, e.Admin, dup, "in the copy")
	moved := linkedTree(t, e).tree
	p := moved.Pages["home"]
	p.Markdown = "No links any more.\n"
	moved.Pages["home"] = p
	replaceContent(t, e, e.Admin, dup, moved)
	r := e.Get(e.Admin, crPath(dup, cr)+"/links").Expect(200)
	if r.Num("stats.broken.total") != 2 || r.Num("stats.broken.changeRequest") != 0 {
		t.Fatalf("stats: %v", r.Map()["stats"])
	}
	e.Get(e.Admin, crPath(dup, cr)+"/content/page/home/links").Expect(200)
	// Its content reads as well, though its revision is no head of the copy's.
	if got := e.Get(e.Admin, crPath(dup, cr)+"/content/page/home?format=markdown").Expect(200).Str("markdown"); got == p.Markdown {
		t.Fatal("the change request shows the copy's head")
	}
}
