package app

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"docsd/internal/clock"
	"docsd/internal/store"
)

// metricCollectors are the signals /metrics shows besides the HTTP layer's own: the job
// queue as the database holds it (so every instance of a fleet reports the same queue) and
// the database's connection pools.
func (a *App) metricCollectors() []prometheus.Collector {
	cs := []prometheus.Collector{newJobCollector(a.DB, a.Clock), a.Outbox.Metrics()}
	cs = append(cs, a.LLMMetrics.Collectors()...)
	for name, pool := range a.DB.Pools() {
		cs = append(cs, collectors.NewDBStatsCollector(pool, name))
	}
	return cs
}

// jobCollector reads the jobs table at each scrape.
type jobCollector struct {
	db                                     *store.DB
	clock                                  clock.Clock
	queued, retrying, running, failed, age *prometheus.Desc
}

func newJobCollector(db *store.DB, clk clock.Clock) *jobCollector {
	kind := []string{"kind"}
	return &jobCollector{db: db, clock: clk,
		queued:   prometheus.NewDesc("docsd_jobs_queued", "Jobs waiting to run, first attempts and retries, by kind.", kind, nil),
		retrying: prometheus.NewDesc("docsd_jobs_retrying", "Queued jobs that have failed at least once and wait for a retry, by kind.", kind, nil),
		running:  prometheus.NewDesc("docsd_jobs_running", "Jobs claimed by a worker, by kind.", kind, nil),
		failed:   prometheus.NewDesc("docsd_jobs_failed", "Jobs that ran out of attempts, kept until pruned, by kind.", kind, nil),
		age:      prometheus.NewDesc("docsd_jobs_oldest_queued_age_seconds", "How long the longest-waiting due job has waited, by kind.", kind, nil),
	}
}

func (c *jobCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.queued, c.retrying, c.running, c.failed, c.age} {
		ch <- d
	}
}

func (c *jobCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	stats, err := c.db.JobStats(ctx, c.clock.Now())
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.queued, err)
		return
	}
	for _, s := range stats {
		ch <- prometheus.MustNewConstMetric(c.queued, prometheus.GaugeValue, float64(s.Queued), s.Kind)
		ch <- prometheus.MustNewConstMetric(c.retrying, prometheus.GaugeValue, float64(s.Retrying), s.Kind)
		ch <- prometheus.MustNewConstMetric(c.running, prometheus.GaugeValue, float64(s.Running), s.Kind)
		ch <- prometheus.MustNewConstMetric(c.failed, prometheus.GaugeValue, float64(s.Failed), s.Kind)
		ch <- prometheus.MustNewConstMetric(c.age, prometheus.GaugeValue, s.OldestDue.Seconds(), s.Kind)
	}
}
