// Package config builds docsd's typed configuration from flags and DOCSD_* environment
// variables (flags win), with defaults and validation.
package config

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Config is everything the server and the admin commands need to know.
type Config struct {
	Addr              string // listen address
	DataDir           string // where SQLite and local file bytes live
	DatabaseURL       string // postgres://… or a SQLite path; empty means SQLite in DataDir
	BaseURL           string // public base URL used in every `urls` field
	FetchAllowPrivate bool   // outbound fetches may reach loopback and private addresses
	MaxBodyBytes      int64  // cap on request bodies
	// BodyMemoryBytes bounds the request bodies held in memory at once, across requests.
	BodyMemoryBytes int64
	// RateLimitToken, RateLimitAddress and RateLimitExpensive are requests a minute per API
	// token, per client address, and per token (or address) on expensive routes (imports,
	// PDF, search, exports); 0 turns one off. Processes on one PostgreSQL share the counts.
	RateLimitToken, RateLimitAddress, RateLimitExpensive int64
	LogLevel                                             slog.Level // minimum level of log lines
	CPUProfile                                           string     // file to write a CPU profile of the serving run to, for diagnosis; empty for none
	// HeapProfile is a file to write a heap profile to when serving stops (live objects and
	// all allocations of the run), to find what holds memory; empty for none.
	HeapProfile string
	BlobS3      BlobS3 // S3-compatible store for file bytes; none means DataDir/blobs
	// FetchMaxConcurrent bounds the outbound fetches (Git imports...) running at once; more
	// wait a few seconds for a slot, then get 503.
	FetchMaxConcurrent int
	// FetchTestPublic is for tests only (no flag or variable sets it): addresses the outbound
	// policy treats as public, so a loopback server can play an outside server that redirects
	// inwards.
	FetchTestPublic []netip.AddrPort
	// GitImportSyncPages is the most pages a Git import commits within its request; a larger
	// tree is committed by a durable job.
	GitImportSyncPages int
	// ImportSyncPages is the most pages an uploaded archive import commits within its request;
	// a larger tree is committed by a durable job, as a large Git import is.
	ImportSyncPages int
	// PDFMaxPages is the most pages a PDF export may hold; a larger selection is refused.
	PDFMaxPages int
	// SQLiteSynchronous is SQLite's synchronous setting (off, normal, full, extra): what an
	// acknowledged write survives. Ignored on PostgreSQL.
	SQLiteSynchronous string
	// OutboxRetention is how long events are kept in the outbox before they are pruned.
	OutboxRetention time.Duration

	// OpenAPI specs: how often URL sources are fetched again (conditionally), and how long
	// one fetch of a spec's file may take.
	OpenAPIRefreshInterval time.Duration
	OpenAPIFetchTimeout    time.Duration

	// IntegrationTunnelTimeout bounds one request to an integration's development tunnel: an
	// event delivery (then retried with backoff) or a synchronous event a caller waits on.
	IntegrationTunnelTimeout time.Duration

	// Pandoc is the program .docx imports are converted with: a name looked up on PATH or a
	// path; "off" refuses .docx imports. When it is not installed they are refused too.
	Pandoc string

	// IntegrationSecretsKey encrypts integrations' secrets at rest (at least 32 characters).
	// Empty: a key is made once and kept in DataDir/integration-secrets.key; processes sharing
	// a PostgreSQL database must then be given the same key.
	IntegrationSecretsKey string
	// Language configures translation and conversation language providers (language.go).
	Language Language

	// Script holds the hard limits of one run of an integration script (internal/jsrun).
	Script ScriptLimits
}

// ScriptLimits bound one invocation of an integration script: an event, a render, a request to
// a public endpoint. The defaults are internal/jsrun's.
type ScriptLimits struct {
	Time          time.Duration // wall time, promise jobs, timers and outbound requests included
	MemoryBytes   int           // what the VM may allocate
	Stack         int           // call depth, in the engine's stack slots
	ResponseBytes int           // largest body a script may answer
	Fetches       int           // outbound requests per invocation
	// WarmVMs is how many VMs per script are kept loaded ahead of its events (each still runs
	// one event); 0 (the default) loads one per event. Warming shortens an event's wait only
	// when the machine has CPU to spare between events, and costs CPU (see the jsrun
	// benchmarks), so it is a choice, not the default.
	WarmVMs int
}

