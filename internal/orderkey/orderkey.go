// Package orderkey makes ordering keys for siblings that can be reordered one at a time: a key
// between any two neighbours always exists, so placing an item never renumbers the others.
//
// Keys are base-62 strings ("0-9A-Za-z") compared byte by byte, read as fractions: "V" is
// about one half, "V1" a little more. No key ends in '0', the smallest digit, so there is
// always room before any key.
package orderkey

import "strings"

const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

const base = len(digits)

// First is the key of an item alone at its level.
const First = "V"

func value(c byte) int { return strings.IndexByte(digits, c) }

// Valid reports whether k is a well-formed key.
func Valid(k string) bool {
	if k == "" || k[len(k)-1] == digits[0] {
		return false
	}
	for i := 0; i < len(k); i++ {
		if value(k[i]) < 0 {
			return false
		}
	}
	return true
}

// Between returns a key strictly between a and b, where "" stands for an open end: Between("",
// "") is First, Between(a, "") follows a and Between("", b) precedes b. a must sort before b
// when both are given; the result is then undefined otherwise.
//
// At the open ends the key moves by one digit (not by halving), so adding items at the top or
// the bottom of a level again and again grows keys by one character every 61 additions. Between
// two neighbours it takes the midpoint, so keys grow by a character about every 6 insertions
// into the same gap, and stay short under ordinary use.
func Between(a, b string) string {
	switch {
	case a == "" && b == "":
		return First
	case b == "":
		return after(a)
	case a == "":
		return before(b)
	}
	return midpoint(a, b)
}

// after returns a short key greater than a: its first digit plus one when that digit is not
// the largest, otherwise the same first digit followed by a key after the rest.
func after(a string) string {
	if d := value(a[0]); d < base-1 {
		return string(digits[d+1])
	}
	if len(a) == 1 {
		return a + string(digits[1])
	}
	return a[:1] + after(a[1:])
}

// before returns a short key smaller than b, by the mirror rule of after. A first digit of 1
// cannot go down to 0 (no key ends in 0), so the key descends under "0" instead: "0z" < "1".
func before(b string) string {
	d := value(b[0])
	switch {
	case d > 1:
		return string(digits[d-1])
	case d == 1 && len(b) > 1:
		return b[:1] // "1" < "1x"
	case d == 1:
		return string(digits[0]) + string(digits[base-1])
	}
	return b[:1] + before(b[1:]) // b starts with 0 and goes on: stay under it
}

// midpoint returns a key between a and b (a < b, both non-empty), reading them as fractions
// with missing digits as 0.
func midpoint(a, b string) string {
	n := 0
	for n < len(b) && digitAt(a, n) == value(b[n]) {
		n++
	}
	if n > 0 {
		rest := ""
		if n < len(a) {
			rest = a[n:]
		}
		return b[:n] + midpointOpen(rest, b[n:])
	}
	return midpointOpen(a, b)
}

// midpointOpen is midpoint for a (possibly empty, meaning 0) and b (possibly empty, meaning 1)
// whose first digits differ.
func midpointOpen(a, b string) string {
	da := 0
	if a != "" {
		da = value(a[0])
	}
	db := base
	if b != "" {
		db = value(b[0])
	}
	if db-da > 1 {
		return string(digits[(da+db+1)/2])
	}
	if len(b) > 1 {
		return b[:1] // a < b[:1] < b
	}
	rest := ""
	if len(a) > 1 {
		rest = a[1:]
	}
	return string(digits[da]) + midpointOpen(rest, "")
}

func digitAt(s string, i int) int {
	if i < len(s) {
		return value(s[i])
	}
	return 0
}
