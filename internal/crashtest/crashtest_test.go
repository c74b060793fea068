package crashtest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/buildbin"
	"docsd/internal/childserver"
	"docsd/internal/store"
)

// buildDocsd compiles the server once for the tests of this package.
func buildDocsd(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds docsd and runs it as a child process")
	}
	bin, err := buildbin.Docsd(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// A queued import whose job is running when the server is killed completes within seconds
// of the restart: the new process takes over the job of the dead one instead of waiting
// for its lease to run out.
func TestQueuedImportCompletesAfterKillMidJob(t *testing.T) {
	bin := buildDocsd(t)
	ctx := t.Context()
	dir := t.TempDir()
	dataDir := filepath.Join(dir, "data")
	dbURL := filepath.Join(dataDir, "docsd.db")
	if apitest.PostgresURL() != "" {
		dbURL = apitest.DatabaseURL(t)
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	const pages = 1500
	opts := childserver.Options{Bin: bin, DataDir: dataDir, DatabaseURL: dbURL, LogPath: filepath.Join(dir, "docsd.log"),
		Env: []string{"DOCSD_LOG_LEVEL=warn", "DOCSD_IMPORT_SYNC_PAGES=10"}}
	srv, err := childserver.Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Kill() }()
	c := newClient(srv.Base, srv.Token)
	var orgs struct{ Items []idOnly }
	if err := c.send(ctx, "GET", "/v1/orgs", nil, 200, &orgs); err != nil || len(orgs.Items) == 0 {
		t.Fatalf("organizations: %v", err)
	}
	var sp idOnly
	if err := c.send(ctx, "POST", "/v1/orgs/"+orgs.Items[0].ID+"/spaces", map[string]any{"title": "import"}, 201, &sp); err != nil {
		t.Fatal(err)
	}
	body, err := archive("killed mid-job", pages)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.call(ctx, "POST", "/v1/spaces/"+sp.ID+"/content/import", "application/gzip", body, 202); err != nil {
		t.Fatal(err)
	}

	// Watch the jobs table from outside, and kill the server once the import's job runs.
	db, err := store.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		jobs, err := db.JobsOfKind(ctx, "space.git-import")
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) == 1 && jobs[0].State == store.JobRunning {
			break
		}
		if len(jobs) == 1 && jobs[0].State == store.JobDone || time.Now().After(deadline) {
			t.Fatalf("the import's job was never seen running: %+v", jobs)
		}
		time.Sleep(2 * time.Millisecond)
	}
	srv.Kill()
	p := pendingImport{space: sp.ID, pages: pages}
	c.base = "" // nothing answers until the restart
	srv, err = childserver.Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	ready := time.Now()
	c.base = srv.Base
	late, took := awaitImports(ctx, c, []pendingImport{p}, ready, 15*time.Second)
	if len(late) > 0 {
		jobs, _ := db.JobsOfKind(ctx, "space.git-import")
		t.Fatalf("the import killed mid-job was not complete %v after the restart: %+v", took, jobs)
	}
	jobs, err := db.JobsOfKind(ctx, "space.git-import")
	if err != nil || len(jobs) != 1 || jobs[0].State != store.JobDone || jobs[0].Attempts != 2 {
		t.Fatalf("import job after the restart: %+v (%v), want done on its second attempt", jobs, err)
	}
	t.Logf("%s: the import killed mid-job completed %v after the restart", apitest.Engine(), took.Round(time.Millisecond))
	srv.Stop()
}