// minScriptMemory is the least memory a script may be given: the web APIs alone take about a
// megabyte before the script loads.
const minScriptMemory = 4 << 20

// Defaults are the values used when neither a flag nor the environment sets one.
func Defaults() Config {
	return Config{
		Addr:         "127.0.0.1:8080",
		DataDir:      "./docsd-data",
		MaxBodyBytes: 32 << 20,
		// Decoding holds about three to four times a JSON body's size until the garbage
		// collector runs: 32 MiB of bodies keeps the server's peak well under 300 MB under
		// an attack of large bodies (go run ./cmd/docsd-bodybench).
		BodyMemoryBytes: 32 << 20,
		// Generous for a team: a person's browser or script rarely passes a few hundred a
		// minute, and an office behind one address shares the address limit.
		RateLimitToken:     6000,
		RateLimitAddress:   12000,
		RateLimitExpensive: 600,
		LogLevel:           slog.LevelInfo,
		BlobS3:             BlobS3{UseTLS: true},

		FetchMaxConcurrent: 8,
		GitImportSyncPages: 200,
		ImportSyncPages:    200,
		PDFMaxPages:        2000,

		SQLiteSynchronous: "full",
		OutboxRetention:   7 * 24 * time.Hour,

		OpenAPIRefreshInterval: 6 * time.Hour,
		OpenAPIFetchTimeout:    30 * time.Second,

		IntegrationTunnelTimeout: 15 * time.Second,

		// The same as internal/jsrun's defaults, which this package does not import (it would
		// bring the engine into every command).
		Script: ScriptLimits{Time: 10 * time.Second, MemoryBytes: 64 << 20, Stack: 5000, ResponseBytes: 5 << 20, Fetches: 50},

		Pandoc:   "pandoc",
		Language: Language{Provider: "auto", ApertiumCommand: "apertium", LLMTimeout: 2 * time.Minute},
	}
}

// Flags binds the configuration to a flag set whose defaults come from the environment.
// Subcommands may add flags of their own to FlagSet before calling Parse.
type Flags struct {
	FlagSet *flag.FlagSet
	// Usage is printed above the list of flags by -h: the command's synopsis and what it does.
	Usage    string
	cfg      Config
	getenv   func(string) string
	out      io.Writer
	logLevel string
	envErrs  []error // environment values a flag's default could not be read from
}

