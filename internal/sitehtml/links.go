package sitehtml

import (
	"bytes"
	"html/template"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// RewriteLinks runs the href of every link and the src of every image of sanitized content
// HTML through rewrite, which returns the URL to use and false to leave it as it is. Relative
// links in markdown point at pages and files of the space ("../setup.md"); only the site
// knows the URLs readers reach them at.
func RewriteLinks(content string, rewrite func(dest string, image bool) (string, bool)) template.HTML {
	nodes, err := html.ParseFragment(strings.NewReader(content), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		// The input is the sanitizer's output; fall back to it unchanged.
		return template.HTML(content)
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			attr, image := "", false
			switch n.DataAtom {
			case atom.A:
				attr = "href"
			case atom.Img:
				attr, image = "src", true
			}
			for i, a := range n.Attr {
				if a.Key == attr && a.Namespace == "" {
					if to, ok := rewrite(a.Val, image); ok {
						n.Attr[i].Val = to
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	var buf bytes.Buffer
	for _, n := range nodes {
		walk(n)
		if err := html.Render(&buf, n); err != nil {
			return template.HTML(content)
		}
	}
	return template.HTML(buf.String())
}
