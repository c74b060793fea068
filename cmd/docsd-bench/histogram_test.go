package main

import (
	"math"
	"testing"
	"time"
)

func TestHistogramBucketsCoverEveryValueInOrder(t *testing.T) {
	t.Parallel()
	prev := -1
	for _, v := range []uint64{0, 1, 255, 256, 257, 511, 512, 1000, 1 << 20, 1<<40 + 12345, math.MaxUint64} {
		i := bucketOf(v)
		if i < prev || i >= bucketCount {
			t.Fatalf("bucketOf(%d) = %d after %d (of %d)", v, i, prev, bucketCount)
		}
		if top := bucketTop(i); top < v || (v >= subBuckets && float64(top-v) > float64(v)/halfBuckets) {
			t.Fatalf("bucketTop(bucketOf(%d)) = %d: not within 1/%d above", v, top, halfBuckets)
		}
		prev = i
	}
}

func TestHistogramQuantilesWithinPrecision(t *testing.T) {
	t.Parallel()
	var h histogram
	for v := 1; v <= 100_000; v++ {
		h.record(time.Duration(v) * time.Microsecond)
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 50 * time.Millisecond}, {0.99, 99 * time.Millisecond}, {1, 100 * time.Millisecond}} {
		got := h.quantile(c.q)
		if math.Abs(float64(got-c.want)) > float64(c.want)/halfBuckets {
			t.Errorf("quantile(%v) = %v, want %v within 1/%d", c.q, got, c.want, halfBuckets)
		}
	}
	if h.quantile(0) != time.Microsecond {
		t.Errorf("quantile(0) = %v, want the smallest sample", h.quantile(0))
	}
}

func TestHistogramMergeAddsCountsAndBounds(t *testing.T) {
	t.Parallel()
	var a, b, empty histogram
	a.record(3 * time.Millisecond)
	b.record(1 * time.Millisecond)
	b.record(9 * time.Millisecond)
	a.merge(&b)
	a.merge(&empty)
	if a.total != 3 || a.min != uint64(time.Millisecond) || a.max != uint64(9*time.Millisecond) {
		t.Fatalf("merged: total %d, min %d, max %d", a.total, a.min, a.max)
	}
	if got := a.quantile(0.5); got < 3*time.Millisecond || got > 3*time.Millisecond+3*time.Millisecond/halfBuckets {
		t.Errorf("median = %v, want about 3ms", got)
	}
	if empty.quantile(0.99) != 0 {
		t.Errorf("an empty histogram's quantile = %v, want 0", empty.quantile(0.99))
	}
}
