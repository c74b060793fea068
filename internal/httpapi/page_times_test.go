package httpapi_test

import (
	"testing"
	"time"

	"docsd/internal/apitest"
)

// pageTimes reads a page's createdAt and updatedAt ("" when absent) at a content base (the
// head's /content, a /revisions/{id}, or a change request's /content) in every read that
// shows the page: by id in both formats, by path, in the pages tree and in the revision. It
// fails the test when the reads disagree or the page is missing.
func pageTimes(t *testing.T, e *apitest.Env, base, pageID string) (created, updated string) {
	t.Helper()
	type times struct{ created, updated string }
	of := func(v any) times {
		m, _ := v.(map[string]any)
		c, _ := m["createdAt"].(string)
		u, _ := m["updatedAt"].(string)
		return times{c, u}
	}
	var find func(pages []any) (map[string]any, bool)
	find = func(pages []any) (map[string]any, bool) {
		for _, p := range pages {
			m := p.(map[string]any)
			if m["id"] == pageID {
				return m, true
			}
			if sub, ok := m["pages"].([]any); ok {
				if found, ok := find(sub); ok {
					return found, true
				}
			}
		}
		return nil, false
	}
	byID := e.Get(e.Admin, base+"/page/"+pageID+"?format=markdown").Expect(200).Map()
	want := of(byID)
	reads := map[string]any{"document": e.Get(e.Admin, base+"/page/"+pageID).Expect(200).Map()}
	if path, ok := byID["path"].(string); ok {
		reads["by path"] = e.Get(e.Admin, base+"/path/"+path).Expect(200).Map()
	}
	for name, list := range map[string]any{
		"pages tree": e.Get(e.Admin, base+"/pages").Expect(200).Map()["pages"],
		"revision":   e.Get(e.Admin, base).Expect(200).Map()["pages"],
	} {
		p, ok := find(list.([]any))
		if !ok {
			t.Fatalf("%s: page %s missing from the %s", base, pageID, name)
		}
		reads[name] = p
	}
	for name, r := range reads {
		if got := of(r); got != want {
			t.Fatalf("%s: page %s: the %s read shows %+v, the markdown read %+v", base, pageID, name, got, want)
		}
	}
	return want.created, want.updated
}

// expectPageTimes checks a page's times at a content base ("" for absent).
func expectPageTimes(t *testing.T, e *apitest.Env, base, pageID, created, updated string) {
	t.Helper()
	c, u := pageTimes(t, e, base, pageID)
	if c != created || u != updated {
		t.Fatalf("%s: page %s: createdAt %q, updatedAt %q; want %q, %q", base, pageID, c, u, created, updated)
	}
}

// apiTime renders a time as the API does.
func apiTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// pageIDAt reads the id of the page at a path of the head.
func pageIDAt(e *apitest.Env, spaceID, path string) string {
	return e.Get(e.Admin, "/v1/spaces/"+spaceID+"/content/path/"+path).Expect(200).Str("id")
}

