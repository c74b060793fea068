package httpapi_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"docsd/internal/apitest"
)

// changeSummary lists a changes answer as "type id" lines (pages by id, files by id).
func changeSummary(t *testing.T, r *apitest.Resp) []string {
	t.Helper()
	var out []string
	for _, c := range r.Map()["changes"].([]any) {
		m := c.(map[string]any)
		id := ""
		if p, ok := m["page"].(map[string]any); ok {
			id = p["id"].(string)
		} else {
			id = m["file"].(map[string]any)["id"].(string)
		}
		out = append(out, m["type"].(string)+" "+id)
	}
	return out
}

func TestSemanticChanges(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	first, _ := replaceContent(t, e, e.Admin, sp, newTreeBuilder().
		doc("p1", "", "One", "one", "First.\n").
		doc("p2", "", "Two", "two", "Second.\n").
		doc("p3", "", "Three", "three", "Third.\n").
		file(t, e, "f1", "a.png", "image/png", []byte("one image")).
		file(t, e, "f2", "b.txt", "text/plain", []byte("some text")).tree)
	second, _ := replaceContent(t, e, e.Admin, sp, newTreeBuilder().
		doc("p1", "", "One renamed", "one", "First, edited.\n").
		doc("p2", "p1", "Two", "two", "Second.\n").
		doc("p4", "", "Four", "four", "Fourth.\n").
		file(t, e, "f1", "a.png", "image/png", []byte("another image")).
		file(t, e, "f3", "c.txt", "text/plain", []byte("new")).tree)
	revPath := func(rev string) string { return "/v1/spaces/" + sp + "/revisions/" + rev + "/changes" }

	t.Run("a revision against its parent: every kind of change, each once", func(t *testing.T) {
		r := e.Get(e.Admin, revPath(second.ID)).Expect(200)
		schemaChecker(t, loadOpenAPI(t))("RevisionSemanticChanges", r.Map())
		want := []string{"page_created p4", "page_edited p1", "page_moved p2", "page_deleted p3",
			"file_created f3", "file_edited f1", "file_deleted f2"}
		if got := changeSummary(t, r); !slices.Equal(got, want) || r.Has("more") || r.Has("mergedFrom") {
			t.Fatalf("got %v\n%s", got, r.Body)
		}
		var body struct {
			Changes []map[string]json.RawMessage `json:"changes"`
		}
		r.JSON(&body)
		edited := map[string]map[string]string{}
		json.Unmarshal(body.Changes[1]["attributes"], &edited)
		if edited["title"]["before"] != "One" || edited["title"]["after"] != "One renamed" || edited["document"]["before"] == edited["document"]["after"] {
			t.Errorf("page_edited attributes %v", edited)
		}
		if _, ok := edited["slug"]; ok {
			t.Errorf("an unchanged slug is listed: %v", edited)
		}
		if p := r.Str("changes.2.parent.after.id"); p != "p1" || r.Str("changes.2.parent.after.title") != "One renamed" || r.Has("changes.2.parent.before") {
			t.Errorf("page_moved parent %s", string(body.Changes[2]["parent"]))
		}
		if r.Str("changes.2.page.path") != "one/two" || r.Str("changes.0.page.path") != "four" || r.Str("changes.3.page.path") != "three" {
			t.Errorf("paths: moved %q, created %q, deleted %q", r.Str("changes.2.page.path"), r.Str("changes.0.page.path"), r.Str("changes.3.page.path"))
		}
		if r.Str("changes.3.page.title") != "Three" || r.Str("changes.3.page.type") != "document" {
			t.Errorf("page_deleted shows the page as it was: %s", string(body.Changes[3]["page"]))
		}
		if url := r.Str("changes.6.file.downloadURL"); !strings.Contains(url, "/revisions/"+first.ID+"/files/f2/download") {
			t.Errorf("a deleted file downloads from the revision that had it: %s", url)
		}
		if r.Num("changes.5.attributes.size.before") != 9 || r.Num("changes.5.attributes.size.after") != 13 {
			t.Errorf("file_edited %s", string(body.Changes[5]["attributes"]))
		}
		// The download URL of a created file serves its bytes.
		if b := e.Get(e.Admin, strings.TrimPrefix(r.Str("changes.4.file.downloadURL"), e.URL)).Expect(200).Body; string(b) != "new" {
			t.Errorf("downloaded %q", b)
		}
	})
	t.Run("past the limit, more counts what is left out", func(t *testing.T) {
		r := e.Get(e.Admin, revPath(second.ID)+"?limit=3").Expect(200)
		if got := changeSummary(t, r); len(got) != 3 || r.Num("more") != 4 {
			t.Fatalf("%v more=%v", got, r.Num("more"))
		}
		if r := e.Get(e.Admin, revPath(second.ID)+"?limit=0").Expect(200); len(changeSummary(t, r)) != 0 || r.Num("more") != 7 {
			t.Fatalf("%s", r.Body)
		}
	})
	t.Run("the first revision of a space created everything", func(t *testing.T) {
		got := changeSummary(t, e.Get(e.Admin, revPath(first.ID)).Expect(200))
		if len(got) != 5 || got[0] != "page_created p1" || got[4] != "file_created f2" {
			t.Fatalf("%v", got)
		}
	})
	t.Run("a change request's changes over its merge base, and the merge names it", func(t *testing.T) {
		cr := newChangeRequest(t, e, e.Admin, sp, "Edit four")
		e.Patch(e.Admin, crPath(sp, cr)+"/pages/p4", map[string]any{"markdown": "Fourth, edited.\n"}).Expect(200)
		e.Delete(e.Admin, crPath(sp, cr)+"/pages/p2").Expect(204)
		r := e.Get(e.Admin, crPath(sp, cr)+"/changes").Expect(200)
		if got := changeSummary(t, r); !slices.Equal(got, []string{"page_edited p4", "page_deleted p2"}) {
			t.Fatalf("%v", got)
		}
		merged := e.Post(e.Admin, crPath(sp, cr)+"/merge", nil).Expect(200).Str("revision")
		m := e.Get(e.Admin, revPath(merged)).Expect(200)
		if m.Str("mergedFrom.id") != cr || m.Str("mergedFrom.object") != "change-request" {
			t.Errorf("mergedFrom %s", m.Body)
		}
		if got := changeSummary(t, m); !slices.Equal(got, []string{"page_edited p4", "page_deleted p2"}) {
			t.Errorf("the merge revision's changes %v", got)
		}
	})
	t.Run("bad input and access", func(t *testing.T) {
		e.Get(e.Admin, revPath(second.ID)+"?limit=x").ExpectError(400).ExpectMessage("limit")
		e.Get(e.Admin, revPath(second.ID)+"?limit=1001").ExpectError(400).ExpectMessage("limit", "1000")
		e.Get(e.Admin, revPath(second.ID)+"?metadata=maybe").ExpectError(400).ExpectMessage("metadata")
		e.Get(e.Admin, revPath("nosuchrevision")).ExpectError(404)
		e.Get(e.NewUser("outsider"), revPath(second.ID)).ExpectError(404)
		e.Get(e.Admin, crPath(sp, "999")+"/changes").ExpectError(404)
		other := newSpace(t, e, e.Admin, e.Org, nil)
		e.Get(e.Admin, "/v1/spaces/"+other+"/revisions/"+second.ID+"/changes").ExpectError(404)
	})
}
