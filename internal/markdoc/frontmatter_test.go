package markdoc_test

import (
	"fmt"
	"strings"
	"testing"

	"docsd/internal/markdoc"
)

func ptr(b bool) *bool { return &b }

func TestParseFrontMatter(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, src string
		want      markdoc.FrontMatter
		body      string
	}{
		{
			name: "no front matter",
			src:  "# Title\n\nText.",
			body: "# Title\n\nText.",
		},
		{
			name: "GitBook's keys",
			src: "---\ndescription: >-\n  A long\n  description.\nicon: rocket\nhidden: true\ncover: .gitbook/assets/cover.png\ncoverY: -42.5\n" +
				"layout:\n  width: wide\n  cover:\n    visible: true\n    size: full\n  title:\n    visible: false\n  description:\n    visible: true\n" +
				"  tableOfContents:\n    visible: true\n  outline:\n    visible: false\n  pagination:\n    visible: true\n  metadata:\n    visible: false\n" +
				"unknown: kept out\n---\n# Title\n",
			want: markdoc.FrontMatter{
				Description: "A long description.", Icon: "rocket", Hidden: true, Cover: ".gitbook/assets/cover.png", CoverY: -42.5,
				Layout: markdoc.Layout{Width: "wide", CoverSize: "full", Cover: ptr(true), Title: ptr(false), Description: ptr(true),
					TableOfContents: ptr(true), Outline: ptr(false), Pagination: ptr(true), Metadata: ptr(false)},
			},
			body: "# Title\n",
		},
		{
			name: "an emoji icon is the emoji; booleans as strings; a preset layout",
			src:  "---\nicon: 🚀\nhidden: \"false\"\nlayout: landing\n---\nBody",
			want: markdoc.FrontMatter{Emoji: "🚀", Layout: markdoc.Layout{Preset: "landing"}},
			body: "Body",
		},
		{
			name: "emoji key, CRLF line endings, byte order mark",
			src:  "\uFEFF---\r\nemoji: \"1f389\"\r\ndescription: Party\r\n---\r\nBody\r\n",
			want: markdoc.FrontMatter{Emoji: "1f389", Description: "Party"},
			body: "Body\r\n",
		},
		{
			name: "values of the wrong kind are ignored",
			src:  "---\ndescription: [a, b]\nhidden: maybe\nlayout:\n  width: huge\n  title: yes please\n---\n",
			want: markdoc.FrontMatter{},
			body: "",
		},
		{
			name: "empty front matter",
			src:  "---\n---\nBody",
			body: "Body",
		},
		{
			name: "invalid YAML is reported and removed",
			src:  "---\ndescription: [unclosed\n---\nBody",
			want: markdoc.FrontMatter{Problem: "front matter: yaml: line 1: did not find expected ',' or ']'"},
			body: "Body",
		},
		{
			name: "a thematic break later in the page is not front matter",
			src:  "Text\n\n---\n\nMore\n\n---\n",
			body: "Text\n\n---\n\nMore\n\n---\n",
		},
		{
			name: "an unclosed block is not front matter",
			src:  "---\ndescription: x\n\nText",
			body: "---\ndescription: x\n\nText",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			meta, body := markdoc.ParseFrontMatter(tc.src)
			if show(meta) != show(tc.want) {
				t.Errorf("meta:\ngot  %s\nwant %s", show(meta), show(tc.want))
			}
			if body != tc.body {
				t.Errorf("body = %q, want %q", body, tc.body)
			}
		})
	}
}

// show prints a FrontMatter with its layout's options dereferenced.
func show(m markdoc.FrontMatter) string {
	b := func(p *bool) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprint(*p)
	}
	l := m.Layout
	layout := strings.Join([]string{l.Preset, l.Width, l.CoverSize, b(l.Cover), b(l.Title), b(l.Description),
		b(l.TableOfContents), b(l.Outline), b(l.Pagination), b(l.Metadata)}, ",")
	return fmt.Sprintf("description=%q icon=%q emoji=%q hidden=%v cover=%q coverY=%v layout=[%s] problem=%q",
		m.Description, m.Icon, m.Emoji, m.Hidden, m.Cover, m.CoverY, layout, m.Problem)
}
