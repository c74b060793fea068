// Command docsd-durability measures what SQLite's synchronous setting costs a write: it
// starts docsd in-process once per setting (each on its own data directory, on the file
// system given), and times typical API writes (renaming a space, opening a change request)
// through HTTP, the settings taking turns in rounds so that the machine's load falls on
// each alike. It prints milliseconds per write and writes per second for each setting.
//
//	go run ./cmd/docsd-durability [-dir DIR] [-rounds 6] [-writes 40] [-modes normal,full]
//
// The data directory must be on the file system docsd will run on: on tmpfs fsync costs
// nothing and the figures say nothing.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"docsd/internal/app"
	"docsd/internal/config"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "docsd-durability:", err)
		os.Exit(1)
	}
}

// target is one docsd under measurement.
type target struct {
	mode    string
	app     *app.App
	token   string
	spaceID string
	stop    func()
	elapsed time.Duration
	writes  int
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("docsd-durability", flag.ContinueOnError)
	dir := fs.String("dir", "", "parent of the data directories (default: a temporary directory under the current one)")
	rounds := fs.Int("rounds", 6, "rounds; each round times -writes writes on every setting in turn")
	writes := fs.Int("writes", 40, "writes per setting per round")
	modes := fs.String("modes", "normal,full", "synchronous settings to compare, comma-separated")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *rounds < 1 || *rounds > 1000 || *writes < 1 || *writes > 10000 {
		return fmt.Errorf("-rounds must be 1..1000 and -writes 1..10000")
	}
	parent := *dir
	if parent == "" {
		// The working directory, not /tmp: /tmp may be a tmpfs, where fsync is free.
		d, err := os.MkdirTemp(".", "docsd-durability-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		parent = d
	}
	var targets []*target
	defer func() {
		for _, t := range targets {
			t.stop()
		}
	}()
	for _, mode := range strings.Split(*modes, ",") {
		t, err := start(ctx, filepath.Join(parent, mode), strings.TrimSpace(mode))
		if err != nil {
			return err
		}
		targets = append(targets, t)
	}
	client := &http.Client{Timeout: 30 * time.Second}
	for _, t := range targets { // warm up: connections, prepared statements, page cache
		for i := range 5 {
			if err := t.write(ctx, client, i); err != nil {
				return err
			}
		}
	}
	for r := range *rounds {
		order := slices.Clone(targets)
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, t := range order {
			begin := time.Now()
			for i := range *writes {
				if err := t.write(ctx, client, r*(*writes)+i); err != nil {
					return err
				}
			}
			t.elapsed += time.Since(begin)
			t.writes += *writes
		}
	}
	fmt.Fprintf(out, "%-10s %8s %12s %12s\n", "synchronous", "writes", "ms/write", "writes/s")
	for _, t := range targets {
		per := t.elapsed.Seconds() * 1000 / float64(t.writes)
		fmt.Fprintf(out, "%-10s %8d %12.2f %12.0f\n", t.mode, t.writes, per, float64(t.writes)/t.elapsed.Seconds())
	}
	return nil
}

// start runs docsd with the given synchronous setting on a fresh data directory, with a user,
// an organization and a space to write to.
func start(ctx context.Context, dataDir, mode string) (*target, error) {
	cfg := config.Defaults()
	cfg.Addr, cfg.DataDir, cfg.SQLiteSynchronous = "127.0.0.1:0", dataDir, mode
	cfg.DatabaseURL = filepath.Join(dataDir, "docsd.db")
	a, err := app.Open(ctx, cfg, app.Options{})
	if err != nil {
		return nil, err
	}
	if got, err := a.DB.SQLiteSynchronous(ctx); err != nil || got != mode {
		a.Close()
		return nil, fmt.Errorf("synchronous %s: the connection reads back %q (%v)", mode, got, err)
	}
	if err := a.Listen(); err != nil {
		a.Close()
		return nil, err
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- a.Serve(sctx) }()
	t := &target{mode: mode, app: a, stop: func() { cancel(); <-done; a.Close() }}
	u, err := a.Accounts.CreateUser(ctx, "bench-"+mode+"@example.test", "Bench", true)
	if err == nil {
		t.token, err = a.Accounts.CreateToken(ctx, u.Email)
	}
	var orgID string
	if err == nil {
		org, oerr := a.Orgs.Create(ctx, "Bench", u.ID)
		orgID, err = org.ID, oerr
	}
	if err == nil {
		var sp struct{ ID string }
		err = t.call(ctx, http.DefaultClient, "POST", "/v1/orgs/"+orgID+"/spaces", map[string]any{"title": "Bench"}, &sp)
		t.spaceID = sp.ID
	}
	if err != nil {
		t.stop()
		return nil, err
	}
	return t, nil
}

// write makes one typical API write, alternating two kinds: a rename of the space and a new
// change request.
func (t *target) write(ctx context.Context, client *http.Client, i int) error {
	if i%2 == 0 {
		return t.call(ctx, client, "PATCH", "/v1/spaces/"+t.spaceID, map[string]any{"title": fmt.Sprintf("Bench %d", i)}, nil)
	}
	return t.call(ctx, client, "POST", "/v1/spaces/"+t.spaceID+"/change-requests", map[string]any{"subject": fmt.Sprintf("Change %d", i)}, nil)
}

func (t *target) call(ctx context.Context, client *http.Client, method, path string, body, into any) error {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, method, t.app.BaseURL+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+t.token)
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, data)
	}
	if into != nil {
		return json.Unmarshal(data, into)
	}
	return nil
}
