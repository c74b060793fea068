package httpapi_test

import (
	"strings"
	"sync"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// crSpace is a space with two pages, p1 (two paragraphs) and p2, and its head.
func crSpace(t *testing.T, e *apitest.Env) (spaceID, head string) {
	t.Helper()
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	rev, _ := replaceContent(t, e, e.Admin, sp, newTreeBuilder().
		doc("p1", "", "One", "one", "First paragraph.\n\nSecond paragraph.\n").
		doc("p2", "", "Two", "two", "Two's text.\n").tree)
	return sp, rev.ID
}

// headOf reads the space's head revision id.
func headOf(e *apitest.Env, spaceID string) string {
	return e.Get(e.Admin, "/v1/spaces/"+spaceID+"/content").Expect(200).Str("id")
}

// crPath is one change request's path.
func crPath(spaceID, cr string) string { return changeRequestsPath(spaceID) + "/" + cr }

// pageAt reads a page of a revision ("" for the head) in markdown.
func pageAt(e *apitest.Env, spaceID, rev, pageID string) *apitest.Resp {
	base := "/v1/spaces/" + spaceID + "/content"
	if rev != "" {
		base = "/v1/spaces/" + spaceID + "/revisions/" + rev
	}
	return e.Get(e.Admin, base+"/page/"+pageID+"?format=markdown")
}

// editPage patches a page inside a change request and returns the new revision.
func editPage(t *testing.T, e *apitest.Env, spaceID, cr, pageID string, body map[string]any) string {
	t.Helper()
	return e.Patch(e.Admin, crPath(spaceID, cr)+"/pages/"+pageID, body).Expect(200).Str("revision")
}

func TestChangeRequestPageEdits(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp, head := crSpace(t, e)
	cr := newChangeRequest(t, e, e.Admin, sp, "edits")

	var created, rev string
	t.Run("creating a page makes a revision of the change request only", func(t *testing.T) {
		r := e.Post(e.Admin, crPath(sp, cr)+"/pages", map[string]any{"title": "New Page", "markdown": "hello\n",
			"emoji": "1f600", "description": "about"}).Expect(201)
		created, rev = r.Str("page"), r.Str("revision")
		if rev == head || created == "" {
			t.Fatalf("answer %v", r.Map())
		}
		p := pageAt(e, sp, rev, created).Expect(200)
		if p.Str("title") != "New Page" || p.Str("slug") != "new-page" || p.Str("markdown") != "hello\n" ||
			p.Str("description") != "about" {
			t.Errorf("page %v", p.Map())
		}
		if got := e.Get(e.Admin, crPath(sp, cr)).Expect(200).Str("revision"); got != rev {
			t.Errorf("change request revision %s, want %s", got, rev)
		}
		if headOf(e, sp) != head {
			t.Error("the space's head moved")
		}
		pageAt(e, sp, "", created).Expect(404)
	})
	t.Run("updating a page changes its fields", func(t *testing.T) {
		next := editPage(t, e, sp, cr, "p1", map[string]any{"title": "Uno", "slug": "uno", "markdown": "Changed.\n"})
		p := pageAt(e, sp, next, "p1").Expect(200)
		if next == rev || p.Str("title") != "Uno" || p.Str("slug") != "uno" || p.Str("markdown") != "Changed.\n" {
			t.Errorf("page %v", p.Map())
		}
		if pageAt(e, sp, "", "p1").Expect(200).Str("title") != "One" {
			t.Error("the head's page changed")
		}
	})
	t.Run("moving a page places it under its new parent at the position", func(t *testing.T) {
		editPage(t, e, sp, cr, created, map[string]any{"parent": "p2", "position": 0})
		next := editPage(t, e, sp, cr, "p1", map[string]any{"parent": "p2", "position": 0})
		pages := e.Get(e.Admin, "/v1/spaces/"+sp+"/revisions/"+next+"/pages").Expect(200)
		if pages.Str("pages.0.id") != "p2" || pages.Str("pages.0.pages.0.id") != "p1" || pages.Str("pages.0.pages.1.id") != created {
			t.Errorf("tree %s", pages.Body)
		}
	})
	t.Run("deleting a page removes it and its children", func(t *testing.T) {
		e.Delete(e.Admin, crPath(sp, cr)+"/pages/p2").Expect(204)
		now := e.Get(e.Admin, crPath(sp, cr)).Expect(200).Str("revision")
		for _, id := range []string{"p2", "p1", created} {
			pageAt(e, sp, now, id).Expect(404)
		}
		e.Delete(e.Admin, crPath(sp, cr)+"/pages/p2").Expect(204)
		if e.Get(e.Admin, crPath(sp, cr)).Expect(200).Str("revision") != now {
			t.Error("deleting an absent page made a revision")
		}
		if headOf(e, sp) != head {
			t.Error("the space's head moved")
		}
	})
	for _, tc := range []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"a title of 256 characters is refused", map[string]any{"title": strings.Repeat("a", 256)}, "title"},
		{"a missing title is refused", map[string]any{"markdown": "x"}, "title"},
		{"a negative position is refused", map[string]any{"title": "x", "position": -1}, "position"},
		{"an unknown parent is refused", map[string]any{"title": "x", "parent": "nope"}, "parent"},
		{"an unknown kind is refused", map[string]any{"title": "x", "kind": "link"}, "kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.Get(e.Admin, crPath(sp, cr)).Expect(200).Str("revision")
			e.Post(e.Admin, crPath(sp, cr)+"/pages", tc.body).Expect(400).ExpectMessage(tc.field)
			if e.Get(e.Admin, crPath(sp, cr)).Expect(200).Str("revision") != before {
				t.Error("a refused edit made a revision")
			}
		})
	}
	t.Run("a title of 255 characters is accepted", func(t *testing.T) {
		e.Post(e.Admin, crPath(sp, cr)+"/pages", map[string]any{"title": strings.Repeat("a", 255)}).Expect(201)
	})
	t.Run("an absent page is 404", func(t *testing.T) {
		e.Patch(e.Admin, crPath(sp, cr)+"/pages/nope", map[string]any{"title": "x"}).Expect(404)
	})
}

