package jsonlog

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"
)

// The fast path must write exactly what slog's JSON handler writes for the same line, plain
// strings or ones needing escapes (which take the handler's path).
func TestRequestWritesWhatTheJSONHandlerWrites(t *testing.T) {
	at := time.Date(2026, 11, 28, 15, 4, 5, 123456789, time.FixedZone("", 3600))
	for _, l := range []RequestLine{
		{Time: at, RequestID: "ab12-3f", Method: "GET", Path: "/v1/spaces/s1/content/page/p1",
			Route: "GET /v1/spaces/{spaceId}/content/page/{pageId}", Status: 200, Bytes: 6664, Duration: 1234567 * time.Nanosecond},
		{Time: at.UTC(), RequestID: "x", Method: "FOO", Path: "/a<b>&c", Route: "unmatched", Status: 404, Bytes: 0, Duration: 0},
		{Time: at, RequestID: "q\"uote", Method: "GET", Path: "/é/\\/\n", Route: "unmatched", Status: 500, Bytes: -1, Duration: 3 * time.Second},
	} {
		var got, want bytes.Buffer
		New(&got, nil).Requests(context.Background(), []RequestLine{l})
		slog.New(slog.NewJSONHandler(&want, nil)).LogAttrs(context.Background(), slog.LevelInfo, "request",
			slog.String("requestId", l.RequestID), slog.String("method", l.Method), slog.String("path", l.Path),
			slog.String("route", l.Route), slog.Int("status", l.Status), slog.Int("bytes", l.Bytes),
			slog.String("duration", Millis(l.Duration)))
		// LogAttrs stamps the current time: put the line's own in its place.
		w := want.Bytes()
		i, j := bytes.Index(w, []byte(`"time":"`))+len(`"time":"`), bytes.Index(w, []byte(`","level"`))
		w = append(append(append([]byte{}, w[:i]...), l.Time.Format(time.RFC3339Nano)...), w[j:]...)
		if got.String() != string(w) {
			t.Errorf("fast path wrote\n%s\nthe JSON handler\n%s", got.String(), w)
		}
	}
	if d := Millis(1234567 * time.Nanosecond); d != "1.234ms" {
		t.Errorf("Millis = %q, want 1.234ms", d)
	}
}

// A batch writes the same lines, in order, whichever path each takes, in as few writes as the
// escaped lines allow.
func TestRequestsWritesEachLineInOrder(t *testing.T) {
	at := time.Date(2026, 11, 28, 15, 4, 5, 0, time.UTC)
	ls := []RequestLine{
		{Time: at, RequestID: "a", Method: "GET", Path: "/1", Route: "unmatched", Status: 200},
		{Time: at, RequestID: "b", Method: "GET", Path: "/2", Route: "unmatched", Status: 200},
		{Time: at, RequestID: "c", Method: "GET", Path: "/é", Route: "unmatched", Status: 404}, // escaped: the handler's path
		{Time: at, RequestID: "d", Method: "GET", Path: "/4", Route: "unmatched", Status: 200},
	}
	var want bytes.Buffer
	for _, l := range ls {
		New(&want, nil).Requests(context.Background(), []RequestLine{l})
	}
	var got writes
	New(&got, nil).Requests(context.Background(), ls)
	if string(bytes.Join(got.each, nil)) != want.String() {
		t.Errorf("batch wrote\n%s\none at a time\n%s", bytes.Join(got.each, nil), want.String())
	}
	if len(got.each) != 3 { // a and b together, c by the handler, d
		t.Errorf("%d writes, want 3", len(got.each))
	}
}

// writes keeps each Write apart.
type writes struct{ each [][]byte }

func (w *writes) Write(p []byte) (int, error) {
	w.each = append(w.each, bytes.Clone(p))
	return len(p), nil
}

func TestRequestFollowsTheLevel(t *testing.T) {
	var out bytes.Buffer
	h := New(&out, &slog.HandlerOptions{Level: slog.LevelWarn})
	if h.Enabled(context.Background(), slog.LevelInfo) {
		t.Fatal("info enabled at level warn")
	}
	slog.New(h).Warn("w", "k", 1)
	if !bytes.Contains(out.Bytes(), []byte(`"msg":"w","k":1`)) {
		t.Fatalf("the handler's own records: %s", out.String())
	}
}

// plainByByte is plain's definition, one byte at a time.
func plainByByte(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// plain, which reads eight bytes at a time, agrees with its definition for every byte value
// at every place of a word and of the tail, beside every other byte value, and on strings
// of every length up to three words made of plain bytes with one that is not.
func TestPlainAgreesWithItsDefinition(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := plain(s), plainByByte(s); got != want {
			t.Fatalf("plain(%q) = %v, want %v", s, got, want)
		}
	}
	for c := range 256 {
		for d := range 256 {
			for at := range 11 { // the first word's places, then the tail's
				b := []byte("abcdefgh~!#")
				b[at] = byte(c)
				b[(at+1)%len(b)] = byte(d)
				check(string(b))
			}
		}
	}
	for n := range 25 {
		s := bytes.Repeat([]byte{'a'}, n)
		check(string(s))
		for i := range n {
			for _, c := range []byte{0, 0x1f, 0x20, '"', '\\', 0x7e, 0x7f, 0x80, 0xff} {
				b := bytes.Clone(s)
				b[i] = c
				check(string(b))
			}
		}
	}
}

func BenchmarkPlain(b *testing.B) {
	path := "/v1/spaces/8ZrUcBLLhCXSZa2uyaEa/content/page/p0251"
	for b.Loop() {
		if !plain(path) {
			b.Fatal("not plain")
		}
	}
}
