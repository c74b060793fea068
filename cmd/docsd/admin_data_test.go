package main

import (
	"archive/zip"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/app"
	"docsd/internal/config"
)

// adminRun runs `docsd admin <args>` on the data of cfg and returns its stdout.
func adminRun(t *testing.T, cfg config.Config, args ...string) (string, string, error) {
	t.Helper()
	args = append([]string{"admin"}, args...)
	args = append(args, "--data-dir", cfg.DataDir, "--database-url", cfg.DatabaseURL)
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), args, func(string) string { return "" }, &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// importedSpace makes a space holding two pages with sections and an image file.
func importedSpace(t *testing.T, e *apitest.Env, word string) string {
	t.Helper()
	sp := e.Post(e.Admin, "/v1/orgs/"+e.Org+"/spaces", map[string]any{"title": word}).Expect(201).Str("id")
	tree := map[string]string{
		"README.md":                        "# " + word + "\n\nWelcome to " + word + ".\n\n![logo](.gitbook/assets/" + word + ".png)\n\n## Install " + word + "\n\nRun it.\n",
		"SUMMARY.md":                       "# Table of contents\n\n* [" + word + "](README.md)\n* [Guide](guide.md)\n",
		"guide.md":                         "# Guide\n\nHow " + word + " works.\n\n## Deploy\n\nShip " + word + ".\n",
		".gitbook/assets/" + word + ".png": "\x89PNG\r\n\x1a\n" + strings.Repeat(word, 50),
	}
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, tree)).Expect(201)
	if n := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/files").Expect(200).Num("count"); n != 1 {
		t.Fatalf("space %s holds %v files after its import, want 1", word, n)
	}
	return sp
}

// TestBackupWhileWritingRestoresEveryAcknowledgedWrite takes a backup while clients write
// through HTTP, restores it into a new data directory, serves it, and finds there every
// write acknowledged before the backup began; the copy passes check.
func TestBackupWhileWritingRestoresEveryAcknowledgedWrite(t *testing.T) {
	if apitest.PostgresURL() != "" {
		t.Skip("backup and restore copy SQLite; PostgreSQL is backed up with pg_dump (README)")
	}
	t.Parallel()
	e := apitest.New(t)
	sp := importedSpace(t, e, "alpha")

	type ack struct{ id, title string }
	var mu sync.Mutex
	var acked []ack
	stop := make(chan struct{})
	var writers sync.WaitGroup
	var writeErr error
	for w := range 4 {
		writers.Add(1)
		go func() {
			defer writers.Done()
			client := &http.Client{Timeout: 30 * time.Second}
			for i := 0; i < 5000; i++ {
				select {
				case <-stop:
					return
				default:
				}
				title := fmt.Sprintf("w%d-%d", w, i)
				body, _ := json.Marshal(map[string]any{"title": title})
				req, _ := http.NewRequest("POST", e.URL+"/v1/orgs/"+e.Org+"/spaces", bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+e.Admin.Token)
				req.Header.Set("Content-Type", "application/json")
				res, err := client.Do(req)
				if err != nil {
					mu.Lock()
					writeErr = err
					mu.Unlock()
					return
				}
				var got struct{ ID string }
				err = json.NewDecoder(res.Body).Decode(&got)
				res.Body.Close()
				if res.StatusCode != 201 || err != nil {
					mu.Lock()
					writeErr = fmt.Errorf("create space: %d %v", res.StatusCode, err)
					mu.Unlock()
					return
				}
				mu.Lock()
				acked = append(acked, ack{got.ID, title})
				mu.Unlock()
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	before := append([]ack(nil), acked...)
	mu.Unlock()
	dir := filepath.Join(t.TempDir(), "backup")
	_, stderr, err := adminRun(t, e.App.Config, "backup", "--to", dir)
	mu.Lock()
	during := len(acked) - len(before)
	mu.Unlock()
	close(stop)
	writers.Wait()
	if err != nil {
		t.Fatalf("backup: %v\n%s", err, stderr)
	}
	if writeErr != nil {
		t.Fatalf("a write failed while the backup ran: %v", writeErr)
	}
	if len(before) < 5 || during < 1 {
		t.Fatalf("%d writes acknowledged before the backup and %d during it: the test wants both", len(before), during)
	}
	t.Logf("%d writes acknowledged before the backup, %d while it ran; %s", len(before), during, strings.TrimSpace(stderr))

	// A second backup into the same directory is refused.
	if _, _, err := adminRun(t, e.App.Config, "backup", "--to", dir); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("backup into a non-empty directory: %v, want a refusal", err)
	}

	cfg := config.Defaults()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = filepath.Join(t.TempDir(), "restored")
	cfg.DatabaseURL = filepath.Join(cfg.DataDir, "docsd.db")
	if _, stderr, err := adminRun(t, cfg, "restore", "--from", dir); err != nil {
		t.Fatalf("restore: %v\n%s", err, stderr)
	}
	if _, _, err := adminRun(t, cfg, "restore", "--from", dir); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("restore over a restored data directory: %v, want a refusal naming --force", err)
	}
	if _, stderr, err := adminRun(t, cfg, "restore", "--from", dir, "--force"); err != nil {
		t.Fatalf("restore --force: %v\n%s", err, stderr)
	}
	if out, _, err := adminRun(t, cfg, "check"); err != nil || out != "" {
		t.Fatalf("check of the restored copy: %v\n%s", err, out)
	}

	// Serve the copy and read every acknowledged write back through the API.
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.Open(ctx, cfg, app.Options{})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := a.Listen(); err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx) }()
	t.Cleanup(func() { cancel(); <-done; a.Close() })
	r := apitest.Attach(t, a, e.Admin, e.Org)
	for _, w := range before {
		if got := r.Get(e.Admin, "/v1/spaces/"+w.id).Expect(200).Str("title"); got != w.title {
			t.Fatalf("restored space %s has title %q, want %q", w.id, got, w.title)
		}
	}
	files := r.Get(e.Admin, "/v1/spaces/"+sp+"/content/files").Expect(200)
	got := r.Get(e.Admin, strings.TrimPrefix(files.Str("items.0.downloadURL"), r.URL)).Expect(200)
	if want := "\x89PNG\r\n\x1a\n" + strings.Repeat("alpha", 50); string(got.Body) != want {
		t.Fatalf("the restored file holds %q, want %q", got.Body, want)
	}
}

