package markdoc_test

import (
	"testing"

	"docsd/internal/markdoc"
)

func TestLinks(t *testing.T) {
	t.Parallel()
	md := "See [setup](../guides/setup.md#install \"Setup\") and [top](#intro).\n" + // line 1
		"![Logo](.gitbook/assets/logo%20big.png) [site](https://example.com) <me@example.com>\n" + // line 2
		"\n" +
		"[ref link][r] [empty]() [dir](guides/) [clean](intro)\n" + // line 4
		"\n" +
		"<figure><img src=\"../.gitbook/assets/shot.png\" alt=\"Shot\"></figure>\n" + // line 6
		"\n" +
		"Inline <img src=\"i.svg\" alt=\"I\"> and <a href=\"data.csv\">data</a>.\n" + // line 8
		"\n" +
		"{% embed url=\"https://youtu.be/x\" %}\n" + // line 10
		"\n" +
		"{% content-ref url=\"api/\" %}\n[api](api/)\n{% endcontent-ref %}\n" + // line 12
		"\n" +
		"[r]: ./other.md\n"
	want := []markdoc.Link{
		{Kind: "page", Dest: "../guides/setup.md#install", Path: "../guides/setup.md", Anchor: "install", Text: "setup", Line: 1},
		{Kind: "anchor", Dest: "#intro", Anchor: "intro", Text: "top", Line: 1},
		{Kind: "file", Dest: ".gitbook/assets/logo%20big.png", Path: ".gitbook/assets/logo big.png", Text: "Logo", Image: true, Line: 2},
		{Kind: "url", Dest: "https://example.com", Text: "site", Line: 2},
		{Kind: "url", Dest: "mailto:me@example.com", Text: "me@example.com", Line: 2},
		{Kind: "page", Dest: "./other.md", Path: "./other.md", Text: "ref link", Line: 4},
		{Kind: "page", Dest: "guides/", Path: "guides/", Text: "dir", Line: 4},
		{Kind: "page", Dest: "intro", Path: "intro", Text: "clean", Line: 4},
		{Kind: "file", Dest: "../.gitbook/assets/shot.png", Path: "../.gitbook/assets/shot.png", Text: "Shot", Image: true, Line: 6},
		{Kind: "file", Dest: "i.svg", Path: "i.svg", Text: "I", Image: true, Line: 8},
		{Kind: "file", Dest: "data.csv", Path: "data.csv", Line: 8},
		{Kind: "url", Dest: "https://youtu.be/x", Line: 10},
		{Kind: "page", Dest: "api/", Path: "api/", Line: 12},
		{Kind: "page", Dest: "api/", Path: "api/", Text: "api", Line: 13},
	}
	got := markdoc.Links(md)
	if len(got) != len(want) {
		t.Fatalf("got %d links, want %d:\n%+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("link %d:\ngot  %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

func TestLinksLineNumbersCountFrontMatter(t *testing.T) {
	t.Parallel()
	links := markdoc.Links("---\ndescription: x\n---\n\n[a](a.md)")
	if len(links) != 1 || links[0].Line != 5 {
		t.Errorf("links: %+v", links)
	}
}

func TestLinkResolve(t *testing.T) {
	t.Parallel()
	cases := []struct {
		page, dest, want string
		ok               bool
	}{
		{"guides/setup.md", "install.md", "guides/install.md", true},
		{"guides/setup.md", "./install.md#x", "guides/install.md", true},
		{"guides/setup.md", "../README.md", "README.md", true},
		{"guides/deep/a.md", "../../.gitbook/assets/x.png", ".gitbook/assets/x.png", true},
		{"guides/setup.md", "/reference/api.md", "reference/api.md", true},
		{"guides/setup.md", "advanced/", "guides/advanced/README.md", true},
		{"guides/setup.md", "..", "README.md", true},
		{"README.md", "getting%20started.md", "getting started.md", true},
		{"README.md", "../outside.md", "", false},
		{"guides/setup.md", "../../outside.md", "", false},
		{"guides/setup.md", "https://example.com/a.md", "", false},
		{"guides/setup.md", "#anchor", "", false},
	}
	for _, tc := range cases {
		link, _ := markdoc.ParseLink(tc.dest)
		got, ok := link.Resolve(tc.page)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Resolve(%q) from %s = %q, %v; want %q, %v", tc.dest, tc.page, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParseLinkKinds(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"page.md": "page", "dir/": "page", "dir/page": "page", "Page.MARKDOWN": "page",
		".gitbook/assets/image (1)": "file", "a/b.pdf": "file",
		"#x": "anchor", "https://a": "url", "mailto:a@b": "url", "//cdn.example/x.js": "url", "tel:+1": "url",
	}
	for dest, kind := range cases {
		link, ok := markdoc.ParseLink(dest)
		if !ok || link.Kind != kind {
			t.Errorf("ParseLink(%q) = %+v, %v; want kind %s", dest, link, ok, kind)
		}
	}
	if _, ok := markdoc.ParseLink("  "); ok {
		t.Error("an empty destination is a link")
	}
}
