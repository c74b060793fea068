package httpapi_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/config"
	"docsd/internal/gitfetch/gittest"
)

// runReport is what a finished run says it made and warned of.
type runReport struct {
	Status string `json:"status"`
	Pages  []struct {
		ID, Type, Status string
	} `json:"pages"`
	Errors []string `json:"errors"`
}

func readRun(t *testing.T, e *apitest.Env, runPath string) runReport {
	t.Helper()
	var r runReport
	e.Get(e.Admin, runPath).Expect(200).JSON(&r)
	return r
}

// contentPageIDs lists the ids of the space's pages, depth first, as the content lists them.
func contentPageIDs(t *testing.T, e *apitest.Env, spaceID string) []string {
	t.Helper()
	var out []string
	walkPages(t, e, spaceID, func(id, _ string, _ int) { out = append(out, id) })
	return out
}

// checkRunPages checks that a completed run names every page of the space, in order, each
// complete and typed.
func checkRunPages(t *testing.T, e *apitest.Env, spaceID string, run runReport) {
	t.Helper()
	if run.Status != "completed" {
		t.Fatalf("run %+v", run)
	}
	var got []string
	for _, p := range run.Pages {
		if p.Status != "complete" || (p.Type != "page" && p.Type != "folder") {
			t.Errorf("page %+v", p)
		}
		got = append(got, p.ID)
	}
	if want := contentPageIDs(t, e, spaceID); len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("run lists pages %v, the space has %v", got, want)
	}
}

// sparkleWarned reports whether a run's errors warn of the unknown tag "sparkle" in file.
func sparkleWarned(run runReport, file string) bool {
	for _, w := range run.Errors {
		if strings.HasPrefix(w, file+":") && strings.Contains(w, "unknown block tag(s) sparkle") {
			return true
		}
	}
	return false
}

const sparklePage = "# Shiny\n\n{% sparkle level=\"2\" %}\nInside the unknown tag.\n{% endsparkle %}\n"

func TestFileImportRunWarnsOfUnknownTags(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	archive := zipOf(t, map[string]string{
		"README.md":  "# Home\n\nPlain.\n",
		"SUMMARY.md": "# Summary\n\n* [Home](README.md)\n* [Tagged](tagged.md)\n",
		"tagged.md":  sparklePage,
	})
	zipURL, zipKey := uploadURL(t, e, "tree.zip", "application/zip", len(archive))
	if code, body := put(t, zipURL, archive); code != 200 {
		t.Fatalf("PUT: %d %s", code, body)
	}
	mdKey := uploaded(t, e, "single.md", sparklePage)
	id := e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{
		"source": map[string]any{"type": "file", "files": []string{zipKey, mdKey}},
		"target": map[string]any{"space": sp}}).Expect(201).Str("id")
	waitRun(t, e, id)
	run := readRun(t, e, "/v1/org/"+e.Org+"/imports/"+id)
	checkRunPages(t, e, sp, run)
	if !sparkleWarned(run, "tagged.md") || !sparkleWarned(run, "single.md") {
		t.Fatalf("the run does not warn of the unknown tag in both files: %q", run.Errors)
	}
	if len(run.Errors) != 2 {
		t.Errorf("warnings: %q", run.Errors)
	}
	md := pageAt(e, sp, "", run.Pages[2].ID).Expect(200).Str("markdown")
	if !strings.Contains(md, "Inside the unknown tag.") {
		t.Errorf("the unknown tag's content was not kept: %q", md)
	}

	t.Run("a run with nothing unknown warns of nothing", func(t *testing.T) {
		key := uploaded(t, e, "clean.md", "# Clean\n\n{% hint style=\"info\" %}\nKnown.\n{% endhint %}\n")
		id := e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{
			"source": map[string]any{"type": "file", "files": []string{key}}, "target": map[string]any{"space": sp}}).Expect(201).Str("id")
		waitRun(t, e, id)
		if run := readRun(t, e, "/v1/org/"+e.Org+"/imports/"+id); run.Status != "completed" || len(run.Errors) != 0 || len(run.Pages) != 1 {
			t.Fatalf("run %+v", run)
		}
	})
}

