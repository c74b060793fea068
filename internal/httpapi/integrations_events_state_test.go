package httpapi_test

import (
	"encoding/json"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/config"
)

// deliveredEventIDs are the eventIds of what the tunnel received, in order, with their types.
func deliveredEventIDs(t *testing.T, tn *tunnel) (ids, types []string) {
	t.Helper()
	for _, r := range tn.requests() {
		var ev struct{ EventID, Type string }
		if err := json.Unmarshal([]byte(r.fields["event"]), &ev); err != nil {
			t.Fatalf("event field: %v", err)
		}
		ids, types = append(ids, ev.EventID), append(types, ev.Type)
	}
	return ids, types
}

// The public event operations show only events with an outcome, of the types the public spec
// describes: an event being delivered claims no status, and a task event (absent from the
// reference spec's Event) is delivered but not listed. docsd's /delivery shows both.
func TestIntegrationEventsShowOnlyOutcomes(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	// The setup event fails once, then succeeds; the task succeeds; the replay fails once.
	tn := newTunnel(t, 503, 200, 200, 503)
	devInstallation(e, "honest", tn)
	e.RunDue()
	ids, _ := deliveredEventIDs(t, tn)
	if len(ids) != 1 {
		t.Fatalf("the tunnel got %d requests", len(ids))
	}
	setup := ids[0]
	// Between its first attempt and its retry the event has no outcome: it is not listed, and
	// the public operation does not show it; /delivery says pending with the trace so far.
	if items := e.Get(e.Admin, "/v1/integrations/honest/events").Expect(200).Items(); len(items) != 0 {
		t.Fatalf("an event being delivered is listed: %v", items)
	}
	e.Get(e.Admin, "/v1/integrations/honest/events/"+setup).ExpectError(404).ExpectMessage("no outcome yet")
	d := e.Get(e.Admin, "/v1/integrations/honest/events/"+setup+"/delivery").Expect(200)
	if d.Str("event.status") != "pending" || !strings.Contains(string(d.Body), "answer 503") || !strings.Contains(string(d.Body), "retry after 1s") {
		t.Fatalf("delivery while pending: %s", d.Body)
	}

	e.Clock.Advance(time.Minute)
	e.RunDue()
	items := e.Get(e.Admin, "/v1/integrations/honest/events").Expect(200).Items()
	if len(items) != 1 || items[0]["id"] != setup || items[0]["status"] != "success" {
		t.Fatalf("after the retry: %v", items)
	}
	if status, _ := eventTrace(e, "honest", setup); status != "success" {
		t.Fatalf("status %s", status)
	}

	// A task is recorded and delivered, and never listed by the public operation.
	e.Post(e.Admin, "/v1/integrations/honest/tasks", map[string]any{"task": map[string]any{"n": 1}}).Expect(204)
	e.RunDue()
	ids, types := deliveredEventIDs(t, tn)
	if len(ids) != 3 || types[2] != "task" {
		t.Fatalf("the tunnel got %v", types)
	}
	task := ids[2]
	if items := e.Get(e.Admin, "/v1/integrations/honest/events").Expect(200).Items(); len(items) != 1 || items[0]["id"] != setup {
		t.Fatalf("with a task delivered, the list shows %v", items)
	}
	e.Get(e.Admin, "/v1/integrations/honest/events/"+task).ExpectError(404).ExpectMessage("task event")
	d = e.Get(e.Admin, "/v1/integrations/honest/events/"+task+"/delivery").Expect(200)
	if d.Str("event.status") != "success" || d.Str("event.payload.type") != "task" || d.Num("event.payload.task.n") != 1 {
		t.Fatalf("the task's delivery: %s", d.Body)
	}

	// A replay puts the event back in flight: pending in the replay's answer, out of the list
	// until its new outcome.
	if r := e.Post(e.Admin, "/v1/integrations/honest/events/"+setup+"/replay", nil).Expect(202); r.Str("event.status") != "pending" {
		t.Fatalf("replay answer: %s", r.Body)
	}
	e.RunDue() // its first attempt: 503
	if items := e.Get(e.Admin, "/v1/integrations/honest/events").Expect(200).Items(); len(items) != 0 {
		t.Fatalf("a replayed event in flight is listed: %v", items)
	}
	e.Clock.Advance(time.Minute)
	e.RunDue()
	if items := e.Get(e.Admin, "/v1/integrations/honest/events").Expect(200).Items(); len(items) != 1 || items[0]["status"] != "success" {
		t.Fatalf("after the replay: %v", items)
	}
	if n := len(tn.requests()); n != 5 {
		t.Fatalf("the tunnel got %d requests in all", n)
	}
	// Another organization's admin sees the public integration, and may not follow its events.
	other := e.NewUser("Olga")
	e.NewOrg(other, "Olga Corp")
	e.Get(other, "/v1/integrations/honest/events/"+task+"/delivery").ExpectError(403)
}

