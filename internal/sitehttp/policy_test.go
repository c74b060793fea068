package sitehttp

import "testing"

// The page's policy takes what integrations add to the directives that say where things load
// from, starting a directive the page does not set from the one it falls back to, and leaves
// the rest (default-src, frame-ancestors, base-uri, form-action, sandbox) as the page has them.
func TestMergePolicies(t *testing.T) {
	t.Parallel()
	page := [][2]string{{"default-src", "'none'"}, {"style-src", "'sha256-x'"}, {"script-src", "'self'"},
		{"frame-ancestors", "'none'"}}
	cases := []struct {
		policies []string
		want     string
	}{
		{nil, "default-src 'none'; style-src 'sha256-x'; script-src 'self'; frame-ancestors 'none'"},
		{[]string{"script-src https://a.test 'self'; connect-src https://api.test", "connect-src https://api.test https://b.test"},
			"default-src 'none'; style-src 'sha256-x'; script-src 'self' https://a.test; frame-ancestors 'none'; connect-src https://api.test https://b.test"},
		{[]string{"default-src *; frame-ancestors *; sandbox; base-uri *; form-action *"},
			"default-src 'none'; style-src 'sha256-x'; script-src 'self'; frame-ancestors 'none'"},
		// script-src-elem falls back to script-src: adding to it keeps 'self'.
		{[]string{"SCRIPT-SRC-ELEM https://c.test", "frame-src 'none'", "img-src https://i.test"},
			"default-src 'none'; style-src 'sha256-x'; script-src 'self'; frame-ancestors 'none'; script-src-elem 'self' https://c.test; frame-src 'none'; img-src https://i.test"},
	}
	for _, c := range cases {
		if got := mergePolicies(page, c.policies); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.policies, got, c.want)
		}
	}
}
