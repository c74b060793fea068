package sitehtml

import (
	"html"
	"html/template"
	"strings"
)

// TreeHTML renders a page tree as nested lists. A space's tree can hold thousands of pages
// and html/template's reflection costs microseconds per field, so the tree is written here
// directly: every title and URL is escaped with html.EscapeString, and URLs are the site's
// own paths or http(s) addresses checked by the caller.
func TreeHTML(items []NavItem) template.HTML {
	var b strings.Builder
	writeTree(&b, items)
	return template.HTML(b.String())
}

func writeTree(b *strings.Builder, items []NavItem) {
	for _, it := range items {
		b.WriteString("<li>")
		if it.URL != "" {
			b.WriteString(`<a href="`)
			b.WriteString(html.EscapeString(it.URL))
			b.WriteString(`"`)
			if it.Current {
				b.WriteString(` aria-current="page" class="current"`)
			}
			b.WriteString(">")
			b.WriteString(html.EscapeString(it.Title))
			b.WriteString("</a>")
		} else {
			b.WriteString(`<span class="group-title">`)
			b.WriteString(html.EscapeString(it.Title))
			b.WriteString("</span>")
		}
		if len(it.Children) > 0 {
			b.WriteString("<ul>")
			writeTree(b, it.Children)
			b.WriteString("</ul>")
		}
		b.WriteString("</li>")
	}
}