// NewFlags registers the common flags; out receives -h output.
func NewFlags(name string, getenv func(string) string, out io.Writer) *Flags {
	f := &Flags{cfg: Defaults(), getenv: getenv, out: out, FlagSet: flag.NewFlagSet(name, flag.ContinueOnError)}
	fs, c := f.FlagSet, &f.cfg
	fs.Usage = func() {
		if f.Usage != "" {
			fmt.Fprintf(fs.Output(), "%s\n\n", strings.TrimRight(f.Usage, "\n"))
		}
		fmt.Fprintln(fs.Output(), "Flags (each may also be set by the DOCSD_* variable in parentheses; a flag wins):")
		fs.PrintDefaults()
	}
	env := func(key, def string) string {
		if v := getenv(key); v != "" {
			return v
		}
		return def
	}
	fs.StringVar(&c.Addr, "addr", env("DOCSD_ADDR", c.Addr), "listen address (DOCSD_ADDR)")
	fs.StringVar(&c.DataDir, "data-dir", env("DOCSD_DATA_DIR", c.DataDir), "data directory (DOCSD_DATA_DIR)")
	fs.StringVar(&c.DatabaseURL, "database-url", env("DOCSD_DATABASE_URL", ""), "postgres:// URL or SQLite file; default SQLite in the data directory (DOCSD_DATABASE_URL)")
	fs.StringVar(&c.BaseURL, "base-url", env("DOCSD_BASE_URL", ""), "public base URL; default derived from the listen address (DOCSD_BASE_URL)")
	f.boolVar(&c.FetchAllowPrivate, "fetch-allow-private", "DOCSD_FETCH_ALLOW_PRIVATE", "let outbound fetches reach loopback and private addresses (DOCSD_FETCH_ALLOW_PRIVATE)")
	f.intVar(&c.FetchMaxConcurrent, "fetch-max-concurrent", "DOCSD_FETCH_MAX_CONCURRENT", "most outbound fetches (Git imports...) running at once; 1 or more (DOCSD_FETCH_MAX_CONCURRENT)")
	fs.Int64Var(&c.MaxBodyBytes, "max-body-bytes", c.MaxBodyBytes, "largest accepted request body in bytes (DOCSD_MAX_BODY_BYTES)")
	fs.Int64Var(&c.BodyMemoryBytes, "body-memory-bytes", c.BodyMemoryBytes, "most bytes of request bodies held in memory at once, across requests; beyond it a body waits, then gets 503 (DOCSD_BODY_MEMORY_BYTES)")
	fs.StringVar(&f.logLevel, "log-level", env("DOCSD_LOG_LEVEL", "info"), "debug, info, warn or error (DOCSD_LOG_LEVEL)")
	fs.StringVar(&c.CPUProfile, "cpu-profile", env("DOCSD_CPU_PROFILE", ""), "write a CPU profile of the serving run to this file, for go tool pprof (DOCSD_CPU_PROFILE)")
	fs.StringVar(&c.HeapProfile, "heap-profile", env("DOCSD_HEAP_PROFILE", ""), "write a heap profile to this file when serving stops, for go tool pprof (DOCSD_HEAP_PROFILE)")
	f.intVar(&c.ImportSyncPages, "import-sync-pages", "DOCSD_IMPORT_SYNC_PAGES", "most pages an uploaded archive import commits within its request; larger ones run as a job (DOCSD_IMPORT_SYNC_PAGES)")
	fs.StringVar(&c.SQLiteSynchronous, "sqlite-synchronous", env("DOCSD_SQLITE_SYNCHRONOUS", c.SQLiteSynchronous), "SQLite's synchronous setting: full (an acknowledged write survives a power loss), normal (it survives a crash of docsd, not of the machine), extra or off (DOCSD_SQLITE_SYNCHRONOUS)")
	f.int64Var(&c.RateLimitToken, "rate-limit-token", "DOCSD_RATE_LIMIT_TOKEN", "requests a minute per API token; 0 for no limit (DOCSD_RATE_LIMIT_TOKEN)")
	f.int64Var(&c.RateLimitAddress, "rate-limit-address", "DOCSD_RATE_LIMIT_ADDRESS", "requests a minute per client address; 0 for no limit (DOCSD_RATE_LIMIT_ADDRESS)")
	f.int64Var(&c.RateLimitExpensive, "rate-limit-expensive", "DOCSD_RATE_LIMIT_EXPENSIVE", "requests a minute per token (or address) on imports, PDF, search and exports; 0 for no limit (DOCSD_RATE_LIMIT_EXPENSIVE)")
	f.durationVar(&c.OutboxRetention, "outbox-retention", "DOCSD_OUTBOX_RETENTION", "how long events stay in the outbox before they are pruned, as a Go duration such as 168h (DOCSD_OUTBOX_RETENTION)")
	fs.StringVar(&c.IntegrationSecretsKey, "integration-secrets-key", env("DOCSD_INTEGRATION_SECRETS_KEY", ""), "key that encrypts integrations' secrets at rest, 32 characters or more; default one kept in the data directory (DOCSD_INTEGRATION_SECRETS_KEY)")
	f.durationVar(&c.OpenAPIRefreshInterval, "openapi-refresh-interval", "DOCSD_OPENAPI_REFRESH_INTERVAL", "how often OpenAPI specs given by URL are fetched again, as a Go duration such as 6h (DOCSD_OPENAPI_REFRESH_INTERVAL)")
	f.durationVar(&c.OpenAPIFetchTimeout, "openapi-fetch-timeout", "DOCSD_OPENAPI_FETCH_TIMEOUT", "how long one fetch of an OpenAPI spec's file may take, as a Go duration such as 30s (DOCSD_OPENAPI_FETCH_TIMEOUT)")
	f.durationVar(&c.IntegrationTunnelTimeout, "integration-tunnel-timeout", "DOCSD_INTEGRATION_TUNNEL_TIMEOUT", "how long one request to an integration's development tunnel may take (an event delivery, then retried), as a Go duration such as 15s, at most 5m (DOCSD_INTEGRATION_TUNNEL_TIMEOUT)")
	f.addBlobFlags(env)
	f.durationVar(&c.Script.Time, "script-time-limit", "DOCSD_SCRIPT_TIME_LIMIT", "longest one run of an integration script may take, its requests and timers included, as a Go duration such as 10s (DOCSD_SCRIPT_TIME_LIMIT)")
	f.intVar(&c.Script.MemoryBytes, "script-memory-bytes", "DOCSD_SCRIPT_MEMORY_BYTES", "most memory one run of an integration script may allocate, 4 MiB or more (DOCSD_SCRIPT_MEMORY_BYTES)")
	f.intVar(&c.Script.Stack, "script-stack", "DOCSD_SCRIPT_STACK", "deepest call stack of an integration script, in engine stack slots, 100 or more (DOCSD_SCRIPT_STACK)")
	f.intVar(&c.Script.ResponseBytes, "script-response-bytes", "DOCSD_SCRIPT_RESPONSE_BYTES", "largest answer body of an integration script, 1 or more (DOCSD_SCRIPT_RESPONSE_BYTES)")
	f.intVar(&c.Script.WarmVMs, "script-warm-vms", "DOCSD_SCRIPT_WARM_VMS", "VMs per integration script kept loaded ahead of its events, each still running one event; 0 loads one per event (DOCSD_SCRIPT_WARM_VMS)")
	f.intVar(&c.Script.Fetches, "script-fetches", "DOCSD_SCRIPT_FETCHES", "most outbound requests one run of an integration script may make, 1 or more (DOCSD_SCRIPT_FETCHES)")

	fs.StringVar(&c.Pandoc, "pandoc", env("DOCSD_PANDOC", c.Pandoc), "pandoc program that converts .docx imports, by name on PATH or path; off refuses .docx imports (DOCSD_PANDOC)")
	f.addLanguageFlags(env)
	return f
}