// silentTunnel accepts connections and reads what it is sent, and never answers.
type silentTunnel struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newSilentTunnel(t *testing.T) *silentTunnel {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	st := &silentTunnel{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			st.mu.Lock()
			st.conns = append(st.conns, c)
			st.mu.Unlock()
			go io.Copy(io.Discard, c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		st.mu.Lock()
		defer st.mu.Unlock()
		for _, c := range st.conns {
			c.Close()
		}
	})
	return st
}

func (st *silentTunnel) accepted() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.conns)
}

// A tunnel that accepts and never answers: each attempt times out at the configured bound, is
// retried with the backoff, and after five failures in a row development mode ends and the
// last attempt runs the published script (which throws here), so the event ends failed. The
// request that queued the event does not wait on any of it.
func TestIntegrationDeliveryToASilentTunnel(t *testing.T) {
	t.Parallel()
	const timeout = time.Second
	e := apitest.NewWithConfig(t, func(c *config.Config) { c.IntegrationTunnelTimeout = timeout })
	st := newSilentTunnel(t)
	publish(e, "silent", map[string]any{"script": "export default { fetch() { throw new Error('the script fails too') } }"})
	e.Put(e.Admin, "/v1/integrations/silent/dev", map[string]any{"tunnelUrl": "http://" + st.ln.Addr().String(), "all": false}).Expect(204)

	start := time.Now()
	e.Post(e.Admin, "/v1/integrations/silent/installations", map[string]any{"organization": e.Org}).Expect(201)
	if took := time.Since(start); took >= timeout*8/10 {
		t.Fatalf("the install that queued the event took %s (the tunnel's timeout is %s)", took, timeout)
	}
	// A background worker is delivering it meanwhile: the tunnel holds the connection.
	for i := 0; i < 200 && st.accepted() == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if st.accepted() == 0 {
		t.Fatalf("no delivery reached the tunnel")
	}

	start = time.Now()
	deliverAll(e)
	took := time.Since(start)
	// Five attempts of at most the timeout each (the first may have been under way already),
	// and the script's: bounded well under a minute.
	if took > 5*timeout+10*time.Second {
		t.Fatalf("delivering took %s", took)
	}
	id := e.Get(e.Admin, "/v1/integrations/silent/events").Expect(200).Items()[0]["id"].(string)
	status, trace := eventTrace(e, "silent", id)
	joined := strings.Join(trace, " | ")
	timedOut, attempts := 0, 0
	for _, l := range trace {
		if strings.HasPrefix(l, "attempt ") {
			attempts++
		}
		if strings.HasPrefix(l, "error: ") && strings.Contains(l, "within 1s") {
			timedOut++
		}
	}
	if status != "failed" || attempts != 6 || timedOut != 5 || st.accepted() != 5 {
		t.Fatalf("status %s, %d attempts, %d timed out, %d connections: %s", status, attempts, timedOut, st.accepted(), joined)
	}
	for _, want := range []string{"retry after 1s", "retry after 2s", "retry after 4s", "retry after 8s", "retry after 16s",
		"attempt 6: run the script of version 1", "the script failed: Error: the script fails too"} {
		if !strings.Contains(joined, want) {
			t.Fatalf("trace lacks %q: %s", want, joined)
		}
	}
}
