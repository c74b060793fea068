// Command docsd-bench measures docsd under load against a bare net/http handler that answers
// the same bytes, in the same run, on loopback. For each endpoint it prints requests/s, p50
// and p99 latency and the servers' CPU time per request, and a verdict against the targets:
// a read must reach at least half the bare handler's requests/s, with a p99 at most twice its
// p99 (a write has a goal of its own). Ratios taken in one run hold on a shared, noisy machine
// where absolute figures do not.
//
//	go run ./cmd/docsd-bench [-duration 10s] [-warmup 2s] [-connections 64] [-endpoints all] [-postgres URL]
//
// It builds docsd, starts it on a fresh SQLite data directory, seeds members, reads each
// endpoint's answer once, then starts this program again as the bare handler serving those
// answers, and drives both servers with the same closed-loop load generator. With -postgres,
// a third server runs docsd on a fresh schema of that PostgreSQL database, seeded alike, and
// is measured in the same slices; the report compares it with docsd on SQLite.
package main

import (
	"context"
	"docsd/internal/buildbin"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	if path := os.Getenv(bareEnv); path != "" {
		if err := serveBare(path); err != nil {
			fmt.Fprintln(os.Stderr, "docsd-bench bare handler:", err)
			os.Exit(1)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code, err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "docsd-bench:", err)
	}
	os.Exit(code)
}

type options struct {
	Duration    time.Duration
	Warmup      time.Duration
	Slices      int
	Connections int
	Endpoints   string
	Members     int
	MaxRequests int64
	LogLevel    string
	Docsd       string
	CPUProfile  string
	PgProfile   string
	Keep        bool
	Postgres    string
	PgInstances int
}

func parseOptions(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("docsd-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.DurationVar(&o.Duration, "duration", 10*time.Second, "measured time per endpoint and server")
	fs.DurationVar(&o.Warmup, "warmup", 2*time.Second, "unmeasured load on each server before measuring an endpoint")
	fs.IntVar(&o.Slices, "slices", 5, "measure in this many alternating slices per server, so machine noise falls on both alike")
	fs.IntVar(&o.Connections, "connections", 64, "keep-alive connections, one request in flight on each")
	fs.StringVar(&o.Endpoints, "endpoints", "all", "comma-separated endpoints to measure: org, members, page-uncached, page, published, patch, or all")
	fs.IntVar(&o.Members, "members", 20, "members seeded into the organization besides its administrator")
	fs.Int64Var(&o.MaxRequests, "max-requests", 5_000_000, "cap on requests per endpoint and server, warm-up included")
	fs.StringVar(&o.LogLevel, "log-level", "info", "docsd's log level; info (its default) writes a log line per request")
	fs.StringVar(&o.Docsd, "docsd", "", "a docsd binary to measure; default: build docsd/cmd/docsd")
	fs.StringVar(&o.CPUProfile, "cpuprofile", "", "write docsd's CPU profile of the whole run to this file")
	fs.StringVar(&o.PgProfile, "pg-cpuprofile", "", "with -postgres: write the CPU profile of docsd on PostgreSQL to this file")
	fs.BoolVar(&o.Keep, "keep", false, "keep the temporary directory (data, docsd's log, answers)")
	fs.StringVar(&o.Postgres, "postgres", "", "also measure docsd on this PostgreSQL database (postgres://…), in a schema of its own dropped afterwards")
	fs.IntVar(&o.PgInstances, "pg-instances", 1, "with -postgres: 2 also measures two docsd instances sharing that database, the load split between them")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("unexpected arguments: %v", fs.Args())
	case o.Duration <= 0 || o.Duration > 10*time.Minute:
		return o, fmt.Errorf("-duration: must be above 0 and at most 10m")
	case o.Warmup < 0 || o.Warmup > time.Minute:
		return o, fmt.Errorf("-warmup: must be 0 to 1m")
	case o.Slices < 1 || o.Slices > 100 || o.Duration/time.Duration(max(o.Slices, 1)) < 100*time.Millisecond:
		return o, fmt.Errorf("-slices: must be 1 to 100, each at least 100ms of -duration")
	case o.Connections < 1 || o.Connections > 4096:
		return o, fmt.Errorf("-connections: must be 1 to 4096")
	case o.Members < 0 || o.Members > 100_000:
		return o, fmt.Errorf("-members: must be 0 to 100000")
	case o.MaxRequests < 1:
		return o, fmt.Errorf("-max-requests: must be positive")
	case o.Postgres != "" && !strings.HasPrefix(o.Postgres, "postgres://") && !strings.HasPrefix(o.Postgres, "postgresql://"):
		return o, fmt.Errorf("-postgres: want a postgres:// URL")
	case o.PgInstances < 1 || o.PgInstances > 2 || (o.PgInstances == 2 && o.Postgres == ""):
		return o, fmt.Errorf("-pg-instances: 1, or 2 with -postgres")
	case o.PgInstances == 2 && o.Connections < 2:
		return o, fmt.Errorf("-pg-instances 2: needs at least 2 -connections to split")
	}
	for _, p := range []*string{&o.CPUProfile, &o.PgProfile} {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return o, err
		}
		*p = abs
	}
	return o, nil
}