// boolVar registers a boolean flag, so that a bare --name means true and the next argument
// stays an argument (--name=false turns it off); its default comes from the variable env, whose
// unreadable value Parse reports.
func (f *Flags) boolVar(p *bool, name, env, usage string) {
	if v := f.getenv(env); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			f.envErrs = append(f.envErrs, fmt.Errorf("%s (--%s): want true or false, got %q", env, name, v))
		} else {
			*p = b
		}
	}
	f.FlagSet.BoolVar(p, name, *p, usage)
}

// int64Var registers a count of 0 or more (a rate, a size) whose default comes from the
// variable env.
func (f *Flags) int64Var(p *int64, name, env, usage string) {
	if v := f.getenv(env); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			f.envErrs = append(f.envErrs, fmt.Errorf("%s (--%s): want a whole number, 0 or more, got %q", env, name, v))
		} else {
			*p = n
		}
	}
	f.FlagSet.Int64Var(p, name, *p, usage)
}

// durationVar registers a positive duration (a Go duration such as 168h) whose default comes
// from the variable env.
func (f *Flags) durationVar(p *time.Duration, name, env, usage string) {
	if v := f.getenv(env); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			f.envErrs = append(f.envErrs, fmt.Errorf("%s (--%s): want a positive duration such as 168h, got %q", env, name, v))
		} else {
			*p = d
		}
	}
	f.FlagSet.DurationVar(p, name, *p, usage)
}

// intVar registers a count of 0 or more whose default comes from the variable env.
func (f *Flags) intVar(p *int, name, env, usage string) {
	if v := f.getenv(env); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			f.envErrs = append(f.envErrs, fmt.Errorf("%s (--%s): want a whole number, 0 or more, got %q", env, name, v))
		} else {
			*p = n
		}
	}
	f.FlagSet.IntVar(p, name, *p, usage)
}

// UsageError is a command line or setting docsd cannot start with: the caller has to change how
// it runs docsd (exit status 2), unlike a failure while running.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef makes a UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// ParseArgs parses args with fs, the way every docsd command does: -h, -help and --help print
// fs's usage to out and return flag.ErrHelp; a bad flag or a stray argument is a UsageError that
// names it and the help command, without the whole list of flags. help is the command that
// prints the usage ("docsd help serve").
func ParseArgs(fs *flag.FlagSet, args []string, out io.Writer, help string) error {
	// The flag package writes its error and the usage to one place; keep both until the outcome
	// says whether they are help (for out) or an error (which the caller reports).
	name := strings.TrimPrefix(fs.Name(), "docsd ") // main prefixes "docsd: "
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	defer fs.SetOutput(out)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		out.Write(buf.Bytes())
		return err
	}
	if err != nil {
		return Usagef("%s: %v (%s lists the flags)", name, err, help)
	}
	if fs.NArg() > 0 {
		extra := fs.Arg(0)
		if _, isBool := strconv.ParseBool(extra); isBool == nil {
			return Usagef("%s: unexpected argument %q: a boolean flag is true when present; give a value after = (--flag=%s)", name, extra, extra)
		}
		return Usagef("%s: unexpected argument %q (%s lists the flags)", name, extra, help)
	}
	return nil
}

