package contenttree

import (
	"fmt"
	"strings"
)

// Order keys are fractional indexes: a key is read as the digits after the point of a number in base
// 62, with the digits in byte order, so keys compare as plain strings. A key never ends in its zero
// digit, which leaves room between any two keys; inserting a page never renumbers its siblings, and
// two change requests that insert pages in different places touch disjoint pages.

const orderDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// OrderBetween returns a key that sorts after before and before after. An empty before stands for
// the start of the list, an empty after for its end, so OrderBetween("", "") starts a list and
// OrderBetween(last, "") appends to one. It fails when a key was not made by OrderBetween or when
// before does not sort before after.
func OrderBetween(before, after string) (string, error) {
	for _, k := range []string{before, after} {
		if !validOrder(k) {
			return "", fmt.Errorf("order key %q: must be base-62 digits not ending in 0", k)
		}
	}
	if after != "" && before >= after {
		return "", fmt.Errorf("order key %q must sort before %q", before, after)
	}
	return midpoint(before, after), nil
}

func validOrder(k string) bool {
	for i := 0; i < len(k); i++ {
		if strings.IndexByte(orderDigits, k[i]) < 0 {
			return false
		}
	}
	return k == "" || k[len(k)-1] != orderDigits[0]
}

// midpoint returns a key strictly between a and b (b empty: the end), with a < b, both valid.
func midpoint(a, b string) string {
	if b != "" {
		// Keep the digits the two share; a missing digit of a counts as zero.
		n := 0
		for n < len(b) && digitAt(a, n) == b[n] {
			n++
		}
		if n > 0 {
			return b[:n] + midpoint(a[min(n, len(a)):], b[n:])
		}
	}
	lo := strings.IndexByte(orderDigits, digitAt(a, 0))
	hi := len(orderDigits)
	if b != "" {
		hi = strings.IndexByte(orderDigits, b[0])
	}
	if hi-lo > 1 {
		return string(orderDigits[(lo+hi)/2])
	}
	// The first digits are neighbours. A longer b still has room below it at its first digit;
	// otherwise keep a's first digit and go between the rest of a and the end.
	if len(b) > 1 {
		return b[:1]
	}
	return string(orderDigits[lo]) + midpoint(a[min(1, len(a)):], "")
}

func digitAt(k string, i int) byte {
	if i < len(k) {
		return k[i]
	}
	return orderDigits[0]
}
