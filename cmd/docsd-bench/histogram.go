package main

import (
	"math/bits"
	"time"
)

// histogram counts latencies in log-linear buckets, HDR-style: every power of two is split
// into subBuckets linear steps, so a reported value is within 1/subBuckets (under 0.8%) of the
// true one, at a fixed 60 KB whatever the number of samples.
type histogram struct {
	counts   [bucketCount]uint64
	total    uint64
	min, max uint64 // nanoseconds, exact
}

const (
	subBits     = 8
	subBuckets  = 1 << subBits // values below this get one bucket each
	halfBuckets = subBuckets / 2
	bucketCount = subBuckets + (64-subBits)*halfBuckets
)

// bucketOf maps a value to its bucket. Below subBuckets a value is its own bucket; above,
// the value's top subBits bits (its leading 1 included) pick one of halfBuckets steps within
// its power of two.
func bucketOf(v uint64) int {
	if v < subBuckets {
		return int(v)
	}
	shift := bits.Len64(v) - subBits
	return shift*halfBuckets + int(v>>shift)
}

// bucketTop is the largest value that falls in bucket i.
func bucketTop(i int) uint64 {
	if i < subBuckets {
		return uint64(i)
	}
	shift := (i - halfBuckets) / halfBuckets
	mantissa := uint64(i - shift*halfBuckets)
	return (mantissa+1)<<shift - 1
}

func (h *histogram) record(d time.Duration) {
	v := uint64(max(d, 0))
	if h.total == 0 || v < h.min {
		h.min = v
	}
	h.max = max(h.max, v)
	h.counts[bucketOf(v)]++
	h.total++
}

func (h *histogram) merge(o *histogram) {
	if o.total == 0 {
		return
	}
	if h.total == 0 || o.min < h.min {
		h.min = o.min
	}
	h.max = max(h.max, o.max)
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.total += o.total
}

// quantile returns the latency below or at which a fraction q of the samples lie, as the top
// of the bucket holding that sample (never above the largest sample seen).
func (h *histogram) quantile(q float64) time.Duration {
	if h.total == 0 {
		return 0
	}
	if q <= 0 {
		return time.Duration(h.min)
	}
	rank := uint64(q*float64(h.total) + 0.5)
	rank = min(max(rank, 1), h.total)
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return time.Duration(min(max(bucketTop(i), h.min), h.max))
		}
	}
	return time.Duration(h.max)
}
