package ids

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, s := range []string{New(), Secret(), "1", "f0123456789abcdef012", strings.Repeat("a", MaxLen)} {
		if !Valid(s) {
			t.Errorf("Valid(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"", "\x00", "a\x00", "\xff", "é", "a-b", "a/b", "a b", "..", strings.Repeat("a", MaxLen+1)} {
		if Valid(s) {
			t.Errorf("Valid(%q) = true, want false", s)
		}
	}
}
