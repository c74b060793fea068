package integration

import (
	"strings"
	"unicode/utf16"

	"docsd/internal/apperr"
)

// lzURIAlphabet is lz-string's URI-safe alphabet (compressToEncodedURIComponent), in which
// renderIntegrationUIWithGet carries its request.
const lzURIAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$"

// DecompressLZString decodes an lz-string compressToEncodedURIComponent value.
func DecompressLZString(s string) ([]byte, error) {
	bad := apperr.Invalidf("request: not an lz-string compressed value")
	if s == "" {
		return nil, apperr.Invalidf("request: is required")
	}
	s = strings.ReplaceAll(s, " ", "+")
	vals := make([]int, len(s))
	for i := 0; i < len(s); i++ {
		v := strings.IndexByte(lzURIAlphabet, s[i])
		if v < 0 {
			return nil, bad
		}
		vals[i] = v
	}
	out, ok := lzDecompress(vals, 32)
	if !ok {
		return nil, bad
	}
	return []byte(string(utf16.Decode(out))), nil
}

func lzDecompress(vals []int, reset int) ([]uint16, bool) {
	if len(vals) == 0 {
		return nil, false
	}
	val, position, index := vals[0], reset, 1
	bits := func(n int) (int, bool) {
		out := 0
		for p := 0; p < n; p++ {
			b := val & position
			position >>= 1
			if position == 0 {
				position = reset
				if index >= len(vals) {
					val = 0
				} else {
					val = vals[index]
				}
				index++
			}
			if b > 0 {
				out |= 1 << p
			}
		}
		return out, true
	}
	dict := [][]uint16{{0}, {1}, {2}}
	enlargeIn, numBits := 4, 3
	next, _ := bits(2)
	var c []uint16
	switch next {
	case 0:
		v, _ := bits(8)
		c = []uint16{uint16(v)}
	case 1:
		v, _ := bits(16)
		c = []uint16{uint16(v)}
	default:
		return nil, next == 2
	}
	dict = append(dict, c)
	w := c
	result := append([]uint16(nil), c...)
	for {
		if index > len(vals) {
			return nil, false
		}
		code, _ := bits(numBits)
		switch code {
		case 0, 1:
			width := 8
			if code == 1 {
				width = 16
			}
			v, _ := bits(width)
			dict = append(dict, []uint16{uint16(v)})
			code = len(dict) - 1
			enlargeIn--
		case 2:
			return result, true
		}
		if enlargeIn == 0 {
			enlargeIn = 1 << numBits
			numBits++
		}
		var entry []uint16
		switch {
		case code < len(dict):
			entry = dict[code]
		case code == len(dict):
			entry = append(append([]uint16(nil), w...), w[0])
		default:
			return nil, false
		}
		result = append(result, entry...)
		dict = append(dict, append(append([]uint16(nil), w...), entry[0]))
		enlargeIn--
		w = entry
		if enlargeIn == 0 {
			enlargeIn = 1 << numBits
			numBits++
		}
		if len(result) > 1<<20 {
			return nil, false
		}
	}
}
