package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/app"
	"docsd/internal/clock"
	"docsd/internal/config"
	"docsd/internal/store"
)

// startApp opens and serves the program on cfg's database, as apitest does, and returns its
// stop, which the test calls to stop it early (a second call does nothing).
func startApp(t *testing.T, cfg config.Config, clk *clock.Fake) (*app.App, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.Open(ctx, cfg, app.Options{Clock: clk})
	if err != nil {
		cancel()
		t.Fatalf("open app: %v", err)
	}
	if err := a.Listen(); err != nil {
		cancel()
		a.Close()
		t.Fatalf("listen: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		<-done
		a.Close()
	}
	t.Cleanup(stop)
	return a, stop
}

// Migration 00275 on a database made before 00160: revisions written then have no
// space_documents rows, and once the database is migrated up, getDocumentById answers
// their documents (those of past revisions and of an open change request). The database is
// brought to the schema before 00160 by reverting the migrations above it, which drops
// space_documents and so every record of the documents written.
func TestMigrationBackfillsDocumentsOfAnOlderDatabase(t *testing.T) {
	t.Parallel()
	const before00160 = 130 // the newest migration before 00160
	cfg := config.Defaults()
	cfg.Addr, cfg.DataDir, cfg.DatabaseURL, cfg.FetchAllowPrivate = "127.0.0.1:0", t.TempDir(), apitest.DatabaseURL(t), true
	cfg.RateLimitToken, cfg.RateLimitAddress, cfg.RateLimitExpensive = 1e9, 1e9, 1e9
	clk := clock.NewFake()

	first, stop := startApp(t, cfg, clk)
	e := apitest.Attach(t, first, apitest.Actor{}, "")
	e.Clock = clk
	e.Admin = e.NewUser("admin")
	e.Org = e.NewOrg(e.Admin, "Older Organization")
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, map[string]string{
		"README.md":  "# Home\n\nWelcome.\n",
		"SUMMARY.md": "# Summary\n\n* [Home](README.md)\n* [Guide](guide.md)\n",
		"guide.md":   "# Guide\n\nOld text.\n",
	})).Expect(201)
	guide := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200).Str("pages.1.id")
	old := documentIDOf(e, sp, "", guide)
	merged := newChangeRequest(t, e, e.Admin, sp, "New text")
	editPage(t, e, sp, merged, guide, map[string]any{"markdown": "New text.\n"})
	e.Post(e.Admin, crPath(sp, merged)+"/merge", nil).Expect(200)
	draftCR := newChangeRequest(t, e, e.Admin, sp, "Draft")
	draftRev := editPage(t, e, sp, draftCR, guide, map[string]any{"markdown": "Draft text.\n"})
	draft := documentIDOf(e, sp, draftRev, guide)
	e.RunDue()
	stop()

	ctx := t.Context()
	db, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.MigrateTo(ctx, before00160); err != nil {
		db.Close()
		t.Fatal(err)
	}
	v, err := db.SchemaVersion(ctx)
	var revisions int
	if err == nil {
		err = db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM revisions WHERE space_id = ?`, sp).Scan(&revisions)
	}
	_, noTable := db.Read().Exec(ctx, `SELECT 1 FROM space_documents`)
	db.Close()
	if err != nil || v != before00160 || revisions < 3 || noTable == nil {
		t.Fatalf("at the older schema: version %d, %d revisions of the space, space_documents readable: %v (%v)", v, revisions, noTable == nil, err)
	}

	// The current program migrates it up (00160, then 00275 queues the backfill) and runs it.
	second, _ := startApp(t, cfg, clk)
	e2 := apitest.Attach(t, second, e.Admin, e.Org)
	e2.Clock = clk
	if v, err := second.DB.SchemaVersion(ctx); err != nil || v < 275 {
		t.Fatalf("migrated up to %d (%v)", v, err)
	}
	e2.RunDue()
	docs := "/v1/spaces/" + sp + "/documents/"
	for id, want := range map[string]string{old: "Old text.", draft: "Draft text."} {
		doc := e2.Get(e2.Admin, docs+id).Expect(200)
		if !strings.Contains(string(doc.Body), want) {
			t.Errorf("document %s: %s, want %q", id, doc.Body, want)
		}
	}
	if doc := e2.Get(e2.Admin, docs+documentIDOf(e2, sp, "", guide)).Expect(200); !strings.Contains(string(doc.Body), "New text.") {
		t.Errorf("the head's document: %s", doc.Body)
	}
	e2.Get(e2.NewUser("stranger"), docs+old).ExpectError(404)
}
