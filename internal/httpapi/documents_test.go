package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
)

// documentIDOf reads a page's documentId at a revision ("" for the head).
func documentIDOf(e *apitest.Env, spaceID, rev, pageID string) string {
	base := "/v1/spaces/" + spaceID + "/content"
	if rev != "" {
		base = "/v1/spaces/" + spaceID + "/revisions/" + rev
	}
	return e.Get(e.Admin, base+"/page/"+pageID).Expect(200).Str("documentId")
}

func TestGetDocumentByIDAnswersTheRevisionItBelongsTo(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, map[string]string{
		"README.md":                  "# Home\n\nWelcome.\n",
		"SUMMARY.md":                 "# Summary\n\n* [Home](README.md)\n* [Guide](guide.md)\n* [Empty](empty.md)\n",
		"guide.md":                   "# Guide\n\nFirst text.\n\n{% include \".gitbook/includes/note.md\" %}\n",
		"empty.md":                   "# Empty\n",
		".gitbook/includes/note.md":  "Note of the first revision.\n",
		".gitbook/includes/other.md": "Unused.\n",
	})).Expect(201)
	pages := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200)
	guide, empty := pages.Str("pages.1.id"), pages.Str("pages.2.id")
	docs := "/v1/spaces/" + sp + "/documents/"
	first := documentIDOf(e, sp, "", guide)
	if first == "" {
		t.Fatalf("a page with text has no documentId: %s", pages.Body)
	}

	t.Run("the current content's document, its include read in place", func(t *testing.T) {
		doc := e.Get(e.Admin, docs+first).Expect(200)
		checkDocument(t, doc.Body)
		if !strings.Contains(string(doc.Body), "First text.") || !strings.Contains(string(doc.Body), `"reusable-content"`) {
			t.Errorf("document: %s", doc.Body)
		}
	})
	t.Run("an empty page has no documentId", func(t *testing.T) {
		if p := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/page/"+empty).Expect(200); p.Has("documentId") {
			t.Errorf("page: %s", p.Body)
		}
	})

	cr := newChangeRequest(t, e, e.Admin, sp, "Second text")
	crRev := editPage(t, e, sp, cr, guide, map[string]any{"markdown": "Second text.\n"})
	second := documentIDOf(e, sp, crRev, guide)
	t.Run("a change request's document, before it is merged", func(t *testing.T) {
		if second == "" || second == first {
			t.Fatalf("documentId in the change request %q (first %q)", second, first)
		}
		if doc := e.Get(e.Admin, docs+second).Expect(200); !strings.Contains(string(doc.Body), "Second text.") {
			t.Errorf("document: %s", doc.Body)
		}
	})

	e.Post(e.Admin, crPath(sp, cr)+"/merge", nil).Expect(200)
	t.Run("a past revision's document, after the page changed", func(t *testing.T) {
		if documentIDOf(e, sp, "", guide) != second {
			t.Fatal("the merge did not bring the second text")
		}
		for name, env := range map[string]*apitest.Env{"this process": e, "another process": e.Peer()} {
			doc := env.Get(e.Admin, docs+first).Expect(200)
			if !strings.Contains(string(doc.Body), "First text.") || strings.Contains(string(doc.Body), "Second text.") {
				t.Errorf("%s: document %s", name, doc.Body)
			}
		}
	})

	t.Run("no other space's document, and nothing for who cannot read the space", func(t *testing.T) {
		other := newSpace(t, e, e.Admin, e.Org, nil)
		e.Upload(e.Admin, "POST", "/v1/spaces/"+other+"/content/import", "application/zip", zipOf(t, map[string]string{
			"README.md": "# Elsewhere\n\nOnly in the other space.\n"})).Expect(201)
		foreign := documentIDOf(e, other, "", e.Get(e.Admin, "/v1/spaces/"+other+"/content/pages").Expect(200).Str("pages.0.id"))
		e.Get(e.Admin, "/v1/spaces/"+other+"/documents/"+foreign).Expect(200)
		e.Get(e.Admin, docs+foreign).ExpectError(404)
		e.Get(e.Admin, docs+strings.Repeat("0", 64)).ExpectError(404)
		e.Get(e.NewUser("stranger"), docs+first).ExpectError(404)
		e.Get(e.Admin, docs+first+"?schema=old").ExpectError(400).ExpectMessage("schema")
	})
}
