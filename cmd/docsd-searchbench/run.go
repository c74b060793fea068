package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"docsd/internal/app"
	"docsd/internal/auth"
	"docsd/internal/config"
	"docsd/internal/contenttree"
	"docsd/internal/search"
	"docsd/internal/space"
	"docsd/internal/store"
)

// bench is one run: the server, its caller, and the two spaces.
type bench struct {
	o          options
	app        *app.App
	token      string
	caller     auth.Caller
	big, small string
	client     *http.Client
	vocab      *vocabulary
	rng        *rand.Rand
}

func run(ctx context.Context, o options, out io.Writer) (missed, recallMissed bool, err error) {
	var a *app.App
	dir := o.Reuse
	if dir == "" {
		if dir, err = os.MkdirTemp("", "docsd-searchbench-"); err != nil {
			return false, false, err
		}
		if o.Keep {
			logf("data directory: %s", dir)
		} else {
			defer os.RemoveAll(dir)
		}
	}
	cfg := config.Defaults()
	cfg.Addr, cfg.DataDir, cfg.DatabaseURL = "127.0.0.1:0", dir, filepath.Join(dir, "docsd.db")
	// One token sends every search, far past the default limits: set out of reach, so that
	// each request still pays for counting.
	cfg.RateLimitToken, cfg.RateLimitAddress, cfg.RateLimitExpensive = 1e9, 1e9, 1e9
	a, err = app.Open(ctx, cfg, app.Options{})
	if err != nil {
		return false, false, err
	}
	defer a.Close()
	b := &bench{o: o, app: a, rng: rand.New(rand.NewPCG(o.Seed, 7)),
		client: &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 4}}}
	b.vocab = newVocabulary(b.rng, 50000, 1.07)
	if o.Reuse != "" {
		err = b.reuse(ctx)
	} else {
		err = b.setup(ctx)
	}
	if err != nil {
		return false, false, err
	}
	if err := a.Listen(); err != nil {
		return false, false, err
	}
	serveCtx, stopServe := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- a.Serve(serveCtx) }()
	defer func() { stopServe(); <-done }()

	if o.CPUProfile != "" {
		f, err := os.Create(o.CPUProfile)
		if err != nil {
			return false, false, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return false, false, err
		}
	}
	q, err := b.measureQueries(ctx)
	pprof.StopCPUProfile()
	if err != nil {
		return false, false, err
	}
	if err := b.measureRecall(ctx, &q); err != nil {
		return false, false, err
	}
	u, err := b.measureUpdates(ctx)
	if err != nil {
		return false, false, err
	}
	missed, recallMissed = report(out, o, q, u)
	return missed, recallMissed, nil
}

// setup creates the user, organization and spaces, commits the corpus and indexes it in bulk.
func (b *bench) setup(ctx context.Context) error {
	a := b.app
	u, err := a.Accounts.CreateUser(ctx, "bench@example.test", "Bench", true)
	if err != nil {
		return err
	}
	if b.token, err = a.Accounts.CreateToken(ctx, u.Email); err != nil {
		return err
	}
	b.caller = auth.Caller{UserID: u.ID}
	org, err := a.Orgs.Create(ctx, "Search bench", u.ID)
	if err != nil {
		return err
	}
	for _, sp := range []struct {
		id    *string
		pages int
	}{{&b.big, b.o.Pages}, {&b.small, b.o.SmallPages}} {
		title := fmt.Sprintf("%d pages", sp.pages)
		v, err := a.Spaces.Create(ctx, b.caller, org.ID, space.NewSpace{Title: &title})
		if err != nil {
			return err
		}
		*sp.id = v.ID
		start := time.Now()
		tree := corpusTree(b.vocab, sp.pages, b.o.Sections, b.o.Words)
		rev, _, err := a.Content.Replace(ctx, b.caller, v.ID, tree)
		if err != nil {
			return err
		}
		logf("space of %d pages committed in %s", sp.pages, time.Since(start).Round(time.Millisecond))
		start = time.Now()
		rows := rowsOf(v.ID, tree)
		st := store.NewSearches(a.DB)
		from, err := st.Indexed(ctx, v.ID)
		if err != nil {
			return err
		}
		ok, err := st.ApplyIndex(ctx, time.Now(), v.ID, from, rev.ID, true, nil, rows)
		if err != nil || !ok {
			return fmt.Errorf("bulk index of space %s: ok %v, %v", v.ID, ok, err)
		}
		if err := a.Search.PrepareRanking(ctx); err != nil { // as the index job does after a large update
			return err
		}
		logf("%d sections indexed in bulk in %s (champion lists included)", len(rows), time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// reuse finds the user and spaces of a kept data directory, and makes a new token.
func (b *bench) reuse(ctx context.Context) error {
	q := b.app.DB.Read()
	var email string
	if err := q.QueryRow(ctx, `SELECT id, email FROM users WHERE email = 'bench@example.test'`).Scan(&b.caller.UserID, &email); err != nil {
		return fmt.Errorf("no benchmark user in %s: %w", b.o.Reuse, err)
	}
	var err error
	if b.token, err = b.app.Accounts.CreateToken(ctx, email); err != nil {
		return err
	}
	for id, pages := range map[*string]int{&b.big: b.o.Pages, &b.small: b.o.SmallPages} {
		if err := q.QueryRow(ctx, `SELECT id FROM spaces WHERE title = ?`, fmt.Sprintf("%d pages", pages)).Scan(id); err != nil {
			return fmt.Errorf("no space of %d pages in %s: %w", pages, b.o.Reuse, err)
		}
	}
	return nil
}

// rowsOf splits every page into its index rows, on every core.
func rowsOf(spaceID string, tree *contenttree.Tree) []search.Row {
	pages := make([]contenttree.Page, 0, len(tree.Pages))
	for _, p := range tree.Pages {
		pages = append(pages, p)
	}
	parts := make([][]search.Row, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(pages); i += len(parts) {
				parts[w] = append(parts[w], search.PageRows(spaceID, pages[i])...)
			}
		}()
	}
	wg.Wait()
	var rows []search.Row
	for _, p := range parts {
		rows = append(rows, p...)
	}
	return rows
}

// get sends an authenticated GET and returns the status and the time to the whole answer.
func (b *bench) do(ctx context.Context, method, path, body string) (int, []byte, time.Duration, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, b.app.BaseURL+path, rd)
	if err != nil {
		return 0, nil, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+b.token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := b.client.Do(req)
	if err != nil {
		return 0, nil, 0, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, data, time.Since(start), err
}

// openRaw opens the database read-only beside the server, for the raw query times. It maps the
// file as docsd's own read connections do, so the ratio compares the work done, not settings.
func openRaw(path string) (*sql.DB, error) {
	return sql.Open("sqlite", "file:"+path+"?_pragma=query_only(1)&_pragma=busy_timeout(10000)&_pragma=mmap_size("+
		strconv.Itoa(store.ReadMmapSize)+")")
}

func searchPath(spaceID, query string) string {
	return "/v1/spaces/" + spaceID + "/search?query=" + url.QueryEscape(query)
}