func TestChangeRequestMerge(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)

	t.Run("non-overlapping change requests both land", func(t *testing.T) {
		sp, head := crSpace(t, e)
		a := newChangeRequest(t, e, e.Admin, sp, "a")
		b := newChangeRequest(t, e, e.Admin, sp, "b")
		editPage(t, e, sp, a, "p1", map[string]any{"markdown": "First paragraph, edited.\n\nSecond paragraph.\n"})
		editPage(t, e, sp, b, "p2", map[string]any{"title": "Deux"})

		r := e.Post(e.Admin, crPath(sp, a)+"/merge", nil).Expect(200)
		if r.Str("result") != "merge" || r.Str("revision") == head || headOf(e, sp) != r.Str("revision") {
			t.Fatalf("merge answered %v", r.Map())
		}
		got := e.Get(e.Admin, crPath(sp, a)).Expect(200)
		if got.Str("status") != "merged" || got.Str("revisionMerged") != r.Str("revision") {
			t.Errorf("merged change request %v", got.Map())
		}
		if !e.Get(e.Admin, crPath(sp, b)).Expect(200).Bool("outdated") {
			t.Error("b is not outdated after a merged")
		}

		u := e.Post(e.Admin, crPath(sp, b)+"/update", nil).Expect(200)
		bAfter := e.Get(e.Admin, crPath(sp, b)).Expect(200)
		if u.Str("result") != "update" || bAfter.Bool("outdated") || bAfter.Str("revisionMergedAncestor") != headOf(e, sp) ||
			bAfter.Str("revision") != u.Str("revision") {
			t.Errorf("update answered %v, change request %v", u.Map(), bAfter.Map())
		}
		if pageAt(e, sp, u.Str("revision"), "p1").Expect(200).Str("markdown") != "First paragraph, edited.\n\nSecond paragraph.\n" {
			t.Error("the update did not bring a's edit into b")
		}

		e.Post(e.Admin, crPath(sp, b)+"/merge", nil).Expect(200)
		if pageAt(e, sp, "", "p1").Expect(200).Str("markdown") != "First paragraph, edited.\n\nSecond paragraph.\n" ||
			pageAt(e, sp, "", "p2").Expect(200).Str("title") != "Deux" {
			t.Error("the head lacks one of the edits")
		}
	})

	t.Run("a merged change request refuses more changes", func(t *testing.T) {
		sp, _ := crSpace(t, e)
		a := newChangeRequest(t, e, e.Admin, sp, "a")
		e.Post(e.Admin, crPath(sp, a)+"/merge", nil).Expect(200)
		head := headOf(e, sp)
		e.Post(e.Admin, crPath(sp, a)+"/merge", nil).Expect(409)
		e.Post(e.Admin, crPath(sp, a)+"/update", nil).Expect(409)
		e.Patch(e.Admin, crPath(sp, a), map[string]any{"status": "open"}).Expect(409)
		e.Patch(e.Admin, crPath(sp, a)+"/pages/p1", map[string]any{"title": "x"}).Expect(409)
		if headOf(e, sp) != head || e.Get(e.Admin, crPath(sp, a)).Expect(200).Str("status") != "merged" {
			t.Error("a refused change wrote something")
		}
	})

	t.Run("the same paragraph edited twice conflicts, naming the page, and writes nothing", func(t *testing.T) {
		sp, _ := crSpace(t, e)
		a := newChangeRequest(t, e, e.Admin, sp, "a")
		b := newChangeRequest(t, e, e.Admin, sp, "b")
		editPage(t, e, sp, a, "p1", map[string]any{"markdown": "First paragraph, by a.\n\nSecond paragraph.\n"})
		bRev := editPage(t, e, sp, b, "p1", map[string]any{"markdown": "First paragraph, by b.\n\nSecond paragraph.\n"})
		e.Post(e.Admin, crPath(sp, a)+"/merge", nil).Expect(200)
		head := headOf(e, sp)

		e.Post(e.Admin, crPath(sp, b)+"/merge", nil).Expect(409).ExpectMessage("p1")
		e.Post(e.Admin, crPath(sp, b)+"/update", nil).Expect(409).ExpectMessage("p1")
		got := e.Get(e.Admin, crPath(sp, b)).Expect(200)
		if headOf(e, sp) != head || got.Str("status") != "open" || got.Str("revision") != bRev || got.Has("revisionMergedAncestor") {
			t.Errorf("a conflict wrote something: head moved %v, change request %v", headOf(e, sp) != head, got.Map())
		}
		if pageAt(e, sp, "", "p1").Expect(200).Str("markdown") != "First paragraph, by a.\n\nSecond paragraph.\n" {
			t.Error("the head's page changed")
		}
	})

	t.Run("racing merges lose no change", func(t *testing.T) {
		sp, _ := crSpace(t, e)
		a := newChangeRequest(t, e, e.Admin, sp, "a")
		b := newChangeRequest(t, e, e.Admin, sp, "b")
		editPage(t, e, sp, a, "p1", map[string]any{"title": "Uno"})
		editPage(t, e, sp, b, "p2", map[string]any{"title": "Deux"})
		statuses := make([]int, 2)
		var wg sync.WaitGroup
		for i, cr := range []string{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = e.Post(e.Admin, crPath(sp, cr)+"/merge", nil).Status
			}()
		}
		wg.Wait()
		for i, cr := range []string{a, b} {
			if statuses[i] == 409 {
				e.Post(e.Admin, crPath(sp, cr)+"/merge", nil).Expect(200)
			} else if statuses[i] != 200 {
				t.Fatalf("merge answered %d", statuses[i])
			}
		}
		if pageAt(e, sp, "", "p1").Expect(200).Str("title") != "Uno" || pageAt(e, sp, "", "p2").Expect(200).Str("title") != "Deux" {
			t.Error("a merged change was lost")
		}
	})
}

