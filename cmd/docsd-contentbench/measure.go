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
	"docsd/internal/childserver"
	"docsd/internal/config"
	"docsd/internal/store"
)

// sizeResult is what one space size measured.
type sizeResult struct {
	pages      int
	importTime time.Duration
	cycles     []time.Duration // change request created, one page edited in it, merged
	editBytes  []int64         // bytes of rows one page edit added
	mergeBytes []int64         // bytes of rows merging that edit added (not a target: printed)
	// movedMerges are merges of a change request after the space moved under it (a
	// three-way merge); gitMerges are git merge-tree runs on the same tree beside them.
	movedMerges []time.Duration
	gitMerges   []time.Duration
	readP50     time.Duration // GET a page by id, in-process
	readP99     time.Duration
	importRSS   int64 // the server's peak while importing
	servingRSS  int64 // the peak of a freshly started server serving the space
}

// database is where one size's space lives.
type database struct {
	dataDir, url string
	drop         func()
}

// sizeRun is one size's space, served by its own docsd, between set-up and measurement.
type sizeRun struct {
	res     sizeResult
	db      database
	srv     *childserver.Child
	api     *api
	token   string
	spaceID string
	ids     []string
	counter *store.DB // the same database, opened here to count what edits write
}

func (sr *sizeRun) close() {
	if sr.counter != nil {
		sr.counter.Close()
	}
	if sr.srv != nil {
		sr.srv.Stop()
	}
	sr.db.drop()
}

// setUp builds a space of n pages through the API (timing the import), then restarts docsd
// so that its peak memory is that of serving the space, not of importing it.
func setUp(ctx context.Context, o options, bin, work string, n int) (*sizeRun, error) {
	sr := &sizeRun{res: sizeResult{pages: n}}
	var err error
	if sr.db, err = freshDatabase(ctx, o, work, n); err != nil {
		return nil, err
	}
	logPath := filepath.Join(work, fmt.Sprintf("docsd-%d.log", n))
	if sr.srv, err = startDocsd(ctx, bin, sr.db.dataDir, sr.db.url, logPath, "", ""); err != nil {
		sr.close()
		return nil, err
	}
	sr.token = sr.srv.Token
	if err := sr.importSpace(ctx, n); err != nil {
		sr.close()
		return nil, err
	}
	if sr.counter, err = store.Open(ctx, sr.db.url); err != nil {
		sr.close()
		return nil, err
	}
	// The import's events are consumed (the space indexed for search) by the server that
	// took the import: stopped before that, it left a share of the indexing that depended on
	// its timing to the serving server, and the serving peak varied with it (157 to 195 MB
	// at 10,000 pages on SQLite).
	if err := settle(ctx, sr.counter); err != nil {
		sr.close()
		return nil, err
	}
	sr.srv.Stop()
	sr.srv = nil
	var profile string
	if o.cpuProfile != "" {
		profile = fmt.Sprintf("%s.%d", o.cpuProfile, n)
	}
	var heap string
	if o.heapProfile != "" {
		heap = fmt.Sprintf("%s.%d", o.heapProfile, n)
	}
	if sr.srv, err = startDocsd(ctx, bin, sr.db.dataDir, sr.db.url, logPath, profile, heap); err != nil {
		sr.close()
		return nil, err
	}
	sr.api = newAPI(sr.srv.Base, sr.token)
	if sr.ids, err = sr.api.pageIDs(ctx, sr.spaceID); err == nil && len(sr.ids) != n {
		err = fmt.Errorf("the import made %d pages, want %d", len(sr.ids), n)
	}
	if err == nil {
		err = settle(ctx, sr.counter)
	}
	if err != nil {
		sr.close()
		return nil, err
	}
	return sr, nil
}

