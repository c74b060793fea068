// Command docsd-bodybench measures the server's peak memory under an attack of large request
// bodies: it builds docsd, runs it as a child on a fresh SQLite database, sends rounds of
// concurrent large bodies over loopback (first as a user who is no member of the target's
// organization, then as its owner) and reads the child's peak resident set (VmHWM) from
// /proc after each phase. With -require it exits 1 when the peak passes -max-rss.
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
	"os/exec"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"docsd/internal/buildbin"
	"docsd/internal/childserver"
)

type options struct {
	concurrency int
	size        int64
	rounds      int
	maxRSS      int64
	require     bool
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code, err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "docsd-bodybench:", err)
	}
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("docsd-bodybench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	var sizeMiB, maxMB int
	fs.IntVar(&o.concurrency, "concurrency", 16, "bodies sent at once in each round")
	fs.IntVar(&sizeMiB, "size-mib", 30, "size of each body in MiB")
	fs.IntVar(&o.rounds, "rounds", 2, "rounds of each attack")
	fs.IntVar(&maxMB, "max-rss-mb", 300, "target: the server's peak resident set, in MB")
	fs.BoolVar(&o.require, "require", false, "exit 1 when the peak passes -max-rss-mb")
	if err := fs.Parse(args); err != nil {
		return 2, err
	}
	if o.concurrency < 1 || o.concurrency > 256 || sizeMiB < 1 || sizeMiB > 1024 || o.rounds < 1 || o.rounds > 20 {
		return 2, fmt.Errorf("-concurrency 1..256, -size-mib 1..1024, -rounds 1..20")
	}
	o.size, o.maxRSS = int64(sizeMiB)<<20, int64(maxMB)*1e6

	work, err := os.MkdirTemp("", "docsd-bodybench-*")
	if err != nil {
		return 1, err
	}
	defer os.RemoveAll(work)
	bin, err := buildbin.Docsd(ctx, work)
	if err != nil {
		return 1, err
	}
	srv, err := startDocsd(ctx, bin, work)
	if err != nil {
		return 1, err
	}
	defer srv.Stop()

	owner := &client{base: srv.Base, token: srv.Token, http: &http.Client{Timeout: 3 * time.Minute}}
	orgID, spaceID, crID, err := owner.setUp(ctx)
	if err != nil {
		return 1, fmt.Errorf("set up: %w", err)
	}
	strangerToken, err := srv.adminCommand(ctx, "create-user", "-email", "stranger@bodybench.localhost", "-name", "Stranger")
	if err == nil {
		strangerToken, err = srv.adminCommand(ctx, "create-token", "-email", "stranger@bodybench.localhost")
	}
	if err != nil {
		return 1, err
	}
	stranger := &client{base: srv.Base, token: strangerToken, http: owner.http}

	idle, err := srv.rss()
	if err != nil {
		return 1, err
	}
	fmt.Fprintf(stdout, "docsd-bodybench: %d concurrent bodies of %d MiB, %d rounds per attack (SQLite)\n\n", o.concurrency, sizeMiB, o.rounds)
	fmt.Fprintf(stdout, "%-44s %-30s %12s\n", "attack", "answers", "peak RSS")
	fmt.Fprintf(stdout, "%-44s %-30s %9.1f MB\n", "idle after setup", "", float64(idle.peak)/1e6)

	jsonBody := func() io.Reader { return jsonTitle(o.size) }
	// The largest body a JSON route takes: the attack that fills the memory budget.
	pageBody := min(o.size, 8<<20-4<<10)
	attacks := []struct {
		name   string
		c      *client
		method string
		path   string
		ctype  string
		body   func() io.Reader
		chunk  bool
	}{
		{"stranger PATCH space (Content-Length)", stranger, "PATCH", "/v1/spaces/" + spaceID, "application/json", jsonBody, false},
		{"stranger PATCH space (chunked)", stranger, "PATCH", "/v1/spaces/" + spaceID, "application/json", jsonBody, true},
		{"stranger POST org spaces (chunked)", stranger, "POST", "/v1/orgs/" + orgID + "/spaces", "application/json", jsonBody, true},
		{"stranger content import (chunked)", stranger, "POST", "/v1/spaces/" + spaceID + "/content/import", "application/x-tar", func() io.Reader { return zeros(o.size) }, true},
		{"owner PATCH space (Content-Length)", owner, "PATCH", "/v1/spaces/" + spaceID, "application/json", jsonBody, false},
		{"owner PATCH space (chunked)", owner, "PATCH", "/v1/spaces/" + spaceID, "application/json", jsonBody, true},
		{"owner POST org spaces (chunked)", owner, "POST", "/v1/orgs/" + orgID + "/spaces", "application/json", jsonBody, true},
		{"owner CR page, bodies within its 8 MiB cap", owner, "POST", "/v1/spaces/" + spaceID + "/change-requests/" + crID + "/pages", "application/json", func() io.Reader { return jsonTitle(pageBody) }, false},
		{"owner content import (chunked)", owner, "POST", "/v1/spaces/" + spaceID + "/content/import", "application/x-tar", func() io.Reader { return zeros(o.size) }, true},
	}
	var strangerPeak, ownerPeak int64
	for _, a := range attacks {
		answers := map[string]int{}
		for round := 0; round < o.rounds; round++ {
			var mu sync.Mutex
			var wg sync.WaitGroup
			for i := 0; i < o.concurrency; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					size := o.size
					if strings.Contains(a.path, "/pages") {
						size = pageBody
					}
					got := a.c.send(ctx, a.method, a.path, a.ctype, a.body(), size, a.chunk)
					mu.Lock()
					answers[got]++
					mu.Unlock()
				}()
			}
			wg.Wait()
		}
		m, err := srv.rss()
		if err != nil {
			return 1, err
		}
		if a.c == stranger {
			strangerPeak = m.peak
		} else {
			ownerPeak = m.peak
		}
		fmt.Fprintf(stdout, "%-44s %-30s %9.1f MB\n", a.name, summarize(answers), float64(m.peak)/1e6)
	}
	// Memory must also come back: a server that holds what an attack made it allocate is
	// one attack away from the next.
	time.Sleep(2 * time.Second)
	after, err := srv.rss()
	if err != nil {
		return 1, err
	}
	fmt.Fprintf(stdout, "\npeak RSS: %.1f MB after the stranger's attacks, %.1f MB after the owner's (target < %d MB); resident now %.1f MB\n",
		float64(strangerPeak)/1e6, float64(ownerPeak)/1e6, maxMB, float64(after.now)/1e6)
	if ownerPeak > o.maxRSS || strangerPeak > o.maxRSS {
		fmt.Fprintln(stdout, "MISS: peak RSS over the target")
		if o.require {
			return 1, nil
		}
		return 0, nil
	}
	fmt.Fprintln(stdout, "ok: peak RSS under the target")
	return 0, nil
}

