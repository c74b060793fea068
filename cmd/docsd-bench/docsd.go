package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, to make -postgres's schema
)

// docsdOptions are how docsd is started.
type docsdOptions struct {
	Binary      string
	DataDir     string
	LogPath     string // its stderr: the request log and any error
	LogLevel    string
	CPUProfile  string // written by docsd when it stops; empty for none
	DatabaseURL string // empty: SQLite in DataDir
	// Joining starts another instance on a database that has its administrator already:
	// it prints no token, and none is waited for.
	Joining bool
}

// startDocsd runs `docsd serve` on a fresh data directory (and database) and a free loopback port,
// and returns it with the API token its first start prints.
func startDocsd(ctx context.Context, o docsdOptions) (*server, string, error) {
	logFile, err := os.Create(o.LogPath)
	if err != nil {
		return nil, "", err
	}
	defer logFile.Close() // the child holds its own descriptor
	cmd := exec.Command(o.Binary, "serve", "-addr", "127.0.0.1:0", "-data-dir", o.DataDir)
	// The load comes from one token and one address, far past the default rate limits: they
	// are set out of reach, so that every request still pays for counting.
	cmd.Env = childEnv("DOCSD_LOG_LEVEL="+o.LogLevel, "DOCSD_CPU_PROFILE="+o.CPUProfile, "DOCSD_DATABASE_URL="+o.DatabaseURL,
		"DOCSD_RATE_LIMIT_TOKEN=1000000000", "DOCSD_RATE_LIMIT_ADDRESS=1000000000", "DOCSD_RATE_LIMIT_EXPENSIVE=1000000000")
	cmd.Stderr = logFile
	const tokenLine, serveLine = "API token: ", "docsd is serving the API at "
	want := []string{tokenLine, serveLine}
	if o.Joining {
		want = want[1:]
	}
	s, got, err := start(ctx, "docsd", cmd, want...)
	if err != nil {
		return nil, "", fmt.Errorf("%w; the end of its log:\n%s", err, tail(o.LogPath, 2000))
	}
	apiURL, _, _ := strings.Cut(got[serveLine], " ")
	u, err := url.Parse(apiURL)
	if err != nil || u.Host == "" {
		s.stop()
		return nil, "", fmt.Errorf("docsd printed an API address we cannot read: %q", got[serveLine])
	}
	s.addr = u.Host
	return s, strings.TrimSpace(got[tokenLine]), nil
}

// client is for the few set-up requests, not for load.
var client = &http.Client{Timeout: 30 * time.Second}

// get fetches path from addr with the token and returns the status and body.
func get(ctx context.Context, addr, path, token string) (int, []byte, error) {
	return send(ctx, addr, token, http.MethodGet, path, "")
}

// send makes one request with the token and a JSON body ("" for none) and returns the status
// and body.
func send(ctx context.Context, addr, token, method, path, body string) (int, []byte, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://"+addr+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return resp.StatusCode, b, err
}

// firstOrgID asks docsd for the caller's organizations and returns the first one's id: on a
// fresh data directory that is the organization the first start made.
func firstOrgID(ctx context.Context, addr, token string) (string, error) {
	status, body, err := get(ctx, addr, "/v1/orgs", token)
	if err != nil {
		return "", err
	}
	var list struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &list) != nil || len(list.Items) == 0 {
		return "", fmt.Errorf("GET /v1/orgs answered %d: %.200s", status, body)
	}
	return list.Items[0].ID, nil
}

// tail is the last n bytes of a file, for error messages.
func tail(path string, n int64) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > n {
		f.Seek(st.Size()-n, io.SeekStart)
	}
	b, _ := io.ReadAll(io.LimitReader(f, n))
	return string(b)
}

// freshSchema creates an empty schema in the PostgreSQL database at dsn and returns a URL
// whose connections use it, and a function that drops it.
func freshSchema(ctx context.Context, dsn string) (string, func(), error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return "", nil, err
	}
	name := fmt.Sprintf("docsd_bench_%d", time.Now().UnixNano())
	if _, err := db.ExecContext(ctx, `CREATE SCHEMA `+name); err != nil {
		db.Close()
		return "", nil, fmt.Errorf("-postgres: create schema: %w", err)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		db.Close()
		return "", nil, err
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	drop := func() {
		db.ExecContext(context.Background(), `DROP SCHEMA `+name+` CASCADE`)
		db.Close()
	}
	return u.String(), drop, nil
}