// target is one endpoint as this run sees it: its answer, or why it cannot be measured.
type target struct {
	endpoint
	Path        string
	Body        []byte
	Unavailable string
	Bare, Docsd *loadResult
	// With -postgres: the same endpoint on docsd over PostgreSQL (its ids differ).
	PgPath   string
	PgBody   []byte
	Postgres *loadResult
	// With -pg-instances 2: the same load split between two docsd instances on that database.
	PgPair [2]*loadResult
}

// run returns the exit code: 0 when every measurement completed without a failed request,
// whatever the verdicts; 1 otherwise; 2 for bad flags.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	o, err := parseOptions(args, stderr)
	if err != nil {
		return 2, err
	}
	chosen, err := selectEndpoints(o.Endpoints)
	if err != nil {
		return 2, err
	}
	tmp, err := os.MkdirTemp("", "docsd-bench-")
	if err != nil {
		return 1, err
	}
	if o.Keep {
		fmt.Fprintln(stderr, "keeping", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	progress := func(format string, a ...any) { fmt.Fprintf(stderr, "docsd-bench: "+format+"\n", a...) }

	bin := o.Docsd
	if bin == "" {
		progress("building docsd")
		if bin, err = buildbin.Docsd(ctx, tmp); err != nil {
			return 1, err
		}
	}
	dataDir, logPath := filepath.Join(tmp, "data"), filepath.Join(tmp, "docsd.log")
	docsd, token, err := startDocsd(ctx, docsdOptions{Binary: bin, DataDir: dataDir, LogPath: logPath,
		LogLevel: o.LogLevel, CPUProfile: o.CPUProfile})
	if err != nil {
		return 1, err
	}
	defer docsd.stop()
	orgID, err := firstOrgID(ctx, docsd.addr, token)
	if err != nil {
		return 1, err
	}
	progress("seeding %d members, and a site of %d pages", o.Members, benchPages)
	if err := seedMembers(ctx, dataDir, "", orgID, o.Members); err != nil {
		return 1, err
	}
	fx := fixture{OrgID: orgID}
	if err := seedSite(ctx, docsd.addr, token, dataDir, "", &fx); err != nil {
		return 1, err
	}

	targets, answers, err := probe(ctx, docsd.addr, token, fx, chosen)
	if err != nil {
		return 1, err
	}
	var pg, pg2 *server
	var pgToken, pgURL, pgData string
	if o.Postgres != "" {
		var dropSchema func()
		if pgURL, dropSchema, err = freshSchema(ctx, o.Postgres); err != nil {
			return 1, err
		}
		defer dropSchema()
		pgData = filepath.Join(tmp, "data-postgres")
		if pg, pgToken, err = startDocsd(ctx, docsdOptions{Binary: bin, DataDir: pgData, DatabaseURL: pgURL,
			LogPath: filepath.Join(tmp, "docsd-postgres.log"), LogLevel: o.LogLevel, CPUProfile: o.PgProfile}); err != nil {
			return 1, err
		}
		defer pg.stop()
		pgOrg, err := firstOrgID(ctx, pg.addr, pgToken)
		if err != nil {
			return 1, err
		}
		progress("seeding %d members, and a site of %d pages, on PostgreSQL", o.Members, benchPages)
		if err := seedMembers(ctx, pgData, pgURL, pgOrg, o.Members); err != nil {
			return 1, err
		}
		pgFx := fixture{OrgID: pgOrg}
		if err := seedSite(ctx, pg.addr, pgToken, pgData, pgURL, &pgFx); err != nil {
			return 1, err
		}
		pgTargets, _, err := probe(ctx, pg.addr, pgToken, pgFx, chosen)
		if err != nil {
			return 1, err
		}
		if o.PgInstances == 2 {
			// A second instance on the same database and data directory (its blobs), as a
			// fleet runs: it makes no administrator, the database has one.
			progress("starting a second docsd on the same PostgreSQL database")
			if pg2, _, err = startDocsd(ctx, docsdOptions{Binary: bin, DataDir: pgData, DatabaseURL: pgURL, Joining: true,
				LogPath: filepath.Join(tmp, "docsd-postgres-2.log"), LogLevel: o.LogLevel}); err != nil {
				return 1, err
			}
			defer pg2.stop()
		}
		for i := range targets {
			targets[i].PgPath, targets[i].PgBody = pgTargets[i].Path, pgTargets[i].Body
			if pgTargets[i].Unavailable != "" && targets[i].Unavailable == "" {
				targets[i].Unavailable = "on PostgreSQL: " + pgTargets[i].Unavailable
			}
		}
	}
	answersPath := filepath.Join(tmp, "answers.json")
	if raw, err := json.Marshal(answers); err != nil {
		return 1, err
	} else if err := os.WriteFile(answersPath, raw, 0o600); err != nil {
		return 1, err
	}
	bare, err := startBare(ctx, answersPath)
	if err != nil {
		return 1, err
	}
	defer bare.stop()

	spec := loadSpec{Token: token, Connections: o.Connections, MaxRequests: o.MaxRequests, Timeout: 30 * time.Second}
	loadBefore := loadAverage()
	for i := range targets {
		t := &targets[i]
		if t.Unavailable != "" {
			continue
		}
		spec.Method, spec.Body, spec.Unique = t.Method, t.endpoint.Body, t.Unique
		spec.Path, spec.BodyBytes = t.Path, answerLength(t.endpoint, t.Body)
		runs := []measured{{bare, spec}, {docsd, spec}}
		if pg != nil {
			pgSpec := spec
			pgSpec.Path, pgSpec.BodyBytes, pgSpec.Token = t.PgPath, answerLength(t.endpoint, t.PgBody), pgToken
			runs = append(runs, measured{pg, pgSpec})
		}
		progress("%s: %s warm-up on each server, then %s each in %d alternating slices", t.Route, o.Warmup, o.Duration, o.Slices)
		results, err := measure(ctx, runs, o)
		if err != nil {
			return 1, fmt.Errorf("%s: %w", t.Route, err)
		}
		t.Bare, t.Docsd = results[0], results[1]
		if pg != nil {
			t.Postgres = results[2]
		}
		if pg2 != nil {
			// The same load, its connections split between the two instances, both driven at
			// once: what a fleet of two serves, against one instance's figure above.
			pgSpec := runs[2].spec
			pgSpec.Connections = o.Connections / 2
			other := pgSpec
			other.Connections = o.Connections - pgSpec.Connections
			progress("%s: the same on two docsd instances sharing PostgreSQL", t.Route)
			pair, err := measureTogether(ctx, []measured{{pg, pgSpec}, {pg2, other}}, o)
			if err != nil {
				return 1, fmt.Errorf("%s on two instances: %w", t.Route, err)
			}
			t.PgPair = [2]*loadResult{pair[0], pair[1]}
		}
	}
	overheads := measureOverheads(ctx, o, bin, tmp, targets, spec, dataDir, pgURL, pgData, pgToken, progress)
	// docsd writes its CPU profile as it stops.
	for _, s := range []*server{docsd, bare, pg, pg2} {
		if s == nil {
			continue
		}
		if err := s.stop(); err != nil {
			progress("%v", err)
		}
	}

	rep := report{Options: o, Targets: targets, Overheads: overheads, LoadBefore: loadBefore, LoadAfter: loadAverage(), LogPath: logPath}
	rep.print(stdout)
	if o.CPUProfile != "" {
		fmt.Fprintf(stdout, "\ndocsd's CPU profile of the whole run: go tool pprof -top %s\n", o.CPUProfile)
	}
	if o.PgProfile != "" && pg != nil {
		fmt.Fprintf(stdout, "docsd-pg's CPU profile of the whole run: go tool pprof -top %s\n", o.PgProfile)
	}
	if rep.failed() {
		return 1, errors.New("some requests failed; the figures above are not comparable")
	}
	return 0, nil
}

// measured is one server to measure and the load to drive it with.
type measured struct {
	srv  *server
	spec loadSpec
}

// measure drives every server alike: a warm-up on each, then o.Slices measured slices on
// each, the order rotating from one slice to the next so that the machine's noise falls on
// all of them alike.
func measure(ctx context.Context, runs []measured, o options) ([]*loadResult, error) {
	loads, err := openLoads(runs, true)
	defer closeLoads(loads)
	if err != nil {
		return nil, err
	}
	for _, l := range loads {
		if err := l.phase(ctx, o.Warmup, false); err != nil {
			return nil, err
		}
	}
	slice := o.Duration / time.Duration(o.Slices)
	for i := range o.Slices {
		for j := range loads {
			l := loads[(i+j)%len(loads)]
			if err := l.phase(ctx, slice, true); err != nil {
				return nil, err
			}
		}
	}
	out := make([]*loadResult, len(loads))
	for i, l := range loads {
		out[i] = l.finish()
	}
	return out, nil
}

// openLoads opens a load on each run's server, reading that server's CPU time, and this
// process's too with self. On an error it returns the loads opened so far, to be closed.
func openLoads(runs []measured, self bool) ([]*load, error) {
	var loads []*load
	for _, r := range runs {
		spec := r.spec
		spec.Addr, spec.CPUOf = r.srv.addr, []string{r.srv.pid()}
		if self {
			spec.CPUOf = append(spec.CPUOf, "self")
		}
		l, err := openLoad(spec)
		if err != nil {
			return loads, err
		}
		loads = append(loads, l)
	}
	return loads, nil
}

func closeLoads(loads []*load) {
	for _, l := range loads {
		l.close()
	}
}

// measureTogether drives every server at once, each with its own load: a warm-up, then
// o.Duration measured. Their requests/s add up to what they serve together.
func measureTogether(ctx context.Context, runs []measured, o options) ([]*loadResult, error) {
	// The load generators run at once: their own CPU cannot be told apart, so it is not read.
	loads, err := openLoads(runs, false)
	defer closeLoads(loads)
	if err != nil {
		return nil, err
	}
	for _, p := range []struct {
		d        time.Duration
		measured bool
	}{{o.Warmup, false}, {o.Duration, true}} {
		errs := make(chan error, len(loads))
		for _, l := range loads {
			go func() { errs <- l.phase(ctx, p.d, p.measured) }()
		}
		for range loads {
			if err := <-errs; err != nil {
				return nil, err
			}
		}
	}
	out := make([]*loadResult, len(loads))
	for i, l := range loads {
		out[i] = l.finish()
	}
	return out, nil
}

// probe asks docsd once for each endpoint. Endpoints that do not answer 200 are reported as
// unavailable rather than failing the run (an operation may not be built yet). answers maps
// each available path to docsd's body, for the bare handler to repeat.
func probe(ctx context.Context, addr, token string, f fixture, chosen []endpoint) ([]target, map[string][]byte, error) {
	answers := map[string][]byte{}
	var targets []target
	for _, e := range chosen {
		t := target{endpoint: e, Path: e.Path(f)}
		path := t.Path
		if e.Unique { // docsd must take the parameter the load adds
			path = uniquePath(path, 0)
		}
		status, body, err := send(ctx, addr, token, e.method(), path, e.Body)
		switch {
		case err != nil:
			return nil, nil, fmt.Errorf("%s: %w", e.Route, err)
		case status != http.StatusOK:
			t.Unavailable = fmt.Sprintf("docsd answered %d: %s", status, errorMessage(body))
		default:
			t.Body = body
			answers[t.Path] = body
		}
		targets = append(targets, t)
	}
	return targets, answers, nil
}

// answerLength is the length every answer of e must have, or -1 for any.
func answerLength(e endpoint, body []byte) int64 {
	if e.AnyLength {
		return -1
	}
	return int64(len(body))
}

// errorMessage is the message of an API error body, or the start of any other body.
func errorMessage(body []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	if len(body) > 120 {
		body = body[:120]
	}
	return string(body)
}

// loadAverage is the one-minute load average, a hint of how busy the shared machine was.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	var one string
	fmt.Sscan(string(b), &one)
	return one
}