// TestCheckFindsDamageAndRepairsWhatItCan damages a store in four ways (a blob's bytes, a
// deleted page record, a stale search index, a job whose worker is gone) and expects check
// to report each, and --repair to mend the index and the job and report the rest.
func TestCheckFindsDamageAndRepairsWhatItCan(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	broken := importedSpace(t, e, "broken")
	stale := importedSpace(t, e, "stale")
	e.RunDue() // the indexer catches up, so the stale index below is damage, not lag
	cfg := e.App.Config
	if out, _, err := adminRun(t, cfg, "check"); err != nil || out != "" {
		t.Fatalf("check of an undamaged store: %v\n%s", err, out)
	}

	dsn := cfg.DatabaseURL
	if apitest.PostgresURL() == "" {
		dsn = "file:" + dsn + "?_pragma=busy_timeout(10000)"
	}
	db, err := sql.Open(driverOf(cfg.DatabaseURL), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(query string, args ...any) {
		t.Helper()
		if apitest.PostgresURL() != "" {
			for i := 1; strings.Contains(query, "?"); i++ {
				query = strings.Replace(query, "?", fmt.Sprintf("$%d", i), 1)
			}
		}
		if _, err := db.Exec(query, args...); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}

	// The bytes of the broken space's image change on disk.
	file := e.Get(e.Admin, "/v1/spaces/"+broken+"/content/files").Expect(200).Items()[0]
	var blobHash string
	filepath.WalkDir(filepath.Join(cfg.DataDir, "blobs"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Base(filepath.Dir(path)) != "tmp" {
			if b, _ := os.ReadFile(path); bytes.Contains(b, []byte("brokenbroken")) {
				blobHash = filepath.Base(filepath.Dir(path)) + filepath.Base(path)
				os.WriteFile(path, []byte("rotten bytes"), 0o644)
			}
		}
		return nil
	})
	if blobHash == "" {
		t.Fatalf("found no blob of file %v", file["id"])
	}
	// The record of the broken space's guide page is deleted.
	guide := ""
	for _, p := range e.Get(e.Admin, "/v1/spaces/"+broken+"/content").Expect(200).Map()["pages"].([]any) {
		if m := p.(map[string]any); m["title"] == "Guide" {
			guide = m["id"].(string)
		}
	}
	var record string
	q := `SELECT hash FROM content_objects WHERE kind = 'page' AND body LIKE ?`
	if apitest.PostgresURL() != "" {
		q = strings.Replace(q, "?", "$1", 1)
	}
	if err := db.QueryRow(q, `%"id":"`+guide+`"%`).Scan(&record); err != nil {
		t.Fatalf("the guide's record: %v", err)
	}
	exec(`DELETE FROM content_objects WHERE hash = ?`, record)
	// The stale space's index keeps text its content no longer has.
	exec(`UPDATE search_sections SET body = 'text of long ago' WHERE space_id = ?`, stale)
	// A search job was running on a worker that died ten minutes ago. The server's clock is
	// put an hour back so that it does not take the lease over before the check sees it.
	e.Clock.Advance(-time.Hour)
	past := time.Now().Add(-10 * time.Minute).UnixMicro()
	exec(`INSERT INTO jobs (id, kind, payload, state, run_at, attempts, lease_owner, lease_expires_at, created_at)
		VALUES ('stuckjob', 'search.index', ?, 'running', ?, 1, 'gone-host-1', ?, ?)`,
		`{"space":"`+stale+`"}`, past-60e6, past, past-60e6)
	exec(`INSERT INTO jobs (id, kind, payload, state, run_at, created_at) VALUES ('oddjob', 'no.such.kind', '{}', 'queued', ?, ?)`, past, past)

	out, _, err := adminRun(t, cfg, "check")
	if exitCode(err) != 1 {
		t.Fatalf("check of a damaged store: error %v, want exit status 1\n%s", err, out)
	}
	want := []string{
		"blob: " + blobHash + " ", "hash to",
		"content: revision ", "page record " + record + " is missing",
		"search: space " + stale + ": search index disagrees",
		"jobs: job stuckjob (search.index, attempt 1) is marked running by gone-host-1",
		`jobs: 1 pending jobs of kind "no.such.kind"`,
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("check output lacks %q:\n%s", w, out)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.Contains(line, "(repaired)") {
			t.Errorf("check without --repair repaired: %s", line)
		}
	}

	out, _, err = adminRun(t, cfg, "check", "--repair")
	if err == nil {
		t.Fatalf("check --repair left no problem, but the blob and the record cannot be mended:\n%s", out)
	}
	for _, w := range []string{
		"search: space " + stale + ": search index disagrees",
		"jobs: job stuckjob",
	} {
		if !strings.Contains(out, w) || !strings.Contains(lineOf(out, w), "(repaired)") {
			t.Errorf("check --repair: %q not reported repaired:\n%s", w, out)
		}
	}
	if !strings.Contains(lineOf(out, "blob: "+blobHash), "unrecoverable") || strings.Contains(lineOf(out, "blob: "+blobHash), "(repaired)") {
		t.Errorf("check --repair: the rotten blob should stay reported unrecoverable:\n%s", out)
	}

	// Afterwards only what could not be repaired is left.
	out, _, _ = adminRun(t, cfg, "check")
	if strings.Contains(out, "search: space "+stale) || strings.Contains(out, "stuckjob") {
		t.Fatalf("after --repair, check still finds:\n%s", out)
	}
	e.Clock.Advance(time.Hour)
	hits := e.Get(e.Admin, "/v1/spaces/"+stale+"/search?query=Deploy").Expect(200)
	if hits.Num("count") == 0 && len(hits.Items()) == 0 {
		t.Fatalf("the rebuilt index finds nothing: %s", hits.Body)
	}
}

func lineOf(out, fragment string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, fragment) {
			return line
		}
	}
	return ""
}

func driverOf(url string) string {
	if strings.HasPrefix(url, "postgres") {
		return "pgx"
	}
	return "sqlite"
}
