package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"time"

	"docsd/internal/app"
	"docsd/internal/config"
	"docsd/internal/store"
)

// sizeResult is what one space size measured.
type sizeResult struct {
	pages      int
	importTime time.Duration
	cycles     []time.Duration // change request created, one page edited in it, merged
	editBytes  []int64         // bytes of rows one page edit added
	readP50    time.Duration   // GET a page by id, in-process
	readP99    time.Duration
	importRSS  int64 // the server's peak while importing
	servingRSS int64 // the peak of a freshly started server serving the space
}

// database is where one size's space lives.
type database struct {
	dataDir, url string
	drop         func()
}

// measureSize builds a space of n pages through the API and measures it.
func measureSize(ctx context.Context, o options, bin, work string, n int) (sizeResult, error) {
	res := sizeResult{pages: n}
	db, err := freshDatabase(ctx, o, work, n)
	if err != nil {
		return res, err
	}
	defer db.drop()
	logPath := filepath.Join(work, fmt.Sprintf("docsd-%d.log", n))
	srv, err := startDocsd(ctx, bin, db.dataDir, db.url, logPath, "")
	if err != nil {
		return res, err
	}
	token := srv.token
	c := newAPI(srv.base, token)
	var orgs struct{ Items []idOnly }
	if err := c.call(ctx, "GET", "/v1/orgs", "", nil, 200, &orgs); err != nil || len(orgs.Items) == 0 {
		srv.stop()
		return res, fmt.Errorf("organizations: %v", err)
	}
	var sp idOnly
	if err := c.send(ctx, "POST", "/v1/orgs/"+orgs.Items[0].ID+"/spaces", map[string]any{"title": fmt.Sprintf("%d pages", n)}, 201, &sp); err != nil {
		srv.stop()
		return res, err
	}
	archive, err := markdownTree(n)
	if err != nil {
		srv.stop()
		return res, err
	}
	start := time.Now()
	err = c.call(ctx, "POST", "/v1/spaces/"+sp.ID+"/content/import", "application/gzip", archive, 201, nil)
	res.importTime = time.Since(start)
	if err == nil {
		res.importRSS, err = srv.peakRSS()
	}
	srv.stop()
	if err != nil {
		return res, err
	}

	// A fresh process serves the space, so its peak is the serving one, not the import's.
	var profile string
	if o.cpuProfile != "" {
		profile = fmt.Sprintf("%s.%d", o.cpuProfile, n)
	}
	if srv, err = startDocsd(ctx, bin, db.dataDir, db.url, logPath, profile); err != nil {
		return res, err
	}
	defer srv.stop()
	c = newAPI(srv.base, token)
	ids, err := c.pageIDs(ctx, sp.ID)
	if err != nil {
		return res, err
	}
	if len(ids) != n {
		return res, fmt.Errorf("the import made %d pages, want %d", len(ids), n)
	}
	counter, err := store.Open(ctx, db.url)
	if err != nil {
		return res, err
	}
	defer counter.Close()
	for r := range o.reps + 1 { // the first round warms up and is not counted
		page := ids[(n/2+r)%n]
		took, err := cycle(ctx, c, sp.ID, page, r)
		if err != nil {
			return res, err
		}
		if r > 0 {
			res.cycles = append(res.cycles, took)
		}
		written, err := editBytes(ctx, c, counter, sp.ID, ids[(n/3+r)%n], r)
		if err != nil {
			return res, err
		}
		res.editBytes = append(res.editBytes, written)
	}
	for _, id := range sample(ids, 20) {
		if err := c.call(ctx, "GET", "/v1/spaces/"+sp.ID+"/content/page/"+id, "", nil, 200, nil); err != nil {
			return res, err
		}
	}
	if res.servingRSS, err = srv.peakRSS(); err != nil {
		return res, err
	}
	srv.stop()

	res.readP50, res.readP99, err = inProcessReads(ctx, db, token, sp.ID, ids, o.reads)
	return res, err
}

