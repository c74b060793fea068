package webimport

import "testing"

func TestRobotsRules(t *testing.T) {
	r := parseRobots(`# a comment
User-agent: other
Disallow: /

User-agent: *
Disallow: /private/
Allow: /private/open
Disallow: /tmp*x
Disallow:
`)
	for path, want := range map[string]bool{
		"/": true, "/guide/": true, "/private/": false, "/private/a.html": false,
		"/private/open.html": true, "/tmp/a": false,
	} {
		if got := r.allowed(path); got != want {
			t.Errorf("allowed(%q) = %v, want %v", path, got, want)
		}
	}
	named := parseRobots("User-agent: docsd-import\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n")
	if !named.allowed("/a") || named.allowed("/x/y") {
		t.Error("the group naming docsd-import must apply instead of *")
	}
}
