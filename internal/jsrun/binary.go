package jsrun

import (
	"fmt"
	"strings"
)

// Bytes cross between Go and JavaScript as "binary strings": one character per byte, code
// points 0 to 255. The engine converts strings as UTF-8, which carries those code points
// losslessly, and JavaScript turns them into a Uint8Array with one charCodeAt per byte, far
// cheaper than base64 in the interpreter.

// fromBinary decodes a binary string; a character above 255 is the script's error.
func fromBinary(s string) ([]byte, error) {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 255 {
			return nil, fmt.Errorf("binary data holds the character U+%04X, above 255", r)
		}
		b = append(b, byte(r))
	}
	return b, nil
}

// toBinary encodes bytes as a binary string.
func toBinary(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/2)
	for _, c := range b {
		sb.WriteRune(rune(c))
	}
	return sb.String()
}
