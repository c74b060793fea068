package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/config"
	"docsd/internal/gitimport"
	"docsd/internal/store"
)

// largeTree is a markdown tree of a home page and n more pages.
func largeTree(n int) map[string]string {
	files := map[string]string{"README.md": "# Home\n"}
	for i := range n {
		files[fmt.Sprintf("page-%d.md", i)] = fmt.Sprintf("# Page %d\n\nText %d.\n", i, i)
	}
	return files
}

// stoppedQueue is a server whose background job worker is stopped, so a queued job waits
// until the test runs it with RunDue.
func stoppedQueue(t *testing.T, syncPages int) *apitest.Env {
	t.Helper()
	e := apitest.NewWithConfig(t, func(c *config.Config) { c.ImportSyncPages = syncPages })
	// Start is a no-op when the server has started the worker already, and makes the
	// server's own Start one otherwise, so the worker stays stopped either way.
	e.App.Jobs.Start(t.Context())
	if err := e.App.Jobs.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	return e
}

func importJobs(t *testing.T, e *apitest.Env) []store.Job {
	t.Helper()
	jobs, err := e.App.DB.JobsOfKind(t.Context(), gitimport.JobKind)
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

func TestContentImportLargeTreeRunsAsJob(t *testing.T) {
	t.Parallel()
	e := stoppedQueue(t, 3)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	head := headOf(e, sp)

	t.Run("a tree at the threshold is committed within the request", func(t *testing.T) {
		small := newSpace(t, e, e.Admin, e.Org, nil)
		r := e.Upload(e.Admin, "POST", "/v1/spaces/"+small+"/content/import", "application/zip", zipOf(t, largeTree(2))).Expect(201)
		if r.Header.Get("X-Docsd-Import") != "committed" || headOf(e, small) != r.Str("id") {
			t.Fatalf("headers %v, body %s", r.Header, r.Body)
		}
	})

	r := e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, largeTree(5))).Expect(202)
	if r.Header.Get("X-Docsd-Import") != "queued" || r.Str("status") != "pending" || r.Header.Get("Location") != r.Str("urls.location") {
		t.Fatalf("headers %v, body %q", r.Header, r.Body)
	}
	runPath := strings.TrimPrefix(r.Header.Get("Location"), e.URL)
	if headOf(e, sp) != head {
		t.Fatal("the head moved before the job ran")
	}
	if jobs := importJobs(t, e); len(jobs) != 1 || jobs[0].State != store.JobQueued {
		t.Fatalf("jobs: %+v", jobs)
	}
	// The queue also holds the search index's jobs for the spaces made above; the import's
	// own state is checked below.
	if ran, err := e.App.Jobs.RunDue(t.Context()); err != nil || ran == 0 {
		t.Fatalf("RunDue ran %d: %v", ran, err)
	}
	if jobs := importJobs(t, e); jobs[0].State != store.JobDone {
		t.Fatalf("job: %+v", jobs[0])
	}
	if run := e.Get(e.Admin, runPath).Expect(200); run.Str("status") != "completed" || !run.Has("completedAt") {
		t.Fatalf("the import's run: %s", run.Body)
	}
	newHead := headOf(e, sp)
	if newHead == head {
		t.Fatal("the job did not move the head")
	}
	rev := e.Get(e.Admin, "/v1/spaces/"+sp+"/revisions/"+newHead).Expect(200)
	if rev.Str("parents.0") != head {
		t.Fatalf("imported revision's parent %s, want %s", rev.Str("parents.0"), head)
	}
	pages := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200)
	if n := len(pages.Map()["pages"].([]any)); n != 6 || pages.Str("pages.5.title") != "Page 4" {
		t.Fatalf("%d pages: %s", n, pages.Body)
	}
}

func TestContentImportJobFailureIsRecorded(t *testing.T) {
	t.Parallel()
	e := stoppedQueue(t, 3)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	head := headOf(e, sp)
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/gzip", tarGzOf(t, largeTree(5))).Expect(202)
	// The space is locked after the import was accepted: the job cannot commit, and
	// retrying will not help, so it fails at once rather than after ten attempts.
	e.Patch(e.Admin, "/v1/spaces/"+sp, map[string]any{"editMode": "locked"}).Expect(200)
	if _, err := e.App.Jobs.RunDue(t.Context()); err != nil {
		t.Fatal(err)
	}
	jobs := importJobs(t, e)
	if len(jobs) != 1 || jobs[0].State != store.JobFailed || jobs[0].Attempts != 1 || !strings.Contains(jobs[0].LastError, "locked") {
		t.Fatalf("jobs: %+v", jobs)
	}
	if headOf(e, sp) != head {
		t.Fatal("a failed import moved the head")
	}
}

func TestContentImportQueuedStillChecksTheArchive(t *testing.T) {
	t.Parallel()
	e := stoppedQueue(t, 0)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	// An archive without a page is refused in the request, not left to fail in a job.
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, map[string]string{"notes.txt": "x"})).ExpectError(400)
	reader := e.Member("reader", "read")
	grant(t, e, e.Admin, "/v1/spaces/"+sp, "read", []string{reader.ID}, nil)
	e.Upload(reader, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, largeTree(2))).ExpectError(403)
	if jobs := importJobs(t, e); len(jobs) != 0 {
		t.Fatalf("jobs: %+v", jobs)
	}
}
