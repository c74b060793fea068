// Package crashtest kills docsd with SIGKILL while writers are busy, restarts it, and checks
// that every write the server acknowledged survived, and that imports it queued (answered
// 202) complete soon after the restart. It runs the shipped binary as a child process on a
// fresh data directory: SQLite, or a schema of its own in a PostgreSQL database.
package crashtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"docsd/internal/childserver"
	"docsd/internal/ids"
	_ "docsd/internal/store" // registers the pgx driver
)

// Config says how hard and how long to test.
type Config struct {
	Bin      string // the docsd binary
	WorkDir  string // data directory and logs go here
	Postgres string // a postgres:// URL to run on (a schema of its own, dropped after); "" for SQLite
	Cycles   int    // kills and restarts
	Writers  int    // concurrent writers
	// Each cycle lets the writers run for a random time in [MinRun, MaxRun] before the kill.
	MinRun, MaxRun time.Duration
	// ImportPages is the size of each queued import; the server is told to commit imports of
	// fewer pages within their request, so that each of these is a job.
	ImportPages int
	// ImportDeadline is how long after a restart a queued import may take to complete.
	ImportDeadline time.Duration
	Log            io.Writer // progress lines; nil for none
}

// Report is what a run found.
type Report struct {
	Engine         string
	Cycles         int
	Acknowledged   int            // writes the server acknowledged, queued imports included
	Lost           []string       // acknowledged writes not found afterwards
	QueuedImports  int            // imports answered 202
	LateImports    []string       // queued imports not complete within ImportDeadline of a restart
	MaxImportAfter time.Duration  // the longest a queued import took to complete after a restart
	Refused        map[string]int // writes answered with an unexpected status, by answer
	Elapsed        time.Duration
}

// Run runs the crash loop.
func Run(ctx context.Context, cfg Config) (Report, error) {
	started := time.Now()
	rep := Report{Engine: "sqlite"}
	if cfg.Postgres != "" {
		rep.Engine = "postgres"
	}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	dataDir := filepath.Join(cfg.WorkDir, "data")
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return rep, err
	}
	dbURL := ""
	if cfg.Postgres != "" {
		u, drop, err := postgresSchema(ctx, cfg.Postgres)
		if err != nil {
			return rep, err
		}
		defer drop()
		dbURL = u
	}
	opts := childserver.Options{Bin: cfg.Bin, DataDir: dataDir, DatabaseURL: dbURL,
		LogPath: filepath.Join(cfg.WorkDir, "docsd.log"),
		// The loop's own traffic is not what it tests, and on PostgreSQL rate-limit counts
		// outlive a restart: limits are off.
		Env: []string{"DOCSD_LOG_LEVEL=warn", fmt.Sprintf("DOCSD_IMPORT_SYNC_PAGES=%d", cfg.ImportPages-1),
			"DOCSD_RATE_LIMIT_TOKEN=0", "DOCSD_RATE_LIMIT_ADDRESS=0", "DOCSD_RATE_LIMIT_EXPENSIVE=0"}}

	srv, err := childserver.Start(ctx, opts)
	if err != nil {
		return rep, err
	}
	token := srv.Token
	if token == "" {
		srv.Kill()
		return rep, errors.New("docsd printed no API token on its first start")
	}
	c := newClient(srv.Base, token)
	var orgs struct{ Items []idOnly }
	if err := c.send(ctx, "GET", "/v1/orgs", nil, 200, &orgs); err != nil || len(orgs.Items) == 0 {
		srv.Kill()
		return rep, fmt.Errorf("the bootstrap organization: %v", err)
	}
	l := &ledger{refused: map[string]int{}}
	writers := make([]*writer, cfg.Writers)
	for i := range writers {
		writers[i] = &writer{id: i, org: orgs.Items[0].ID, l: l, archive: func(marker string) ([]byte, int, error) {
			b, err := archive(marker, cfg.ImportPages)
			return b, cfg.ImportPages, err
		}}
	}

	for cycle := 1; cycle <= cfg.Cycles; cycle++ {
		run := cfg.MinRun + rand.N(cfg.MaxRun-cfg.MinRun+1)
		wctx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		for _, w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w.run(wctx, newClient(srv.Base, token))
			}()
		}
		select {
		case <-time.After(run):
		case <-ctx.Done():
		}
		srv.Kill()
		stop()
		wg.Wait()
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		rep.Cycles = cycle

		if srv, err = childserver.Start(ctx, opts); err != nil {
			return rep, fmt.Errorf("restart after kill %d: %w", cycle, err)
		}
		ready := time.Now()
		c = newClient(srv.Base, token)
		fresh, imports := l.takeFresh()
		lost := verify(ctx, c, fresh)
		rep.Lost = append(rep.Lost, lost...)
		late, longest := awaitImports(ctx, c, imports, ready, cfg.ImportDeadline)
		rep.LateImports = append(rep.LateImports, late...)
		rep.MaxImportAfter = max(rep.MaxImportAfter, longest)
		logf("%s cycle %d: ran %v before the kill; %d writes acknowledged since the last restart, %d lost; %d queued imports, slowest complete %v after the restart, %d late",
			rep.Engine, cycle, run.Round(time.Millisecond), len(fresh), len(lost), len(imports), longest.Round(time.Millisecond), len(late))
	}
	// Every acknowledged write once more, against the last start. Imports already reported
	// late are not counted again as lost.
	late := map[string]bool{}
	for _, w := range rep.LateImports {
		late[w] = true
	}
	var all []acked
	for _, a := range l.acks {
		if !late[a.what] {
			all = append(all, a)
		}
	}
	rep.Lost = append(rep.Lost, verify(ctx, c, all)...)
	srv.Stop()
	rep.Acknowledged = len(l.acks)
	rep.QueuedImports = l.queued
	rep.Refused = l.refused
	rep.Elapsed = time.Since(started)
	sort.Strings(rep.Lost)
	return rep, nil
}

