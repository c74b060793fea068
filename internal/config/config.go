// Package config builds docsd's typed configuration from flags and DOCSD_* environment
// variables (flags win), with defaults and validation.
package config

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Config is everything the server and the admin commands need to know.
type Config struct {
	Addr              string     // listen address
	DataDir           string     // where SQLite and local file bytes live
	DatabaseURL       string     // postgres://… or a SQLite path; empty means SQLite in DataDir
	BaseURL           string     // public base URL used in every `urls` field
	FetchAllowPrivate bool       // outbound fetches may reach loopback and private addresses
	MaxBodyBytes      int64      // cap on request bodies
	LogLevel          slog.Level // minimum level of log lines
	CPUProfile        string     // file to write a CPU profile of the serving run to, for diagnosis; empty for none
	BlobS3            BlobS3     // S3-compatible store for file bytes; none means DataDir/blobs
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
}

// Defaults are the values used when neither a flag nor the environment sets one.
func Defaults() Config {
	return Config{
		Addr:         "127.0.0.1:8080",
		DataDir:      "./docsd-data",
		MaxBodyBytes: 32 << 20,
		LogLevel:     slog.LevelInfo,
		BlobS3:       BlobS3{UseTLS: true},

		GitImportSyncPages: 200,
		ImportSyncPages:    200,
		PDFMaxPages:        2000,

		SQLiteSynchronous: "full",
		OutboxRetention:   7 * 24 * time.Hour,
	}
}

// Flags binds the configuration to a flag set whose defaults come from the environment.
// Subcommands may add flags of their own to FlagSet before calling Parse.
type Flags struct {
	FlagSet      *flag.FlagSet
	cfg          Config
	getenv       func(string) string
	logLevel     string
	allowPrivate string
	importSync   string
	retention    string
	blob         blobFlags
}

// NewFlags registers the common flags; out receives -h output.
func NewFlags(name string, getenv func(string) string, out io.Writer) *Flags {
	f := &Flags{cfg: Defaults(), getenv: getenv, FlagSet: flag.NewFlagSet(name, flag.ContinueOnError)}
	fs, c := f.FlagSet, &f.cfg
	fs.SetOutput(out)
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
	fs.StringVar(&f.allowPrivate, "fetch-allow-private", env("DOCSD_FETCH_ALLOW_PRIVATE", "false"), "let outbound fetches reach loopback and private addresses (DOCSD_FETCH_ALLOW_PRIVATE)")
	fs.Int64Var(&c.MaxBodyBytes, "max-body-bytes", c.MaxBodyBytes, "largest accepted request body in bytes (DOCSD_MAX_BODY_BYTES)")
	fs.StringVar(&f.logLevel, "log-level", env("DOCSD_LOG_LEVEL", "info"), "debug, info, warn or error (DOCSD_LOG_LEVEL)")
	fs.StringVar(&c.CPUProfile, "cpu-profile", env("DOCSD_CPU_PROFILE", ""), "write a CPU profile of the serving run to this file, for go tool pprof (DOCSD_CPU_PROFILE)")
	fs.StringVar(&f.importSync, "import-sync-pages", env("DOCSD_IMPORT_SYNC_PAGES", strconv.Itoa(c.ImportSyncPages)), "most pages an uploaded archive import commits within its request; larger ones run as a job (DOCSD_IMPORT_SYNC_PAGES)")
	fs.StringVar(&c.SQLiteSynchronous, "sqlite-synchronous", env("DOCSD_SQLITE_SYNCHRONOUS", c.SQLiteSynchronous), "SQLite's synchronous setting: full (an acknowledged write survives a power loss), normal (it survives a crash of docsd, not of the machine), extra or off (DOCSD_SQLITE_SYNCHRONOUS)")
	fs.StringVar(&f.retention, "outbox-retention", env("DOCSD_OUTBOX_RETENTION", c.OutboxRetention.String()), "how long events stay in the outbox before they are pruned, as a Go duration such as 168h (DOCSD_OUTBOX_RETENTION)")
	f.addBlobFlags(env)
	return f
}

// Parse reads args and returns the validated configuration.
func (f *Flags) Parse(args []string) (Config, error) {
	c := &f.cfg
	if v := f.getenv("DOCSD_MAX_BODY_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return *c, fmt.Errorf("DOCSD_MAX_BODY_BYTES: %w", err)
		}
		c.MaxBodyBytes = n
	}
	if err := f.FlagSet.Parse(args); err != nil {
		return *c, err
	}
	if f.FlagSet.NArg() > 0 {
		return *c, fmt.Errorf("unexpected arguments: %v", f.FlagSet.Args())
	}
	b, err := strconv.ParseBool(f.allowPrivate)
	if err != nil {
		return *c, fmt.Errorf("fetch-allow-private: want true or false, got %q", f.allowPrivate)
	}
	c.FetchAllowPrivate = b
	if c.ImportSyncPages, err = strconv.Atoi(f.importSync); err != nil || c.ImportSyncPages < 0 {
		return *c, fmt.Errorf("import-sync-pages: want a whole number of pages, 0 or more, got %q", f.importSync)
	}
	if c.OutboxRetention, err = time.ParseDuration(f.retention); err != nil || c.OutboxRetention <= 0 {
		return *c, fmt.Errorf("outbox-retention: want a positive duration such as 168h, got %q", f.retention)
	}
	if err := f.parseBlob(); err != nil {
		return *c, err
	}
	if err := c.LogLevel.UnmarshalText([]byte(f.logLevel)); err != nil {
		return *c, fmt.Errorf("log-level: %w", err)
	}
	return *c, c.finish()
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
	return nil
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
		"fetchAllowPrivate": c.FetchAllowPrivate, "maxBodyBytes": c.MaxBodyBytes, "logLevel": c.LogLevel.String(),
		"cpuProfile": c.CPUProfile, "importSyncPages": c.ImportSyncPages, "sqliteSynchronous": c.SQLiteSynchronous,
		"blobS3": c.BlobS3.redacted(),
	}
}
