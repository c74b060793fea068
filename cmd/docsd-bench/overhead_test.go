package main

import (
	"strings"
	"testing"
	"time"
)

func TestParseFocusedTop(t *testing.T) {
	out := `File: docsd
Type: cpu
Duration: 15.21s, Total samples = 2700ms (17.76%)
Active filters:
   focus=logRequest
Showing nodes accounting for 120ms, 4.44% of 2700ms total
      flat  flat%   sum%        cum   cum%
      40ms  1.48%  1.48%      120ms  4.44%  net/http.(*conn).serve
      80ms  2.96%  4.44%       80ms  2.96%  docsd/internal/httpapi.(*Server).logRequest
`
	total, matched, err := parseFocusedTop(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if total != 2700*time.Millisecond || matched != 120*time.Millisecond {
		t.Errorf("got total %v, matched %v; want 2.7s, 120ms", total, matched)
	}
	r := overheadResult{Total: total, Log: matched, Gen: 130 * time.Millisecond}
	if s := r.share(); s < 0.0925 || s > 0.0927 {
		t.Errorf("share %v, want 250/2700", s)
	}
	// A focus that matched nothing: pprof says so on stderr and shows no node.
	none := "File: docsd\nDuration: 5s, Total samples = 5400ms (104%)\nShowing nodes accounting for 0, 0% of 5400ms total\n"
	if total, matched, err := parseFocusedTop(strings.NewReader(none)); err != nil || total != 5400*time.Millisecond || matched != 0 {
		t.Errorf("no match: got %v, %v, %v; want 5.4s, 0", total, matched, err)
	}
	if _, _, err := parseFocusedTop(strings.NewReader("File: docsd\n")); err == nil {
		t.Error("a profile without its total was accepted")
	}
	if _, _, err := parseFocusedTop(strings.NewReader("Duration: 5s, Total samples = 5400ms (104%)\n")); err == nil {
		t.Error("a profile without the focused total was accepted")
	}
}