// Parse reads args and returns the validated configuration. Every error but flag.ErrHelp is a
// UsageError.
func (f *Flags) Parse(args []string) (Config, error) {
	c, err := f.parse(args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		var u *UsageError
		if !errors.As(err, &u) {
			err = &UsageError{Err: err}
		}
	}
	return c, err
}

func (f *Flags) parse(args []string) (Config, error) {
	c := &f.cfg
	if v := f.getenv("DOCSD_MAX_BODY_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return *c, fmt.Errorf("DOCSD_MAX_BODY_BYTES: %w", err)
		}
		c.MaxBodyBytes = n
	}
	if v := f.getenv("DOCSD_BODY_MEMORY_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return *c, fmt.Errorf("DOCSD_BODY_MEMORY_BYTES: %w", err)
		}
		c.BodyMemoryBytes = n
	}
	if err := ParseArgs(f.FlagSet, args, f.out, "docsd help "+strings.TrimPrefix(f.FlagSet.Name(), "docsd ")); err != nil {
		return *c, err
	}
	if err := errors.Join(f.envErrs...); err != nil {
		return *c, err
	}
	if c.ImportSyncPages < 0 {
		return *c, fmt.Errorf("import-sync-pages: want a whole number of pages, 0 or more, got %d", c.ImportSyncPages)
	}
	if c.OutboxRetention <= 0 {
		return *c, fmt.Errorf("outbox-retention: want a positive duration such as 168h, got %s", c.OutboxRetention)
	}
	if c.OpenAPIRefreshInterval < time.Minute {
		return *c, fmt.Errorf("openapi-refresh-interval: want a duration of a minute or more such as 6h, got %s", c.OpenAPIRefreshInterval)
	}
	if c.OpenAPIFetchTimeout <= 0 {
		return *c, fmt.Errorf("openapi-fetch-timeout: want a positive duration such as 30s, got %s", c.OpenAPIFetchTimeout)
	}
	if c.IntegrationTunnelTimeout <= 0 || c.IntegrationTunnelTimeout > 5*time.Minute {
		return *c, fmt.Errorf("integration-tunnel-timeout: want a positive duration of at most 5m such as 15s, got %s", c.IntegrationTunnelTimeout)
	}
	if c.FetchMaxConcurrent < 1 {
		return *c, fmt.Errorf("fetch-max-concurrent: want a whole number, 1 or more, got %d", c.FetchMaxConcurrent)
	}
	for name, n := range map[string]int64{"rate-limit-token": c.RateLimitToken, "rate-limit-address": c.RateLimitAddress, "rate-limit-expensive": c.RateLimitExpensive} {
		if n < 0 {
			return *c, fmt.Errorf("%s: want a whole number of requests a minute, 0 or more, got %d", name, n)
		}
	}
	if err := c.Script.check(); err != nil {
		return *c, err
	}
	if err := f.parseBlob(); err != nil {
		return *c, err
	}
	if err := f.parseLanguage(); err != nil {
		return *c, err
	}
	if err := c.LogLevel.UnmarshalText([]byte(f.logLevel)); err != nil {
		return *c, fmt.Errorf("log-level: %w", err)
	}
	return *c, c.finish()
}

// check refuses limits a script could not run under; each names its flag.
func (l ScriptLimits) check() error {
	switch {
	case l.Time <= 0:
		return fmt.Errorf("script-time-limit: want a positive duration such as 10s, got %s", l.Time)
	case l.MemoryBytes < minScriptMemory:
		return fmt.Errorf("script-memory-bytes: want %d (4 MiB) or more, got %d", minScriptMemory, l.MemoryBytes)
	case l.Stack < 100:
		return fmt.Errorf("script-stack: want 100 or more, got %d", l.Stack)
	case l.ResponseBytes < 1:
		return fmt.Errorf("script-response-bytes: want 1 or more, got %d", l.ResponseBytes)
	case l.Fetches < 1:
		return fmt.Errorf("script-fetches: want 1 or more, got %d", l.Fetches)
	case l.WarmVMs < 0 || l.WarmVMs > 16:
		return fmt.Errorf("script-warm-vms: want 0 to 16, got %d", l.WarmVMs)
	}
	return nil
}

