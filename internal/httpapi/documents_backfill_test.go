package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/content"
	"docsd/internal/store"
)

// Revisions made before migration 00160 have no space_documents rows; the backfill job that
// migration 00275 queues records them, so getDocumentById finds their documents again.
func TestBackfillOfDocumentsOfOldRevisions(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, map[string]string{
		"README.md":  "# Home\n\nWelcome.\n",
		"SUMMARY.md": "# Summary\n\n* [Home](README.md)\n* [Guide](guide.md)\n",
		"guide.md":   "# Guide\n\nOld text.\n",
	})).Expect(201)
	guide := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200).Str("pages.1.id")
	old := documentIDOf(e, sp, "", guide)
	cr := newChangeRequest(t, e, e.Admin, sp, "New text")
	editPage(t, e, sp, cr, guide, map[string]any{"markdown": "New text.\n"})
	e.Post(e.Admin, crPath(sp, cr)+"/merge", nil).Expect(200)
	docs := "/v1/spaces/" + sp + "/documents/"

	// As before 00160: nothing recorded for the space.
	err := e.App.DB.Write(t.Context(), e.Clock.Now(), func(q *store.Q) error {
		_, err := q.Exec(t.Context(), `DELETE FROM space_documents WHERE space_id = ?`, sp)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	e.Get(e.Admin, docs+old).ExpectError(404)

	for run := range 2 { // a second run is harmless
		if err := e.App.Jobs.Enqueue(t.Context(), content.BackfillDocumentsJob, struct{}{}, e.Clock.Now(), ""); err != nil {
			t.Fatal(err)
		}
		e.RunDue()
		doc := e.Get(e.Admin, docs+old).Expect(200)
		if !strings.Contains(string(doc.Body), "Old text.") || strings.Contains(string(doc.Body), "New text.") {
			t.Errorf("run %d: document %s", run, doc.Body)
		}
		e.Get(e.NewUser("stranger"), docs+old).ExpectError(404)
	}
}