// summarize renders answer counts as "404×32 413×4".
func summarize(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s×%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

// jsonTitle is a valid JSON object of n bytes whose title is one long string, made as it is
// read so that the benchmark itself holds none of it.
func jsonTitle(n int64) io.Reader {
	head, tail := `{"title":"`, `"}`
	return io.MultiReader(strings.NewReader(head), io.LimitReader(repeat('a'), n-int64(len(head)+len(tail))), strings.NewReader(tail))
}

func zeros(n int64) io.Reader { return io.LimitReader(repeat(0), n) }

type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

type client struct {
	base, token string
	http        *http.Client
}

// send sends one body and names the outcome: the status, or "closed" when the server
// answered and closed the connection before taking the whole body (the client then sees a
// write error), or "error".
func (c *client) send(ctx context.Context, method, path, ctype string, body io.Reader, size int64, chunked bool) string {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return "error"
	}
	if !chunked {
		req.ContentLength = size
	} else {
		req.ContentLength = -1
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", ctype)
	resp, err := c.http.Do(req)
	if err != nil {
		var op interface{ Timeout() bool }
		if errors.As(err, &op) && op.Timeout() {
			return "timeout"
		}
		return "closed"
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return strconv.Itoa(resp.StatusCode)
}

// do sends a small JSON request and decodes the answer into out.
func (c *client) do(ctx context.Context, method, path string, in, out any) error {
	b, _ := json.Marshal(in)
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	return json.Unmarshal(data, out)
}

// setUp finds the owner's organization and makes a space in it, with a change request.
func (c *client) setUp(ctx context.Context) (orgID, spaceID, crID string, err error) {
	var orgs struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	if err := c.do(ctx, "GET", "/v1/orgs", nil, &orgs); err != nil {
		return "", "", "", err
	}
	if len(orgs.Items) == 0 {
		return "", "", "", fmt.Errorf("the owner has no organization")
	}
	var sp struct {
		ID string `json:"id"`
	}
	if err := c.do(ctx, "POST", "/v1/orgs/"+orgs.Items[0].ID+"/spaces", map[string]string{"title": "Target"}, &sp); err != nil {
		return "", "", "", err
	}
	var cr struct {
		ID string `json:"id"`
	}
	if err := c.do(ctx, "POST", "/v1/spaces/"+sp.ID+"/change-requests", map[string]string{"subject": "Target"}, &cr); err != nil {
		return "", "", "", err
	}
	return orgs.Items[0].ID, sp.ID, cr.ID, nil
}

// child is docsd running as a child process, on a SQLite database in dir.
type child struct {
	*childserver.Child
	bin, dir, dbURL string
}

func startDocsd(ctx context.Context, bin, dir string) (*child, error) {
	c := &child{bin: bin, dir: dir, dbURL: dir + "/docsd.db"}
	var err error
	c.Child, err = childserver.Start(ctx, childserver.Options{Bin: bin, DataDir: dir, DatabaseURL: c.dbURL,
		LogPath: dir + "/docsd.log", Env: []string{"DOCSD_LOG_LEVEL=warn"}})
	return c, err
}

// adminCommand runs `docsd admin` against the child's database and returns what it printed.
func (c *child) adminCommand(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, c.bin, append([]string{"admin"}, append(args, "-data-dir", c.dir, "-database-url", c.dbURL)...)...)
	cmd.Env = childserver.Environ("DOCSD_LOG_LEVEL=warn")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("docsd admin %s: %v: %s", args[0], err, stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
}

type memory struct{ peak, now int64 }

// rss reads the child's peak (VmHWM) and current (VmRSS) resident set.
func (c *child) rss() (memory, error) {
	peak, now, err := c.Memory()
	return memory{peak: peak, now: now}, err
}
