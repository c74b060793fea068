package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/config"
)

// scrape reads /metrics into series → value, the series written as Prometheus shows it.
func scrape(t *testing.T, e *apitest.Env) map[string]float64 {
	t.Helper()
	r := e.Get(apitest.Anonymous, "/metrics").Expect(200)
	out := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(r.Body))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

func TestMetricsShowJobsPoolsBodiesAndRateLimits(t *testing.T) {
	e := apitest.NewWithConfig(t, func(c *config.Config) {
		c.RateLimitToken, c.RateLimitAddress, c.RateLimitExpensive = 1000, 1000, 1
		c.BodyMemoryBytes = 8 << 20
	})
	e.Clock.Set(time.Now().UTC().Truncate(time.Minute).Add(30 * time.Second))
	// A job of a kind no worker runs: it waits, due for 90 seconds.
	if err := e.App.Jobs.Enqueue(context.Background(), "metrics.probe", map[string]string{}, e.Clock.Now().Add(-90*time.Second), ""); err != nil {
		t.Fatal(err)
	}
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Busy"})
	e.Patch(e.Admin, "/v1/spaces/"+sp, map[string]any{"title": "Busier"}).Expect(200)
	e.Get(e.Admin, "/v1/orgs/"+e.Org+"/search?query=x").Expect(200)
	e.Get(e.Admin, "/v1/orgs/"+e.Org+"/search?query=x").Expect(429)

	m := scrape(t, e)
	pool := "sqlite_writer"
	if apitest.Engine() == "postgres" {
		pool = "postgres"
	}
	checks := []struct {
		series   string
		min, max float64
	}{
		{`docsd_jobs_queued{kind="metrics.probe"}`, 1, 1},
		{`docsd_jobs_running{kind="metrics.probe"}`, 0, 0},
		{`docsd_jobs_retrying{kind="metrics.probe"}`, 0, 0},
		{`docsd_jobs_oldest_queued_age_seconds{kind="metrics.probe"}`, 89, 120},
		{`go_sql_max_open_connections{db_name="` + pool + `"}`, 1, 1000},
		{`go_sql_open_connections{db_name="` + pool + `"}`, 1, 1000},
		{`go_sql_wait_count_total{db_name="` + pool + `"}`, 0, 1e9},
		{`go_sql_wait_duration_seconds_total{db_name="` + pool + `"}`, 0, 1e6},
		{`docsd_http_request_bodies_budget_bytes`, 8 << 20, 8 << 20},
		{`docsd_http_request_bodies_in_flight_bytes`, 0, 0},
		{`docsd_http_rate_limited_total{bucket="expensive"}`, 1, 1},
	}
	for _, c := range checks {
		v, ok := m[c.series]
		if !ok {
			t.Errorf("/metrics has no %s", c.series)
			continue
		}
		if v < c.min || v > c.max {
			t.Errorf("%s = %v, want %v to %v", c.series, v, c.min, c.max)
		}
	}
}
