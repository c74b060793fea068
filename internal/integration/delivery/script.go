package delivery

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"docsd/internal/fetch"
	"docsd/internal/integration"
	"docsd/internal/jsrun"
)

// Scripts prepares integration scripts for the engine once per source and keeps them, so an
// event pays only for its invocation.
type Scripts struct {
	Engine jsrun.Engine

	mu       sync.Mutex
	prepared map[[32]byte]jsrun.Prepared
}

// scriptsKept bounds the prepared scripts kept; past it the cache starts again (a server runs
// few integrations, and a publish makes a new source).
const scriptsKept = 256

// Prepare returns source prepared for the engine, from the cache when it was prepared before.
func (s *Scripts) Prepare(source string) (jsrun.Prepared, error) {
	key := sha256.Sum256([]byte(source))
	s.mu.Lock()
	p, ok := s.prepared[key]
	s.mu.Unlock()
	if ok {
		return p, nil
	}
	p, err := s.Engine.Prepare(source)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.prepared == nil || len(s.prepared) >= scriptsKept {
		s.prepared = map[[32]byte]jsrun.Prepared{}
	}
	s.prepared[key] = p
	s.mu.Unlock()
	return p, nil
}

// runScript dispatches the event to the integration's script in the engine and says what came
// of it: a 2xx answer is a success; a thrown error, a limit reached or any other answer fails the
// event for good (running the same script on the same event again would end the same way).
func (d *Deliverer) runScript(ctx context.Context, dl integration.Delivery) (integration.Outcome, error) {
	env, err := d.environment(ctx, dl)
	if err != nil {
		return integration.Outcome{}, err
	}
	res, trace, err := d.invoke(ctx, dl.Integration.Script, json.RawMessage(dl.Event.Payload), env, nil)
	o := integration.Outcome{Final: true, Logs: traceLogs(trace, d.Clock.Now())}
	var ie *jsrun.InvokeError
	switch {
	case errors.As(err, &ie):
		o.Message = "the script failed: " + ie.Message
	case err != nil:
		return integration.Outcome{}, err
	case res.Status >= 200 && res.Status < 300:
		o.Success, o.Final, o.Message = true, false, fmt.Sprintf("answer %d from the script", res.Status)
	default:
		o.Message = fmt.Sprintf("answer %d from the script: %s", res.Status, snippet(res.Body))
	}
	return o, nil
}

// invoke runs an event through script with the environment env (JSON) and fetchBody (nil for
// none). A script that no longer prepares (published before scripts were validated) is an
// *InvokeError like any other failure of the script.
func (d *Deliverer) invoke(ctx context.Context, script string, event, env json.RawMessage, fetchBody []byte) (*jsrun.Response, *jsrun.Trace, error) {
	if d.Scripts == nil {
		return nil, nil, errors.New("no engine runs integration scripts")
	}
	prepared, err := d.Scripts.Prepare(script)
	if err != nil {
		var pe *jsrun.ParseError
		if errors.As(err, &pe) {
			return nil, nil, &jsrun.InvokeError{Kind: jsrun.ErrThrown, Message: pe.Error()}
		}
		return nil, nil, err
	}
	req, err := jsrun.EventRequest(strings.TrimRight(d.BaseURL, "/"), event, env, fetchBody)
	if err != nil {
		return nil, nil, err
	}
	return d.Scripts.Engine.Invoke(ctx, prepared, req, map[string]any{})
}

// traceLogs turns an invocation's console output and requests into the event's trace.
// Requests carry no time of their own: they are noted at now.
func traceLogs(t *jsrun.Trace, now time.Time) []integration.LogEntry {
	if t == nil {
		return nil
	}
	var out []integration.LogEntry
	for _, l := range t.Logs {
		level := l.Level
		if level == "log" {
			level = "info" // the public spec's levels are debug, info, warn and error
		}
		out = append(out, integration.LogEntry{Message: l.Message, Timestamp: l.Time, Level: level})
	}
	for _, f := range t.Fetches {
		msg := fmt.Sprintf("fetch %s %s: %d, %s in %s", f.Method, f.Host, f.Status, fetch.ByteSize(int64(f.Bytes)), f.Duration.Round(time.Millisecond))
		level := "debug"
		if f.Error != "" {
			msg, level = fmt.Sprintf("fetch %s %s failed: %s", f.Method, f.Host, f.Error), "warn"
		}
		out = append(out, integration.LogEntry{Message: msg, Timestamp: now, Level: level})
	}
	return out
}

// snippet is the start of an answer's body, for the trace.
func snippet(b []byte) string {
	const max = 200
	if len(b) > max {
		return strings.ToValidUTF8(string(b[:max]), "") + "…"
	}
	return strings.ToValidUTF8(string(b), "?")
}