// takeFresh returns the writes acknowledged since the last call and the imports queued.
func (l *ledger) takeFresh() ([]acked, []pendingImport) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fresh, imports := l.fresh, l.imports
	l.fresh, l.imports = nil, nil
	l.queued += len(imports)
	// A queued import is an acknowledged write too, checked by awaitImports.
	for _, p := range imports {
		l.acks = append(l.acks, acked{p.what, func(ctx context.Context, c *client) error {
			done, err := importDone(ctx, c, p)
			if err == nil && !done {
				err = errors.New("the imported pages are not in the space")
			}
			return err
		}})
	}
	return fresh, imports
}

// verify checks writes, eight at a time, and returns those that failed.
func verify(ctx context.Context, c *client, writes []acked) []string {
	var mu sync.Mutex
	var lost []string
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, a := range writes {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := a.check(ctx, c); err != nil {
				mu.Lock()
				lost = append(lost, a.what+": "+err.Error())
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return lost
}

// awaitImports polls the queued imports until each is complete or deadline has passed since
// ready, and returns the late ones and the longest time one took.
func awaitImports(ctx context.Context, c *client, imports []pendingImport, ready time.Time, deadline time.Duration) (late []string, longest time.Duration) {
	left := imports
	for len(left) > 0 {
		var still []pendingImport
		for _, p := range left {
			if done, err := importDone(ctx, c, p); err != nil || !done {
				still = append(still, p)
				continue
			}
			longest = max(longest, time.Since(ready))
		}
		left = still
		if len(left) == 0 || time.Since(ready) > deadline || ctx.Err() != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, p := range left {
		late = append(late, p.what)
	}
	if len(left) > 0 {
		longest = max(longest, time.Since(ready))
	}
	return late, longest
}

// postgresSchema makes a schema of its own in the database at pg and returns a URL that
// selects it, and a function that drops it.
func postgresSchema(ctx context.Context, pg string) (string, func(), error) {
	u, err := url.Parse(pg)
	if err != nil {
		return "", nil, fmt.Errorf("postgres URL: %w", err)
	}
	admin, err := sql.Open("pgx", pg)
	if err != nil {
		return "", nil, err
	}
	schema := "crashtest_" + strings.ToLower(ids.Random(10))
	if _, err := admin.ExecContext(ctx, `CREATE SCHEMA `+schema); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("create schema: %w", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), func() {
		admin.ExecContext(context.Background(), `DROP SCHEMA `+schema+` CASCADE`)
		admin.Close()
	}, nil
}