// settle waits, up to settleMax, until every consumer of the server's events (the search
// indexer above all) has caught up with the import, so that the rounds time the requests
// and not their competition with indexing the whole space for the first time.
func settle(ctx context.Context, db *store.DB) error {
	const settleMax = 5 * time.Minute
	deadline := time.Now().Add(settleMax)
	for {
		var behind int64
		err := db.Read().QueryRow(ctx, `SELECT (SELECT COALESCE(MAX(seq), 0) FROM outbox_events) -
			(SELECT COALESCE(MIN(seq), 0) FROM outbox_cursors)`).Scan(&behind)
		if err != nil || behind <= 0 {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the server's event consumers are still %d events behind after %s", behind, settleMax)
		}
		select {
		case <-time.After(200 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// importSpace creates the space and imports the generated tree into it.
func (sr *sizeRun) importSpace(ctx context.Context, n int) error {
	c := newAPI(sr.srv.Base, sr.token)
	var orgs struct{ Items []idOnly }
	if err := c.call(ctx, "GET", "/v1/orgs", "", nil, 200, &orgs); err != nil || len(orgs.Items) == 0 {
		return fmt.Errorf("organizations: %v", err)
	}
	var sp idOnly
	if err := c.send(ctx, "POST", "/v1/orgs/"+orgs.Items[0].ID+"/spaces", map[string]any{"title": fmt.Sprintf("%d pages", n)}, 201, &sp); err != nil {
		return err
	}
	sr.spaceID = sp.ID
	archive, err := markdownTree(n)
	if err != nil {
		return err
	}
	start := time.Now()
	if err := c.call(ctx, "POST", "/v1/spaces/"+sp.ID+"/content/import", "application/gzip", archive, 201, nil); err != nil {
		return err
	}
	sr.res.importTime = time.Since(start)
	sr.res.importRSS, err = peakRSS(sr.srv)
	return err
}

// cycleRounds times change request rounds on every size, alternating between them round
// by round so that the machine's other load falls on all sizes alike. The first round warms
// up and is not counted.
func cycleRounds(ctx context.Context, runs []*sizeRun, reps int) error {
	for r := range reps + 1 {
		for _, sr := range runs {
			n := len(sr.ids)
			took, err := cycle(ctx, sr.api, sr.spaceID, sr.ids[(n/2+r)%n], r)
			if err != nil {
				return fmt.Errorf("%d pages: %w", n, err)
			}
			if r > 0 {
				sr.res.cycles = append(sr.res.cycles, took)
			}
		}
	}
	return nil
}

// measureRest counts what page edits write, reads pages through the API, reads the server's
// peak memory, stops it, and times page reads in-process.
func (sr *sizeRun) measureRest(ctx context.Context, o options) error {
	n := len(sr.ids)
	for r := range max(o.reps, 3) {
		edit, merge, err := editBytes(ctx, sr.api, sr.counter, sr.spaceID, sr.ids[(n/3+r)%n], r)
		if err != nil {
			return err
		}
		sr.res.editBytes = append(sr.res.editBytes, edit)
		sr.res.mergeBytes = append(sr.res.mergeBytes, merge)
	}
	for _, id := range sample(sr.ids, 20) {
		if err := sr.api.call(ctx, "GET", "/v1/spaces/"+sr.spaceID+"/content/page/"+id, "", nil, 200, nil); err != nil {
			return err
		}
	}
	var err error
	if sr.res.servingRSS, err = peakRSS(sr.srv); err != nil {
		return err
	}
	sr.srv.Stop()
	sr.srv = nil
	sr.res.readP50, sr.res.readP99, err = inProcessReads(ctx, sr.db, sr.token, sr.spaceID, sr.ids, o.reads)
	return err
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
		LENGTH(files_root) + LENGTH(variables) + COALESCE(LENGTH(author_id), 0) + COALESCE(LENGTH(git), 0) +
		COALESCE(LENGTH(base_id), 0) + COALESCE(LENGTH(changes), 0) + 8 + 8), 0) FROM revisions)`

// editBytes opens a change request and reports what editing one page in it added, then
// what merging it added.
func editBytes(ctx context.Context, c *api, db *store.DB, spaceID, pageID string, r int) (edit, merge int64, err error) {
	var cr idOnly
	if err := c.send(ctx, "POST", "/v1/spaces/"+spaceID+"/change-requests", map[string]any{"subject": "Size"}, 201, &cr); err != nil {
		return 0, 0, err
	}
	stored := func() (n int64, err error) {
		err = db.Read().QueryRow(ctx, storedBytes).Scan(&n)
		return n, err
	}
	before, err := stored()
	if err != nil {
		return 0, 0, err
	}
	base := "/v1/spaces/" + spaceID + "/change-requests/" + cr.ID
	body := map[string]any{"markdown": pageText("Sized", r+7, fmt.Sprintf("Sized %d.\n", r))}
	if err := c.send(ctx, "PATCH", base+"/pages/"+pageID, body, 200, nil); err != nil {
		return 0, 0, err
	}
	edited, err := stored()
	if err != nil {
		return 0, 0, err
	}
	if err := c.send(ctx, "POST", base+"/merge", map[string]any{}, 200, nil); err != nil {
		return 0, 0, err
	}
	merged, err := stored()
	if err != nil {
		return 0, 0, err
	}
	return edited - before, merged - edited, nil
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