// Load is NewFlags followed by Parse, for commands without flags of their own.
func Load(name string, args []string, getenv func(string) string, out io.Writer) (Config, error) {
	return NewFlags(name, getenv, out).Parse(args)
}

// finish fills derived values and validates.
func (c *Config) finish() error {
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return fmt.Errorf("addr %q: %w", c.Addr, err)
	}
	if c.DatabaseURL == "" {
		c.DatabaseURL = filepath.Join(c.DataDir, "docsd.db")
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("base-url %q: must be an absolute http(s) URL", c.BaseURL)
		}
		c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	}
	if c.MaxBodyBytes <= 0 {
		return fmt.Errorf("max-body-bytes must be positive")
	}
	switch v := strings.ToLower(c.SQLiteSynchronous); v {
	case "off", "normal", "full", "extra":
		c.SQLiteSynchronous = v
	default:
		return fmt.Errorf("sqlite-synchronous: want off, normal, full or extra, got %q", c.SQLiteSynchronous)
	}
	if strings.TrimSpace(c.Pandoc) == "" || strings.ContainsRune(c.Pandoc, 0) {
		return fmt.Errorf("pandoc: want a program name, a path, or off (got %q)", c.Pandoc)
	}
	if c.BodyMemoryBytes < 1<<20 {
		return fmt.Errorf("body-memory-bytes must be at least 1048576 (got %d)", c.BodyMemoryBytes)
	}
	if k := c.IntegrationSecretsKey; k != "" && len(k) < 32 {
		return fmt.Errorf("integration-secrets-key: want 32 characters or more, got %d", len(k))
	}
	return nil
}

// DocxProgram is the pandoc program .docx imports use, "" when they are turned off.
func (c Config) DocxProgram() string {
	if strings.EqualFold(c.Pandoc, "off") {
		return ""
	}
	return c.Pandoc
}

// BaseURLFor returns the base URL, derived from the address actually listened on when none
// was configured (so port 0 in tests still yields working URLs).
func (c Config) BaseURLFor(listenAddr string) string {
	if c.BaseURL != "" {
		return c.BaseURL
	}
	host, port, err := net.SplitHostPort(listenAddr)
	if err != nil {
		return "http://" + listenAddr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// Redacted is the configuration as it may be logged: no passwords.
func (c Config) Redacted() map[string]any {
	dbURL := c.DatabaseURL
	if u, err := url.Parse(dbURL); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "REDACTED")
			dbURL = u.String()
		}
	}
	return map[string]any{
		"addr": c.Addr, "dataDir": c.DataDir, "databaseURL": dbURL, "baseURL": c.BaseURL,
		"fetchAllowPrivate": c.FetchAllowPrivate, "maxBodyBytes": c.MaxBodyBytes, "bodyMemoryBytes": c.BodyMemoryBytes, "logLevel": c.LogLevel.String(),
		"cpuProfile": c.CPUProfile, "heapProfile": c.HeapProfile, "importSyncPages": c.ImportSyncPages, "sqliteSynchronous": c.SQLiteSynchronous, "outboxRetention": c.OutboxRetention.String(),
		"openAPIRefreshInterval": c.OpenAPIRefreshInterval.String(), "openAPIFetchTimeout": c.OpenAPIFetchTimeout.String(),
		"rateLimitToken": c.RateLimitToken, "rateLimitAddress": c.RateLimitAddress, "rateLimitExpensive": c.RateLimitExpensive,
		"blobS3": c.BlobS3.redacted(), "pandoc": c.Pandoc, "integrationSecretsKey": redactedIfSet(c.IntegrationSecretsKey),
		"language": c.Language.redacted(),
	}
}

// redactedIfSet shows whether a secret is set, never its value.
func redactedIfSet(secret string) string {
	if secret == "" {
		return ""
	}
	return "REDACTED"
}
