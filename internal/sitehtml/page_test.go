package sitehtml

import (
	"strings"
	"testing"
)

func TestRenderEscapesWhatSitesAndPagesSay(t *testing.T) {
	evil := `<script>alert(1)</script>"'`
	p := Page{SiteTitle: evil, HomeURL: "/s/", Title: evil, Description: evil,
		Theme:  Theme{Primary: "red;}body{display:none", Tint: "#abcdef"},
		Header: []Link{{Title: evil, URL: "javascript:alert(1)"}},
		Tree: []NavItem{{Title: evil, URL: `/s/a"b`, Children: []NavItem{{Title: "child", URL: "/s/c", Current: true}}},
			{Title: "Group <b>", Children: []NavItem{{Title: "x", URL: "/s/x"}}}},
		Previous: &Link{Title: evil, URL: "/s/p"}, SearchURL: "/s/~search", SearchQuery: evil}
	out, err := Render(p)
	if err != nil {
		t.Fatal(err)
	}
	html := string(out.HTML)
	if strings.Contains(html, "<script>") || strings.Contains(html, "javascript:") {
		t.Fatalf("unescaped input in the page: %s", html)
	}
	for _, want := range []string{"--primary:#346ddb", "--tint:#abcdef", `href="/s/a&#34;b"`,
		`<span class="group-title">Group &lt;b&gt;</span>`, `aria-current="page" class="current">child</a>`} {
		if !strings.Contains(html, want) {
			t.Fatalf("the page lacks %s: %s", want, html)
		}
	}
	if !strings.HasPrefix(out.StyleHash, "sha256-") {
		t.Fatalf("style hash %q", out.StyleHash)
	}
}

func TestRewriteLinks(t *testing.T) {
	in := `<p><a href="setup.md">Setup</a> <img src="pic.png" alt=""> <a href="https://x.test/">out</a></p>`
	got := string(RewriteLinks(in, func(dest string, image bool) (string, bool) {
		switch {
		case dest == "setup.md" && !image:
			return "/site/setup", true
		case dest == "pic.png" && image:
			return "/site/~files/s/f", true
		}
		return "", false
	}))
	want := `<p><a href="/site/setup">Setup</a> <img src="/site/~files/s/f" alt=""/> <a href="https://x.test/">out</a></p>`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestThemeCSS(t *testing.T) {
	light := themeCSS(Theme{Primary: "#112233", PrimaryDark: "#445566"})
	if !strings.Contains(light, "--primary:#112233") || strings.Contains(light, "#445566") || strings.Contains(light, "@media") {
		t.Fatalf("light only: %s", light)
	}
	system := themeCSS(Theme{Primary: "#112233", PrimaryDark: "#445566", Dark: "system"})
	if !strings.Contains(system, "--primary:#112233") || !strings.Contains(system, "@media (prefers-color-scheme:dark){:root{--bg:#0d1117") ||
		!strings.Contains(system, "--primary:#445566") {
		t.Fatalf("following the system: %s", system)
	}
	dark := themeCSS(Theme{Primary: "#112233", Dark: "always"})
	if strings.Contains(dark, "@media") || !strings.Contains(dark, "--bg:#0d1117") || !strings.Contains(dark, "--primary:#112233") {
		t.Fatalf("always dark, with the light primary when no dark one is set: %s", dark)
	}
}
