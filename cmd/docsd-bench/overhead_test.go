package main

import (
	"strings"
	"testing"
	"time"
)

func TestParseProfileTop(t *testing.T) {
	out := `File: docsd
Type: cpu
Duration: 15.21s, Total samples = 2700ms (17.76%)
Showing nodes accounting for 2700ms, 100% of 2700ms total
      flat  flat%   sum%        cum   cum%
      40ms  1.48%  1.48%     1660ms 61.48%  net/http.(*conn).serve
         0     0% 36.67%      130ms  4.81%  docsd/internal/httpapi.(*Server).requestGeneration
         0     0% 37.04%      120ms  4.44%  docsd/internal/httpapi.(*Server).logRequest
         0     0% 37.04%      120ms  4.44%  docsd/internal/httpapi.(*Server).logRequest.func1
`
	total, log, gen, err := parseProfileTop(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if total != 2700*time.Millisecond || log != 120*time.Millisecond || gen != 130*time.Millisecond {
		t.Errorf("got total %v, log %v, check %v; want 2.7s, 120ms, 130ms", total, log, gen)
	}
	r := overheadResult{Total: total, Log: log, Gen: gen}
	if s := r.share(); s < 0.0925 || s > 0.0927 {
		t.Errorf("share %v, want 250/2700", s)
	}
	if _, _, _, err := parseProfileTop(strings.NewReader("File: docsd\n")); err == nil {
		t.Error("a profile without its total was accepted")
	}
}