func TestQueuedArchiveImportRunListsPagesAndWarnings(t *testing.T) {
	t.Parallel()
	e := stoppedQueue(t, 3)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	tree := largeTree(4)
	tree["SUMMARY.md"] = "# Summary\n\n* [Home](README.md)\n* [Part](part/README.md)\n  * [Tagged](part/tagged.md)\n" +
		"* [Page 0](page-0.md)\n* [Page 1](page-1.md)\n* [Page 2](page-2.md)\n* [Page 3](page-3.md)\n"
	tree["part/README.md"] = "# Part\n\nA part.\n"
	tree["part/tagged.md"] = sparklePage
	for name, archive := range map[string]struct {
		ct   string
		data []byte
	}{"zip": {"application/zip", zipOf(t, tree)}, "tar": {"application/gzip", tarGzOf(t, tree)}} {
		t.Run(name, func(t *testing.T) {
			r := e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", archive.ct, archive.data).Expect(202)
			runPath := strings.TrimPrefix(r.Header.Get("Location"), e.URL)
			if len(readRun(t, e, runPath).Pages) != 0 {
				t.Fatalf("a pending run lists pages: %s", r.Body)
			}
			if _, err := e.App.Jobs.RunDue(t.Context()); err != nil {
				t.Fatal(err)
			}
			run := readRun(t, e, runPath)
			checkRunPages(t, e, sp, run)
			if len(run.Pages) != 7 {
				t.Errorf("%d pages: %+v", len(run.Pages), run.Pages)
			}
			if !sparkleWarned(run, "part/tagged.md") {
				t.Errorf("warnings: %q", run.Errors)
			}
		})
	}
}

func TestQueuedGitImportRunListsPagesAndWarnings(t *testing.T) {
	t.Parallel()
	e := apitest.NewWithConfig(t, func(c *config.Config) { c.GitImportSyncPages = 3 })
	files := map[string]string{"README.md": "# Home\n", "tagged.md": sparklePage}
	for i := range 4 {
		files[fmt.Sprintf("page-%d.md", i)] = fmt.Sprintf("# Page %d\n", i)
	}
	repo := gittest.Serve(t, files)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	r := gitImport(e, e.Admin, sp, map[string]any{"url": repo.URL, "ref": "main"}).Expect(204)
	runPath := strings.TrimPrefix(r.Header.Get("Location"), e.URL)
	if _, err := e.App.Jobs.RunDue(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitRun(t, e, strings.TrimPrefix(runPath, "/v1/org/"+e.Org+"/imports/"))
	run := readRun(t, e, runPath)
	checkRunPages(t, e, sp, run)
	if len(run.Pages) != 6 || !sparkleWarned(run, "tagged.md") {
		t.Fatalf("run %+v", run)
	}
}

func TestCommittedImportsAreCompletedRuns(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tree := map[string]string{"README.md": "# Home\n", "SUMMARY.md": "# Summary\n\n* [Home](README.md)\n* [Tagged](tagged.md)\n",
		"tagged.md": sparklePage}
	t.Run("an archive", func(t *testing.T) {
		sp := newSpace(t, e, e.Admin, e.Org, nil)
		r := e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, tree)).Expect(201)
		runURL := r.Header.Get("X-Docsd-Import-Run")
		if r.Header.Get("X-Docsd-Import") != "committed" || !strings.HasPrefix(runURL, e.URL+"/v1/org/"+e.Org+"/imports/") {
			t.Fatalf("headers %v", r.Header)
		}
		run := readRun(t, e, strings.TrimPrefix(runURL, e.URL))
		checkRunPages(t, e, sp, run)
		if len(run.Pages) != 2 || !sparkleWarned(run, "tagged.md") {
			t.Fatalf("run %+v", run)
		}
		if ids := e.Get(e.Admin, "/v1/org/"+e.Org+"/imports?space="+sp).Expect(200).IDs(); len(ids) != 1 || !strings.HasSuffix(runURL, "/"+ids[0]) {
			t.Errorf("runs of the space: %v", ids)
		}
	})
	t.Run("a Git repository", func(t *testing.T) {
		sp := newSpace(t, e, e.Admin, e.Org, nil)
		repo := gittest.Serve(t, tree)
		r := gitImport(e, e.Admin, sp, map[string]any{"url": repo.URL, "ref": "main"}).Expect(204)
		runURL := r.Header.Get("X-Docsd-Import-Run")
		if r.Header.Get("X-Docsd-Import") != "committed" || runURL == "" {
			t.Fatalf("headers %v", r.Header)
		}
		run := readRun(t, e, strings.TrimPrefix(runURL, e.URL))
		checkRunPages(t, e, sp, run)
		if len(run.Pages) != 2 || !sparkleWarned(run, "tagged.md") {
			t.Fatalf("run %+v", run)
		}
	})
}
