// Package apitest boots the real docsd on a loopback port with a fresh database for each
// test, and speaks to it over HTTP the way a client would.
//
// Tests run on SQLite (a temporary file) by default, and on PostgreSQL (a schema of its own
// per test) when DOCSD_TEST_POSTGRES holds a postgres:// URL.
package apitest

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"docsd/internal/apispec"
	"docsd/internal/app"
	"docsd/internal/auth"
	"docsd/internal/clock"
	"docsd/internal/config"
	"docsd/internal/ids"
)

// Env is one running server with its own database.
type Env struct {
	T     testing.TB
	App   *app.App
	URL   string // base URL, e.g. http://127.0.0.1:41234
	Clock *clock.Fake
	// Admin is a user who is an admin of Org.
	Admin Actor
	Org   string
	http  *http.Client
	// judges judge every answer by the API's specs (judge.go); unjudged turns that off for
	// an Env from Unjudged.
	judges   *judges
	unjudged bool
}

// Actor is a user with an API token.
type Actor struct {
	ID    string
	Email string
	Name  string
	Token string
}

// PostgresURL is the database URL the suite runs on PostgreSQL with, or "".
func PostgresURL() string { return os.Getenv("DOCSD_TEST_POSTGRES") }

// Engine names the engine the suite runs on, for test output.
func Engine() string {
	if PostgresURL() != "" {
		return "postgres"
	}
	return "sqlite"
}

// DatabaseURL returns a fresh, empty database for one test and arranges its removal.
func DatabaseURL(t testing.TB) string {
	t.Helper()
	pg := PostgresURL()
	if pg == "" {
		return filepath.Join(t.TempDir(), "docsd.db")
	}
	schema := "t_" + strings.ToLower(ids.Random(12))
	admin, err := sql.Open("pgx", pg)
	if err != nil {
		t.Fatalf("open postgres: %v", err)
	}
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		admin.Close()
	})
	u, err := url.Parse(pg)
	if err != nil {
		t.Fatalf("DOCSD_TEST_POSTGRES: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

var userSeq atomic.Int64

// New starts a server on a fresh database, with an admin user and an organization.
func New(t testing.TB) *Env {
	t.Helper()
	return NewWithConfig(t, func(*config.Config) {})
}

// NewWithConfig is New with a chance to adjust the configuration first.
func NewWithConfig(t testing.TB, adjust func(*config.Config)) *Env {
	t.Helper()
	cfg := config.Defaults()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = t.TempDir()
	cfg.DatabaseURL = DatabaseURL(t)
	cfg.FetchAllowPrivate = true
	// Limits every request passes through, set so high that no test meets one by chance;
	// tests of the limits set their own.
	cfg.RateLimitToken, cfg.RateLimitAddress, cfg.RateLimitExpensive = 1e9, 1e9, 1e9
	adjust(&cfg)
	fake := clock.NewFake()
	a := serve(t, cfg, fake)
	e := &Env{T: t, App: a, URL: a.BaseURL, Clock: fake, judges: startJudging(t),
		http: &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}}
	e.Admin = e.NewUser("admin")
	e.Org = e.NewOrg(e.Admin, "Test Organization")
	return e
}

// Peer starts another server on the env's database, as another process of a fleet sharing
// it would be: the same database, data directory and clock, and nothing in memory. It has
// the env's admin and organization, and stops with the test.
func (e *Env) Peer() *Env {
	e.T.Helper()
	cfg := e.App.Config
	cfg.Addr, cfg.BaseURL = "127.0.0.1:0", ""
	a := serve(e.T, cfg, e.Clock)
	return &Env{T: e.T, App: a, URL: a.BaseURL, Clock: e.Clock, Admin: e.Admin, Org: e.Org, http: e.http,
		judges: e.judges, unjudged: e.unjudged}
}

// Unjudged returns the env for requests whose answers no spec describes, and which are
// therefore not judged: raw, non-API paths only (health, metrics, published site HTML).
func (e *Env) Unjudged() *Env {
	c := *e
	c.unjudged = true
	return &c
}

// serve opens and starts the program, and arranges its stop.
func serve(t testing.TB, cfg config.Config, clk *clock.Fake) *app.App {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.Open(ctx, cfg, app.Options{Clock: clk})
	if err != nil {
		cancel()
		t.Fatalf("open app: %v", err)
	}
	if err := a.Listen(); err != nil {
		cancel()
		a.Close()
		t.Fatalf("listen: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		a.Close()
	})
	return a
}

// NewUser creates a user (email domain example.test, verified) with an API token.
func (e *Env) NewUser(name string) Actor {
	e.T.Helper()
	n := userSeq.Add(1)
	email := fmt.Sprintf("%s-%d-%s@example.test", strings.ToLower(strings.ReplaceAll(name, " ", "-")), n, strings.ToLower(ids.Random(4)))
	return e.NewUserWithEmail(name, email)
}

// NewUserWithEmail creates a user with the given email and an API token.
func (e *Env) NewUserWithEmail(name, email string) Actor {
	e.T.Helper()
	ctx := context.Background()
	u, err := e.App.Accounts.CreateUser(ctx, email, name, true)
	if err != nil {
		e.T.Fatalf("create user: %v", err)
	}
	tok, err := e.App.Accounts.CreateToken(ctx, u.Email)
	if err != nil {
		e.T.Fatalf("create token: %v", err)
	}
	return Actor{ID: u.ID, Email: u.Email, Name: name, Token: tok}
}

// NewOrg creates an organization owned (as admin) by owner and returns its id.
func (e *Env) NewOrg(owner Actor, title string) string {
	e.T.Helper()
	o, err := e.App.Orgs.Create(context.Background(), title, owner.ID)
	if err != nil {
		e.T.Fatalf("create org: %v", err)
	}
	return o.ID
}

// AddMember makes a a member of orgID with role ("" for a guest).
func (e *Env) AddMember(orgID string, a Actor, role auth.Role) {
	e.T.Helper()
	if err := e.App.Orgs.AddMember(context.Background(), orgID, a.ID, role); err != nil {
		e.T.Fatalf("add member: %v", err)
	}
}

// Member creates a user and makes them a member of the env's organization with role.
func (e *Env) Member(name string, role auth.Role) Actor {
	e.T.Helper()
	a := e.NewUser(name)
	e.AddMember(e.Org, a, role)
	return a
}

// Do sends a request as actor (no Authorization header when actor.Token is empty). body is
// sent as JSON unless it is a string or []byte, which are sent as they are.
func (e *Env) Do(actor Actor, method, path string, body any) *Resp {
	e.T.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			e.T.Fatalf("encode body: %v", err)
		}
		rd = bytes.NewReader(buf)
	}
	contentType := ""
	if body != nil {
		contentType = "application/json"
	}
	return e.send(actor, method, path, contentType, rd)
}