// cycle creates a change request, edits one page in it and merges it, and times the three.
func cycle(ctx context.Context, c *api, spaceID, pageID string, r int) (time.Duration, error) {
	start := time.Now()
	var cr idOnly
	if err := c.send(ctx, "POST", "/v1/spaces/"+spaceID+"/change-requests", map[string]any{"subject": fmt.Sprintf("Bench %d", r)}, 201, &cr); err != nil {
		return 0, err
	}
	base := "/v1/spaces/" + spaceID + "/change-requests/" + cr.ID
	if err := c.send(ctx, "PATCH", base+"/pages/"+pageID, map[string]any{"markdown": pageText("Edited", r+1, fmt.Sprintf("Edit %d.\n", r))}, 200, nil); err != nil {
		return 0, err
	}
	if err := c.send(ctx, "POST", base+"/merge", map[string]any{}, 200, nil); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// storedBytes sums what the content tables hold: records, markdown and revisions. Rows are
// only ever added to them, so the difference across a request is what it wrote.
const storedBytes = `SELECT
	(SELECT COALESCE(SUM(LENGTH(hash) + LENGTH(kind) + LENGTH(body)), 0) FROM content_objects) +
	(SELECT COALESCE(SUM(LENGTH(hash) + LENGTH(body)), 0) FROM content_markdown) +
	(SELECT COALESCE(SUM(LENGTH(id) + LENGTH(space_id) + LENGTH(parents) + LENGTH(type) + LENGTH(pages_root) +
		LENGTH(files_root) + LENGTH(variables) + COALESCE(LENGTH(author_id), 0) + 8), 0) FROM revisions)`

// editBytes opens a change request and reports what editing one page in it added.
func editBytes(ctx context.Context, c *api, db *store.DB, spaceID, pageID string, r int) (int64, error) {
	var cr idOnly
	if err := c.send(ctx, "POST", "/v1/spaces/"+spaceID+"/change-requests", map[string]any{"subject": "Size"}, 201, &cr); err != nil {
		return 0, err
	}
	var before, after int64
	if err := db.Read().QueryRow(ctx, storedBytes).Scan(&before); err != nil {
		return 0, err
	}
	body := map[string]any{"markdown": pageText("Sized", r+7, fmt.Sprintf("Sized %d.\n", r))}
	if err := c.send(ctx, "PATCH", "/v1/spaces/"+spaceID+"/change-requests/"+cr.ID+"/pages/"+pageID, body, 200, nil); err != nil {
		return 0, err
	}
	if err := db.Read().QueryRow(ctx, storedBytes).Scan(&after); err != nil {
		return 0, err
	}
	return after - before, nil
}

// inProcessReads opens the database in this process and reads pages by id through the API's
// handler, without a network or another process in between: p50 and p99 over reads of
// distinct pages, after a warm-up that loads the head.
func inProcessReads(ctx context.Context, db database, token, spaceID string, ids []string, reads int) (p50, p99 time.Duration, err error) {
	cfg := config.Defaults()
	cfg.Addr, cfg.DataDir, cfg.DatabaseURL = "127.0.0.1:0", db.dataDir, db.url
	a, err := app.Open(ctx, cfg, app.Options{})
	if err != nil {
		return 0, 0, err
	}
	defer a.Close()
	if err := a.Listen(); err != nil {
		return 0, 0, err
	}
	h := a.Handler()
	read := func(id string) (time.Duration, error) {
		req := httptest.NewRequest("GET", "/v1/spaces/"+spaceID+"/content/page/"+id, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(w, req)
		took := time.Since(start)
		if w.Code != http.StatusOK {
			return 0, fmt.Errorf("GET page %s: %d %.200s", id, w.Code, w.Body.Bytes())
		}
		return took, nil
	}
	for _, id := range sample(ids, 20) {
		if _, err := read(id); err != nil {
			return 0, 0, err
		}
	}
	order := sample(ids, len(ids))
	times := make([]time.Duration, 0, reads)
	for i := range reads {
		took, err := read(order[i%len(order)])
		if err != nil {
			return 0, 0, err
		}
		times = append(times, took)
	}
	slices.Sort(times)
	return times[len(times)/2], times[len(times)*99/100], nil
}

// sample returns k ids in a random order, each once while k allows.
func sample(ids []string, k int) []string {
	out := slices.Clone(ids)
	rand.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:min(k, len(out))]
}

// freshDatabase makes an empty database for one size: a SQLite file in its own data
// directory, or a schema of its own in the PostgreSQL database given.
func freshDatabase(ctx context.Context, o options, work string, n int) (database, error) {
	dir := filepath.Join(work, fmt.Sprintf("data-%d", n))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return database{}, err
	}
	if o.postgres == "" {
		return database{dataDir: dir, url: filepath.Join(dir, "docsd.db"), drop: func() {}}, nil
	}
	return postgresSchema(ctx, o.postgres, dir, n)
}
