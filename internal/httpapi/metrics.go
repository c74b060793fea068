package httpapi

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics holds the server's Prometheus collectors, in a registry of its own so that several
// servers (tests) can live in one process.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	// cacheHits counts GET answers served from the answer cache.
	cacheHits prometheus.Counter
	// rateLimited counts requests answered 429, by the bucket that was spent.
	rateLimited *prometheus.CounterVec
	// series holds each (route, method, status)'s counter and histogram once looked up:
	// WithLabelValues validates, hashes and formats its labels on every call, which was most
	// of a request's metrics cost on a cached read. Routes are the registered patterns and
	// statuses few, so the map stays small.
	series sync.Map // seriesKey → *requestSeries
}

type seriesKey struct {
	route, method string
	status        int
}

type requestSeries struct {
	count    prometheus.Counter
	duration prometheus.Observer
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsd_http_requests_total",
			Help: "HTTP requests served, by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "docsd_http_request_duration_seconds",
			Help:    "Time to serve HTTP requests, by route pattern.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"route"}),
	}
	m.cacheHits = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "docsd_http_cache_hits_total",
		Help: "GET answers served again because the database had not changed.",
	})
	m.rateLimited = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "docsd_http_rate_limited_total",
		Help: "Requests answered 429, by the limit they passed: address, token or expensive.",
	}, []string{"bucket"})
	m.registry.MustRegister(m.requests, m.duration, m.cacheHits, m.rateLimited,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// seriesOf returns k's counter and histogram, looked up once.
func (m *metrics) seriesOf(k seriesKey) *requestSeries {
	v, ok := m.series.Load(k)
	if !ok {
		v, _ = m.series.LoadOrStore(k, &requestSeries{
			count:    m.requests.WithLabelValues(k.route, k.method, strconv.Itoa(k.status)),
			duration: m.duration.WithLabelValues(k.route),
		})
	}
	return v.(*requestSeries)
}

func (rs *requestSeries) observe(d time.Duration) {
	rs.count.Inc()
	rs.duration.Observe(d.Seconds())
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// bodies shows the request bodies held in memory against their budget.
func (m *metrics) bodies(b *bodyBudget) {
	m.registry.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "docsd_http_request_bodies_in_flight_bytes",
			Help: "Bytes of request bodies being received, as reserved from the budget.",
		}, func() float64 { return float64(b.inFlight.Load()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "docsd_http_request_bodies_budget_bytes",
			Help: "Most bytes of request bodies held at once (DOCSD_BODY_MEMORY_BYTES).",
		}, func() float64 { return float64(b.size) }),
	)
}