func TestPageTimes(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	head := "/v1/spaces/" + sp + "/content"
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, docsTree())).Expect(201)
	install, writing, start := pageIDAt(e, sp, "start/install"), pageIDAt(e, sp, "guides/writing"), pageIDAt(e, sp, "start")

	// Each step happens a minute after the last, at a known time (milliseconds included, to
	// see that they survive storage).
	at := time.Now().UTC().Truncate(time.Second).Add(time.Hour + 123*time.Millisecond)
	step := func() string {
		at = at.Add(time.Minute)
		e.Clock.Set(at)
		return apiTime(at)
	}

	t.Run("imported pages that were never edited have neither time", func(t *testing.T) {
		for _, id := range []string{install, writing, start} {
			expectPageTimes(t, e, head, id, "", "")
		}
	})

	cr := newChangeRequest(t, e, e.Admin, sp, "times")
	crContent := crPath(sp, cr) + "/content"
	var added, createdAt, titledAt, firstEdit string
	t.Run("a page created through an edit gets both times", func(t *testing.T) {
		createdAt = step()
		r := e.Post(e.Admin, crPath(sp, cr)+"/pages", map[string]any{"title": "Upgrade", "markdown": "Upgrade it.\n", "parent": start}).Expect(201)
		added = r.Str("page")
		expectPageTimes(t, e, crContent, added, createdAt, createdAt)
		expectPageTimes(t, e, "/v1/spaces/"+sp+"/revisions/"+r.Str("revision"), added, createdAt, createdAt)
	})
	t.Run("the first edit of an imported page sets both times", func(t *testing.T) {
		titledAt = step()
		editPage(t, e, sp, cr, install, map[string]any{"title": "Installation"})
		expectPageTimes(t, e, crContent, install, titledAt, titledAt)
		expectPageTimes(t, e, head, install, "", "") // the head is untouched
	})
	t.Run("every later edit sets updatedAt: markdown, move, emoji", func(t *testing.T) {
		firstEdit = createdAt
		for _, body := range []map[string]any{
			{"markdown": "Upgrade it carefully.\n"},
			{"parent": start, "position": 0},
			{"emoji": "1f680"},
		} {
			edited := step()
			editPage(t, e, sp, cr, added, body)
			expectPageTimes(t, e, crContent, added, firstEdit, edited)
		}
		// Pages the edits did not touch keep their times.
		expectPageTimes(t, e, crContent, install, titledAt, titledAt)
		expectPageTimes(t, e, crContent, writing, "", "")
	})
	_, addedUpdated := pageTimes(t, e, crContent, added)

	t.Run("a merge carries the change request's times into the head", func(t *testing.T) {
		step()
		e.Post(e.Admin, crPath(sp, cr)+"/merge", nil).Expect(200)
		expectPageTimes(t, e, head, added, createdAt, addedUpdated)
		expectPageTimes(t, e, head, install, titledAt, titledAt)
		expectPageTimes(t, e, head, writing, "", "")
		rev := e.Get(e.Admin, "/v1/spaces/"+sp).Expect(200).Str("revision")
		expectPageTimes(t, e, "/v1/spaces/"+sp+"/revisions/"+rev, added, createdAt, addedUpdated)
	})

	t.Run("a three-way merge keeps each side's times, and the earliest creation and latest edit of a page both edited", func(t *testing.T) {
		a := newChangeRequest(t, e, e.Admin, sp, "a")
		b := newChangeRequest(t, e, e.Admin, sp, "b")
		aTitled := step()
		editPage(t, e, sp, a, writing, map[string]any{"title": "Writing well"})
		aAdded := step()
		editPage(t, e, sp, a, added, map[string]any{"description": "How to upgrade"})
		bEdited := step()
		editPage(t, e, sp, b, writing, map[string]any{"markdown": "# Writing\n\nWrite **clearly**.\n"})
		bInstall := step()
		editPage(t, e, sp, b, install, map[string]any{"title": "Installation"}) // the title it already has
		step()
		e.Post(e.Admin, crPath(sp, b)+"/merge", nil).Expect(200)
		expectPageTimes(t, e, head, install, titledAt, bInstall)

		// a's merge base is no longer the head: its update and its merge are real merges.
		step()
		e.Post(e.Admin, crPath(sp, a)+"/update", nil).Expect(200)
		aContent := crPath(sp, a) + "/content"
		expectPageTimes(t, e, aContent, writing, aTitled, bEdited)
		expectPageTimes(t, e, aContent, added, createdAt, aAdded)
		expectPageTimes(t, e, aContent, install, titledAt, bInstall)
		step()
		e.Post(e.Admin, crPath(sp, a)+"/merge", nil).Expect(200)
		expectPageTimes(t, e, head, writing, aTitled, bEdited)
		expectPageTimes(t, e, head, added, createdAt, aAdded)
		if p := e.Get(e.Admin, head+"/page/"+writing+"?format=markdown").Expect(200); p.Str("title") != "Writing well" ||
			p.Str("markdown") != "Write **clearly**.\n" { // the "# Writing" line is b's title, as on import
			t.Fatalf("merged page: %v", p.Map())
		}

		// A merge whose head moved since the change request began: the times of a page only
		// the head changed, and of one only the change request changed (by an edit that set
		// what it already had), both survive.
		c := newChangeRequest(t, e, e.Admin, sp, "c")
		d := newChangeRequest(t, e, e.Admin, sp, "d")
		cEdited := step()
		editPage(t, e, sp, c, start, map[string]any{"description": "Begin here"})
		dEdited := step()
		editPage(t, e, sp, d, install, map[string]any{"title": "Installation"})
		step()
		e.Post(e.Admin, crPath(sp, c)+"/merge", nil).Expect(200)
		step()
		e.Post(e.Admin, crPath(sp, d)+"/merge", nil).Expect(200)
		expectPageTimes(t, e, head, start, cEdited, cEdited)
		expectPageTimes(t, e, head, install, titledAt, dEdited)
	})

	t.Run("a duplicate shows the same times", func(t *testing.T) {
		dup := e.Post(e.Admin, "/v1/spaces/"+sp+"/duplicate", nil).Expect(201).Str("id")
		for _, id := range []string{added, install, writing, start} {
			c, u := pageTimes(t, e, head, id)
			expectPageTimes(t, e, "/v1/spaces/"+dup+"/content", id, c, u)
		}
	})

	t.Run("a re-import makes itself the last edit of the edited pages it changes, and keeps the times of those it leaves", func(t *testing.T) {
		installCreated, _ := pageTimes(t, e, head, install)
		imported := step()
		e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, docsTree())).Expect(201)
		if got := pageIDAt(e, sp, "start/install"); got != install {
			t.Fatalf("the re-import gave install the id %s, want %s", got, install)
		}
		if got := e.Get(e.Admin, head+"/page/"+install).Expect(200).Str("title"); got != "Install" {
			t.Fatalf("the re-import left install titled %q", got)
		}
		expectPageTimes(t, e, head, install, installCreated, imported)
		expectPageTimes(t, e, head, e.Get(e.Admin, head+"/pages").Expect(200).Str("pages.0.id"), "", "") // the home page

		records := countObjects(t, e, "page")
		step()
		e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, docsTree())).Expect(201)
		expectPageTimes(t, e, head, install, installCreated, imported)
		if got := countObjects(t, e, "page"); got != records {
			t.Fatalf("importing the same tree again wrote %d page records", got-records)
		}
	})
}
