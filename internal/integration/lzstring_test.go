package integration

import "testing"

// Vectors made with lz-string 1.5.0's compressToEncodedURIComponent (the JavaScript original),
// which clients use for renderIntegrationUIWithGet's request.
func TestDecompressLZString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"N4Igxg9gtgDhB2BTeAXAkgExALnAgZgJYDmIANCDAE4QwDOOo8OAjAL4WSqIAeKjIFAE8YiHHnhFiAVyoBDFIQQB9OWEjTUINmyA",
			`{"componentId":"config","props":{"n":1},"context":{"type":"configuration_account"}}`},
		{"BYS4NmD2AEDuBvAnMATagUAmoU9NA05tAhgEYDGRpJZlF15tVdN9TjLDbz7rH3Xvn-PWkA",
			"héllo wörld — 日本 " + repeat("abcabcabc", 20)},
	} {
		got, err := DecompressLZString(c.in)
		if err != nil || string(got) != c.want {
			t.Errorf("DecompressLZString(%.20s…) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "!!!", "A"} {
		if _, err := DecompressLZString(bad); err == nil {
			t.Errorf("DecompressLZString(%q) succeeded", bad)
		}
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}
