package gitbookimport

import (
	"testing"
	"testing/fstest"
)

func TestRewriteLinksFollowsTheSpaceLayout(t *testing.T) {
	fsys := fstest.MapFS{
		"README.md": {Data: []byte("# Home\n\nSee [setup](docs/install/setup-guide.md#run), [ref][r] and [away](https://example.com).\n\n[r]: api.md\n")},
		"SUMMARY.md": {Data: []byte("# Summary\n\n* [Home](README.md)\n* [Guides](guides.md)\n" +
			"  * [Setup](docs/install/setup-guide.md)\n* [API](api.md)\n")},
		"guides.md": {Data: []byte("# Guides\n\n[Setup](docs/install/setup-guide.md) ![x](img/x.png)\n")},
		"docs/install/setup-guide.md": {Data: []byte("# Setup\n\nBack [home](../../README.md), [api](../../api.md#auth), " +
			"![logo](../../.gitbook/assets/logo.png), [gone](../../nowhere.md), [here](#local), `[code](x.md)`.\n" +
			"{% content-ref url=\"../../api.md\" %}\n[api.md](../../api.md)\n{% endcontent-ref %}\n")},
		"api.md":                   {Data: []byte("# API\n")},
		"img/x.png":                {Data: []byte("\x89PNG x")},
		".gitbook/assets/logo.png": {Data: []byte("\x89PNG logo")},
	}
	res, err := Import(fsys)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]string{}
	for _, p := range res.Pages {
		byPath[p.Path] = p.Markdown
	}
	want := map[string]string{
		// The home page (slug "home") links to setup, which now lives under guides.
		"README.md": "See [setup](guides/setup-guide.md#run), [ref][r] and [away](https://example.com).\n\n[r]: api.md\n",
		// Guides has a page under it, so it lives at guides/README.md.
		"guides.md": "[Setup](setup-guide.md) ![x](../.gitbook/assets/x.png)\n",
		"docs/install/setup-guide.md": "Back [home](../home.md), [api](../api.md#auth), ![logo](../.gitbook/assets/logo.png), " +
			"[gone](../../nowhere.md), [here](#local), `[code](x.md)`.\n" +
			"{% content-ref url=\"../api.md\" %}\n[api.md](../api.md)\n{% endcontent-ref %}\n",
	}
	for p, w := range want {
		if got := byPath[p]; got != w {
			t.Errorf("%s:\n got %q\nwant %q", p, got, w)
		}
	}
}

func TestRelativePath(t *testing.T) {
	for _, tc := range []struct{ dir, target, want string }{
		{".", "a/b.md", "a/b.md"},
		{"a", "a/b.md", "b.md"},
		{"a/b", "a/c.md", "../c.md"},
		{"a/b", "x/y/z.md", "../../x/y/z.md"},
		{"a", "a/README.md", "README.md"},
		{"a", ".gitbook/assets/x.png", "../.gitbook/assets/x.png"},
	} {
		if got := relativePath(tc.dir, tc.target); got != tc.want {
			t.Errorf("relativePath(%q, %q) = %q, want %q", tc.dir, tc.target, got, tc.want)
		}
	}
}