func TestChangeRequestEditAccess(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp, head := crSpace(t, e)
	cr := newChangeRequest(t, e, e.Admin, sp, "a")
	reader := e.Member("reader", auth.Read)
	grant(t, e, e.Admin, "/v1/spaces/"+sp, "read", []string{reader.ID}, nil)
	outsider := e.NewUser("outsider")
	writes := []struct{ method, path string }{
		{"POST", crPath(sp, cr) + "/pages"}, {"PATCH", crPath(sp, cr) + "/pages/p1"}, {"DELETE", crPath(sp, cr) + "/pages/p1"},
		{"POST", crPath(sp, cr) + "/update"}, {"POST", crPath(sp, cr) + "/merge"},
	}
	body := map[string]any{"title": "x"}
	check := func(t *testing.T, a apitest.Actor, status int) {
		for _, w := range writes {
			var b any
			if w.method != "DELETE" && !strings.HasSuffix(w.path, "/update") && !strings.HasSuffix(w.path, "/merge") {
				b = body
			}
			e.Do(a, w.method, w.path, b).Expect(status)
		}
		got := e.Get(e.Admin, crPath(sp, cr)).Expect(200)
		if headOf(e, sp) != head || got.Str("revision") != head || got.Str("status") != "open" {
			t.Errorf("a refused write changed something: %v", got.Map())
		}
	}
	t.Run("a reader gets 403", func(t *testing.T) { check(t, reader, 403) })
	t.Run("an outsider gets 404", func(t *testing.T) { check(t, outsider, 404) })
	t.Run("a locked space answers 409", func(t *testing.T) {
		e.Patch(e.Admin, "/v1/spaces/"+sp, map[string]any{"editMode": "locked"}).Expect(200)
		check(t, e.Admin, 409)
		e.Patch(e.Admin, "/v1/spaces/"+sp, map[string]any{"editMode": "live"}).Expect(200)
		e.Post(e.Admin, crPath(sp, cr)+"/pages", body).Expect(201)
	})
}

func TestChangeRequestOnDuplicatedSpace(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	src, _ := crSpace(t, e)
	dup := e.Post(e.Admin, "/v1/spaces/"+src+"/duplicate", nil).Expect(201).Str("id")
	// The duplicate's head is its source's revision, made in the other space.
	cr := newChangeRequest(t, e, e.Admin, dup, "on a duplicate")
	replaceContent(t, e, e.Admin, dup, newTreeBuilder().
		doc("p1", "", "One", "one", "First paragraph.\n\nSecond paragraph.\n").
		doc("p2", "", "Two", "two", "Two's text.\n").
		doc("p3", "", "Three", "three", "New.\n").tree)

	t.Run("update and merge work from an inherited revision", func(t *testing.T) {
		e.Post(e.Admin, crPath(dup, cr)+"/update", nil).Expect(200)
		editPage(t, e, dup, cr, "p2", map[string]any{"title": "Deux"})
		e.Post(e.Admin, crPath(dup, cr)+"/merge", nil).Expect(200)
		if pageAt(e, dup, "", "p2").Expect(200).Str("title") != "Deux" || pageAt(e, dup, "", "p3").Expect(200).Str("title") != "Three" {
			t.Error("the merge lost a change")
		}
	})
}
