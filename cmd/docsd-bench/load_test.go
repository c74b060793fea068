package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// loadOn opens a load on an httptest server. Phases end on MaxRequests, never on time: the
// tests assert counts, not speed.
func loadOn(t *testing.T, h http.HandlerFunc, conns int, max int64, body int64) *load {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	l, err := openLoad(loadSpec{Addr: strings.TrimPrefix(srv.URL, "http://"), Path: "/x", Token: "tok",
		Connections: conns, MaxRequests: max, BodyBytes: body, Timeout: 30 * time.Second, CPUOf: []string{"self"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.close)
	return l
}

func TestLoadCountsEveryAnswerUpToTheCap(t *testing.T) {
	t.Parallel()
	var auth atomic.Value
	l := loadOn(t, func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		w.Write([]byte("hello"))
	}, 4, 1000, 5)
	if err := l.phase(context.Background(), time.Minute, true); err != nil {
		t.Fatal(err)
	}
	r := l.finish()
	if r.Requests != 1000 || r.Errors != 0 || r.Latency.total != 1000 || r.Dials != 4 {
		t.Fatalf("requests %d, errors %d (%s), latencies %d, dials %d; want 1000, 0, 1000, 4",
			r.Requests, r.Errors, r.FirstErr, r.Latency.total, r.Dials)
	}
	if auth.Load() != "Bearer tok" {
		t.Errorf("Authorization = %v", auth.Load())
	}
	if len(r.Phases) != 1 || r.Elapsed <= 0 || len(r.CPU) != 1 {
		t.Errorf("phases %v, elapsed %v, CPU %v", r.Phases, r.Elapsed, r.CPU)
	}
}

func TestLoadWarmUpIsNotMeasured(t *testing.T) {
	t.Parallel()
	l := loadOn(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("hi")) }, 2, 100, 2)
	if err := l.phase(context.Background(), time.Minute, false); err != nil {
		t.Fatal(err)
	}
	if r := l.finish(); r.Requests != 0 || r.Latency.total != 0 || r.Errors != 0 || len(r.Phases) != 0 {
		t.Fatalf("after a warm-up: requests %d, latencies %d, errors %d, phases %d", r.Requests, r.Latency.total, r.Errors, len(r.Phases))
	}
}

func TestLoadCountsWrongStatusAndSizeAsErrors(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	l := loadOn(t, func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) % 10 {
		case 3:
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte("nope!"))
		case 7:
			w.Write([]byte("short"[:4]))
		default:
			w.Write([]byte("hello"))
		}
	}, 1, 100, 5)
	if err := l.phase(context.Background(), time.Minute, true); err != nil {
		t.Fatal(err)
	}
	r := l.finish()
	if r.Requests != 80 || r.Errors != 20 || r.FirstErr == "" {
		t.Fatalf("requests %d, errors %d (first %q); want 80 and 20", r.Requests, r.Errors, r.FirstErr)
	}
}

func TestLoadReconnectsWhenTheServerClosesTheConnection(t *testing.T) {
	t.Parallel()
	l := loadOn(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		w.Write([]byte("bye"))
	}, 2, 50, 3)
	if err := l.phase(context.Background(), time.Minute, true); err != nil {
		t.Fatal(err)
	}
	if r := l.finish(); r.Requests != 50 || r.Errors != 0 || r.Dials < 50 {
		t.Fatalf("requests %d, errors %d (%s), dials %d; want 50, 0, at least 50", r.Requests, r.Errors, r.FirstErr, r.Dials)
	}
}

func TestLoadStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	block := make(chan struct{})
	defer close(block)
	l := loadOn(t, func(w http.ResponseWriter, r *http.Request) { <-block }, 3, 1000, 0)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if err := l.phase(ctx, time.Hour, true); err != context.Canceled {
		t.Fatalf("phase = %v, want context.Canceled", err)
	}
}