// Upload sends body as it is, with the given Content-Type (archives, files).
func (e *Env) Upload(actor Actor, method, path, contentType string, body []byte) *Resp {
	e.T.Helper()
	return e.send(actor, method, path, contentType, bytes.NewReader(body))
}

func (e *Env) send(actor Actor, method, path, contentType string, rd io.Reader) *Resp {
	e.T.Helper()
	req, err := http.NewRequest(method, e.URL+path, rd)
	if err != nil {
		e.T.Fatalf("new request: %v", err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if actor.Token != "" {
		req.Header.Set("Authorization", "Bearer "+actor.Token)
	}
	res, err := e.http.Do(req)
	if err != nil {
		e.T.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		e.T.Fatalf("%s %s: read body: %v", method, path, err)
	}
	if !e.unjudged {
		// The answer judged is the last one: the client follows redirects.
		e.judges.judge(e.T, apispec.Answer{Method: res.Request.Method, Path: res.Request.URL.EscapedPath(),
			Status: res.StatusCode, ContentType: res.Header.Get("Content-Type"), Body: data})
	}
	return &Resp{t: e.T, Method: method, Path: path, Status: res.StatusCode, Header: res.Header, Body: data}
}

// Get, Post, Put, Patch and Delete are Do with a method.
func (e *Env) Get(a Actor, path string) *Resp { e.T.Helper(); return e.Do(a, "GET", path, nil) }
func (e *Env) Post(a Actor, path string, body any) *Resp {
	e.T.Helper()
	return e.Do(a, "POST", path, body)
}
func (e *Env) Put(a Actor, path string, body any) *Resp {
	e.T.Helper()
	return e.Do(a, "PUT", path, body)
}
func (e *Env) Patch(a Actor, path string, body any) *Resp {
	e.T.Helper()
	return e.Do(a, "PATCH", path, body)
}
func (e *Env) Delete(a Actor, path string) *Resp { e.T.Helper(); return e.Do(a, "DELETE", path, nil) }

// Anonymous is an actor without a token.
var Anonymous = Actor{}

// Resp is a response, with helpers to assert on it.
type Resp struct {
	t      testing.TB
	Method string
	Path   string
	Status int
	Header http.Header
	Body   []byte
}

// Expect fails the test unless the status is want. It returns r for chaining.
func (r *Resp) Expect(want int) *Resp {
	r.t.Helper()
	if r.Status != want {
		r.t.Fatalf("%s %s: status %d, want %d; body: %s", r.Method, r.Path, r.Status, want, truncate(r.Body))
	}
	if want >= 400 {
		r.ExpectError(want)
	}
	return r
}

// ExpectError checks the error body shape: {"error":{"code":status,"message":"..."}}.
func (r *Resp) ExpectError(status int) *Resp {
	r.t.Helper()
	var body struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil || body.Error == nil {
		r.t.Fatalf("%s %s: error body is not {error:{code,message}}: %s", r.Method, r.Path, truncate(r.Body))
	}
	if body.Error.Code != status || body.Error.Message == "" {
		r.t.Fatalf("%s %s: error body %s, want code %d with a message", r.Method, r.Path, truncate(r.Body), status)
	}
	return r
}

// ExpectMessage checks that the error message contains each fragment (a field name, a limit).
func (r *Resp) ExpectMessage(fragments ...string) *Resp {
	r.t.Helper()
	msg := r.Str("error.message")
	for _, f := range fragments {
		if !strings.Contains(msg, f) {
			r.t.Fatalf("%s %s: error message %q does not mention %q", r.Method, r.Path, msg, f)
		}
	}
	return r
}

// JSON decodes the body into v.
func (r *Resp) JSON(v any) {
	r.t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		r.t.Fatalf("%s %s: decode body: %v; body: %s", r.Method, r.Path, err, truncate(r.Body))
	}
}

// Map decodes the body as an object.
func (r *Resp) Map() map[string]any {
	r.t.Helper()
	var m map[string]any
	r.JSON(&m)
	return m
}

// Get returns the value at a dotted path ("items.0.id"); ok is false when absent.
func (r *Resp) Get(path string) (any, bool) {
	r.t.Helper()
	var v any
	r.JSON(&v)
	return Lookup(v, path)
}

// Lookup walks a decoded JSON value along a dotted path.
func Lookup(v any, path string) (any, bool) {
	if path == "" {
		return v, true
	}
	for _, part := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[part]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// Str returns the string at path, failing the test if it is absent or not a string.
func (r *Resp) Str(path string) string {
	r.t.Helper()
	v, ok := r.Get(path)
	s, isStr := v.(string)
	if !ok || !isStr {
		r.t.Fatalf("%s %s: %s is %v, want a string; body: %s", r.Method, r.Path, path, v, truncate(r.Body))
	}
	return s
}

// Num returns the number at path.
func (r *Resp) Num(path string) float64 {
	r.t.Helper()
	v, ok := r.Get(path)
	n, isNum := v.(float64)
	if !ok || !isNum {
		r.t.Fatalf("%s %s: %s is %v, want a number; body: %s", r.Method, r.Path, path, v, truncate(r.Body))
	}
	return n
}

// Bool returns the boolean at path.
func (r *Resp) Bool(path string) bool {
	r.t.Helper()
	v, ok := r.Get(path)
	b, isBool := v.(bool)
	if !ok || !isBool {
		r.t.Fatalf("%s %s: %s is %v, want a boolean; body: %s", r.Method, r.Path, path, v, truncate(r.Body))
	}
	return b
}

// Has reports whether path is present (null counts as present).
func (r *Resp) Has(path string) bool {
	r.t.Helper()
	_, ok := r.Get(path)
	return ok
}

// Items returns the `items` array of a list answer.
func (r *Resp) Items() []map[string]any {
	r.t.Helper()
	var l struct {
		Items []map[string]any `json:"items"`
	}
	r.JSON(&l)
	return l.Items
}

// IDs returns the `id` of every item of a list answer.
func (r *Resp) IDs() []string {
	r.t.Helper()
	var out []string
	for _, it := range r.Items() {
		id, _ := it["id"].(string)
		out = append(out, id)
	}
	return out
}

// WalkList follows `next.page` from path (which may already carry a query) with the given
// page size and returns every item, failing on a page that breaks the envelope.
func (e *Env) WalkList(a Actor, path string, limit int) []map[string]any {
	e.T.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var all []map[string]any
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 10000 {
			e.T.Fatalf("%s: more than 10000 pages", path)
		}
		p := path + sep + "limit=" + strconv.Itoa(limit)
		if cursor != "" {
			p += "&page=" + url.QueryEscape(cursor)
		}
		r := e.Get(a, p).Expect(200)
		var l struct {
			Next *struct {
				Page string `json:"page"`
			} `json:"next"`
			Count *int             `json:"count"`
			Items []map[string]any `json:"items"`
		}
		r.JSON(&l)
		if l.Count == nil || l.Items == nil {
			e.T.Fatalf("%s: list envelope lacks count or items: %s", p, truncate(r.Body))
		}
		if len(l.Items) > limit {
			e.T.Fatalf("%s: %d items on a page of %d", p, len(l.Items), limit)
		}
		all = append(all, l.Items...)
		if l.Next == nil {
			return all
		}
		if l.Next.Page == "" {
			e.T.Fatalf("%s: next without page", p)
		}
		cursor = l.Next.Page
	}
}

func truncate(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "…"
	}
	return string(b)
}

// Attach speaks to a server the test started itself (on data restored from a backup, say),
// as admin, whose organization is org.
func Attach(t testing.TB, a *app.App, admin Actor, org string) *Env {
	return &Env{T: t, App: a, URL: a.BaseURL, Admin: admin, Org: org, judges: startJudging(t),
		http: &http.Client{Timeout: 60 * time.Second}}
}

// RunDue runs the jobs that are due and then the outbox's consumers, until neither has
// anything left (a job may write events, a consumer may enqueue jobs), a bounded number of
// times: what the server's background workers would do, done now. A batch a background worker
// of this server is in the middle of is waited for, not run twice.
func (e *Env) RunDue() {
	e.T.Helper()
	for range 10 {
		jobs, err := e.App.Jobs.RunDue(e.T.Context())
		if err != nil {
			e.T.Fatal(err)
		}
		events, err := e.App.Outbox.RunPending(e.T.Context())
		if err != nil {
			e.T.Fatal(err)
		}
		if jobs == 0 && events == 0 {
			return
		}
	}
}
