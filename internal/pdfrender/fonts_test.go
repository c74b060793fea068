package pdfrender

import "testing"

func TestPlain(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"plain ASCII", "plain ASCII"},
		{"Ελληνικά русский Čeština “quotes” — …", "Ελληνικά русский Čeština “quotes” — …"},
		{"ﬁne ①", "ﬁne 1"}, // ﬁ is in the fonts; ① decomposes to 1
		{"tick ✓ cross ✗ box ☐", "tick √ cross × box □"},
		{"rocket 🚀!", "rocket !"},           // emoji dropped
		{"family 👩‍👩‍👧 end", "family  end"}, // with its zero-width joiners
		{"中文 한국어", "\uFFFD\uFFFD \uFFFD\uFFFD\uFFFD"},
		{"tab\there\nnewline", "tab here newline"},
		{"soft\u00adhyphen zero\u200bwidth bom\ufeff", "softhyphen zerowidth bom"},
		{"ctrl\x01\x7f", "ctrl"},
		{"𝔘𝔫𝔦", "Uni"}, // mathematical letters decompose to plain ones
	}
	for _, c := range cases {
		if got := plain(c.in); got != c.want {
			t.Errorf("plain(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPathKey(t *testing.T) {
	t.Parallel()
	same := [][]string{
		{"guides/setup.md", "guides/setup", "/guides/setup/", "guides/setup/README.md", "guides/x/../setup.md"},
		{"README.md", "/", "", "readme.md"},
	}
	for _, group := range same {
		for _, p := range group {
			if pathKey(p) != pathKey(group[0]) {
				t.Errorf("pathKey(%q) = %q, want %q like %q", p, pathKey(p), pathKey(group[0]), group[0])
			}
		}
	}
	if pathKey("guides/setup.md") == pathKey("guides/other.md") {
		t.Error("different pages share a key")
	}
}

func TestLiquidLabel(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{% update date="2024-05-01" tags="api,new" %}`: "2024-05-01 · api,new",
		`{% update date="2024-04-01" %}`:                "2024-04-01",
		`{% updates format="full" %}`:                   "",
		`{% hint style="info" %}`:                       "",
	} {
		if got := liquidLabel(in); got != want {
			t.Errorf("liquidLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLiquidTag(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in       string
		tag      bool
		embedURL string
	}{
		{`{% hint style="info" %}`, true, ""},
		{`  {% endhint %}  `, true, ""},
		{`{%- tabs -%}`, true, ""},
		{`{% embed url="https://example.com/v" %}`, true, "https://example.com/v"},
		{`{% openapi-operation spec="petstore" path="/pets" method="get" %}`, true, ""},
		{`{% endcolumns %}`, true, ""},
		{`{% update date="2024-05-01" tags="api" %}`, true, ""},
		{`{% include "../.gitbook/includes/x.md" %}`, true, ""},
		{`{% if visitor.claims.plan == "pro" %}`, true, ""},
		{`{% sparkle colour="gold" %}`, true, ""},
		{`Text {% hint %}`, false, ""},
		{`{ not a tag }`, false, ""},
	}
	for _, c := range cases {
		tag, url := liquidTag(c.in)
		if tag != c.tag || url != c.embedURL {
			t.Errorf("liquidTag(%q) = %v, %q; want %v, %q", c.in, tag, url, c.tag, c.embedURL)
		}
	}
}

func TestHTMLImages(t *testing.T) {
	t.Parallel()
	got := htmlImages(`<figure><img src="a.png" alt="First"><figcaption>x</figcaption></figure><IMG alt='Second' SRC='b.jpg'/><img alt="no source">`)
	want := []htmlImage{{"a.png", "First"}, {"b.jpg", "Second"}}
	if len(got) != len(want) {
		t.Fatalf("htmlImages = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("image %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
