package httpapi_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/config"
)

// rawRequest opens a TCP connection to the server, sends the request head and the first part
// of a body, and returns the connection with the answer still to read.
func rawRequest(t *testing.T, e *apitest.Env, method, path, token string, contentLength int64, sent string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", method, path, contentLength)
	if token != "" {
		head += "Authorization: Bearer " + token + "\r\n"
	}
	if _, err := io.WriteString(conn, head+"\r\n"+sent); err != nil {
		t.Fatal(err)
	}
	return conn
}

// readAnswer reads the answer on conn within limit and returns it with the time it took.
func readAnswer(t *testing.T, conn net.Conn, limit time.Duration) (*http.Response, map[string]any, time.Duration) {
	t.Helper()
	start := time.Now()
	conn.SetReadDeadline(start.Add(limit))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer within %v: %v", limit, err)
	}
	defer resp.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("answer %d is not JSON: %v", resp.StatusCode, err)
	}
	return resp, body, time.Since(start)
}

func errorCode(t *testing.T, body map[string]any) int {
	t.Helper()
	e, _ := body["error"].(map[string]any)
	code, _ := e["code"].(float64)
	if e == nil || code == 0 || e["message"] == "" {
		t.Fatalf("body %v is not {\"error\":{\"code\":N,\"message\":\"...\"}}", body)
	}
	return int(code)
}

func TestBodyWithoutTokenIsRefusedFromTheHeaders(t *testing.T) {
	e := apitest.New(t)
	// One byte of a declared hundred: the 401 must not wait for the other 99.
	conn := rawRequest(t, e, "PATCH", "/v1/orgs/"+e.Org, "", 100, "{")
	resp, body, took := readAnswer(t, conn, 5*time.Second)
	if resp.StatusCode != 401 || errorCode(t, body) != 401 {
		t.Fatalf("status %d, body %v; want 401", resp.StatusCode, body)
	}
	if !resp.Close {
		t.Errorf("connection kept open: want Connection: close, as the rest of the body is never read")
	}
	t.Logf("401 after %v", took)
}

func TestStrangerBodyIsRefusedBeforeItIsRead(t *testing.T) {
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Target"})
	stranger := e.NewUser("stranger")
	for _, path := range []string{"/v1/spaces/" + sp, "/v1/orgs/" + e.Org} {
		// 30 MiB declared, 10 bytes sent: a 404 that needed the body would never come.
		conn := rawRequest(t, e, "PATCH", path, stranger.Token, 30<<20, `{"title":"`)
		resp, body, took := readAnswer(t, conn, 5*time.Second)
		if resp.StatusCode != 404 || errorCode(t, body) != 404 {
			t.Fatalf("PATCH %s: status %d, body %v; want 404", path, resp.StatusCode, body)
		}
		t.Logf("PATCH %s: 404 after %v", path, took)
	}
	// A member still gets their small body through.
	e.Patch(e.Admin, "/v1/spaces/"+sp, map[string]any{"title": "Renamed"}).Expect(200)
}

// A stranger's body over the gate but within a JSON body's cap, sent whole, is refused
// unread and then dropped as it arrives: the 404 keeps the connection, where closing it with
// the body unread reset it under a client still writing (a broken pipe instead of the answer).
func TestRefusedLargeBodyKeepsTheConnection(t *testing.T) {
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Target"})
	stranger := e.NewUser("stranger")
	body := `{"title":"` + strings.Repeat("long ", 40000) + `"}` // about 200 KB
	conn := rawRequest(t, e, "PATCH", "/v1/spaces/"+sp, stranger.Token, int64(len(body)), body)
	expectKeptConnection(t, conn, 404)
	if got := e.Get(e.Admin, "/v1/spaces/"+sp).Expect(200).Str("title"); got != "Target" {
		t.Fatalf("title %q after a stranger's refused PATCH", got)
	}
}

func TestBodyOverTheRouteCapIsRefusedFromContentLength(t *testing.T) {
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Target"})
	conn := rawRequest(t, e, "PATCH", "/v1/spaces/"+sp, e.Admin.Token, 30<<20, `{"title":"`)
	resp, body, _ := readAnswer(t, conn, 5*time.Second)
	if resp.StatusCode != 413 || errorCode(t, body) != 413 {
		t.Fatalf("status %d, body %v; want 413", resp.StatusCode, body)
	}
	msg := body["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, "at most 1048576 bytes") {
		t.Fatalf("message %q does not name the route's limit", msg)
	}
	// Without Content-Length the same cap holds while reading.
	big := map[string]any{"title": strings.Repeat("a", 2<<20)}
	e.Patch(e.Admin, "/v1/spaces/"+sp, big).Expect(413).ExpectMessage("at most 1048576 bytes")
}

func TestBodiesInFlightShareAMemoryBudget(t *testing.T) {
	e := apitest.NewWithConfig(t, func(c *config.Config) { c.BodyMemoryBytes = 1 << 20 })
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Target"})
	var cr map[string]any
	e.Post(e.Admin, "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "s"}).Expect(201).JSON(&cr)
	pages := fmt.Sprintf("/v1/spaces/%s/change-requests/%s/pages", sp, cr["id"])
	// A page body of the whole budget, of which a little is sent: it holds the budget.
	holder := rawRequest(t, e, "POST", pages, e.Admin.Token, 1<<20, `{"title":"`)
	time.Sleep(300 * time.Millisecond)
	if got := scrape(t, e)["docsd_http_request_bodies_in_flight_bytes"]; got != 1<<20 {
		t.Fatalf("bodies in flight = %v bytes, want the holder's 1048576", got)
	}
	// Another one cannot get in, and is told to come back.
	conn := rawRequest(t, e, "POST", pages, e.Admin.Token, 512<<10, `{"title":"`)
	resp, body, took := readAnswer(t, conn, 15*time.Second)
	if resp.StatusCode != 503 || errorCode(t, body) != 503 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("status %d, Retry-After %q, body %v; want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	t.Logf("503 after %v", took)
	// Once the holder goes, bodies get through again.
	holder.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := e.Post(e.Admin, pages, map[string]any{"title": "Small page"})
		if r.Status == 201 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("budget not released: %d %s", r.Status, r.Body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestSmallUnreadBodyKeepsTheConnection(t *testing.T) {
	e := apitest.New(t)
	// The whole small body is sent, but the 401 comes from the headers: the server reads and
	// drops the rest instead of closing with it unread, which would reset the connection under
	// a client still writing it.
	body := `{"title":"` + strings.Repeat("x", 8000) + `"}`
	conn := rawRequest(t, e, "PATCH", "/v1/orgs/"+e.Org, "", int64(len(body)), body)
	expectKeptConnection(t, conn, 401)
}

// expectKeptConnection reads the answer to a request whose whole body was sent on conn,
// expects status and no Connection: close, and that the same connection serves a next request.
func expectKeptConnection(t *testing.T, conn net.Conn, status int) {
	t.Helper()
	br := bufio.NewReader(conn)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != status {
		t.Fatalf("status %d; want %d", resp.StatusCode, status)
	}
	if resp.Close {
		t.Fatalf("Connection: close after a body that was all sent; want the connection kept")
	}
	if _, err := io.WriteString(conn, "GET /v1/ HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err = http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("second request on the kept connection: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("second request: status %d; want 200", resp.StatusCode)
	}
}
