package outbox

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics is a Prometheus collector of each consumer's lag, read from the database when
// scraped (so every instance reports the fleet's truth), and of the events this process
// handled.
func (r *Runner) Metrics() prometheus.Collector { return runnerMetrics{r} }

type runnerMetrics struct{ r *Runner }

var (
	pendingDesc = prometheus.NewDesc("docsd_outbox_pending_events",
		"Events after the consumer's cursor, waiting to be processed.", []string{"consumer"}, nil)
	oldestDesc = prometheus.NewDesc("docsd_outbox_oldest_pending_seconds",
		"Age of the oldest event waiting for the consumer (0 when none).", []string{"consumer"}, nil)
	failuresDesc = prometheus.NewDesc("docsd_outbox_failed_attempts",
		"Failed attempts of the consumer since its last success, on any instance.", []string{"consumer"}, nil)
	processedDesc = prometheus.NewDesc("docsd_outbox_processed_events_total",
		"Events the consumer processed in this process.", []string{"consumer"}, nil)
	failedDesc = prometheus.NewDesc("docsd_outbox_failed_batches_total",
		"Batches the consumer failed to process in this process.", []string{"consumer"}, nil)
)

func (m runnerMetrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{pendingDesc, oldestDesc, failuresDesc, processedDesc, failedDesc} {
		ch <- d
	}
}

func (m runnerMetrics) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, c := range m.r.list() {
		ch <- prometheus.MustNewConstMetric(processedDesc, prometheus.CounterValue, float64(c.processed.Load()), c.name)
		ch <- prometheus.MustNewConstMetric(failedDesc, prometheus.CounterValue, float64(c.failed.Load()), c.name)
		lag, err := m.r.store.ConsumerLag(ctx, c.name, m.r.clock.Now())
		if err != nil {
			ch <- prometheus.NewInvalidMetric(pendingDesc, err)
			continue
		}
		ch <- prometheus.MustNewConstMetric(pendingDesc, prometheus.GaugeValue, float64(lag.Pending), c.name)
		ch <- prometheus.MustNewConstMetric(oldestDesc, prometheus.GaugeValue, lag.Oldest.Seconds(), c.name)
		ch <- prometheus.MustNewConstMetric(failuresDesc, prometheus.GaugeValue, float64(lag.Failures), c.name)
	}
}