// measureOverheads measures the request overhead of the cached page read (overhead.go) on
// each engine, when the "page" endpoint is among those measured.
func measureOverheads(ctx context.Context, o options, bin, tmp string, targets []target, spec loadSpec,
	dataDir, pgURL, pgData, pgToken string, progress func(string, ...any)) []overheadResult {
	for _, t := range targets {
		if t.Name != "page" || t.Unavailable != "" {
			continue
		}
		spec.Method, spec.Body, spec.Unique = t.Method, t.endpoint.Body, t.Unique
		spec.Path, spec.BodyBytes = t.Path, answerLength(t.endpoint, t.Body)
		runs := []overheadRun{{Server: "docsd", DataDir: dataDir, Spec: spec}}
		if pgURL != "" {
			pgSpec := spec
			pgSpec.Path, pgSpec.BodyBytes, pgSpec.Token = t.PgPath, answerLength(t.endpoint, t.PgBody), pgToken
			runs = append(runs, overheadRun{Server: "docsd-pg", DataDir: pgData, DBURL: pgURL, Spec: pgSpec})
		}
		var out []overheadResult
		for _, r := range runs {
			progress("request overhead of the cached page read on %s: %s warm-up, then %s, profiled", r.Server, o.Warmup, o.Duration)
			out = append(out, measureOverhead(ctx, o, bin, tmp, r))
		}
		return out
	}
	return nil
}
