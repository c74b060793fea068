package webimport

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"strings"

	"codeberg.org/readeck/go-readability/v2"
	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// navItem is an entry of the site's navigation.
type navItem struct {
	title    string
	url      *url.URL
	children []*navItem
}

// write turns the crawled pages into the tree: their main content as markdown, with images
// brought in and links between crawled pages pointing inside the tree, and SUMMARY.md from
// the start page's navigation.
func (c *crawler) write(ctx context.Context, check func() error) error {
	nav := navigation(c.order[0].doc, c.order[0].url)
	titles := map[*page]string{}
	var walk func(items []*navItem)
	walk = func(items []*navItem) {
		for _, it := range items {
			if p := c.pages[key(it.url)]; p != nil && titles[p] == "" {
				titles[p] = it.title
			}
			walk(it.children)
		}
	}
	walk(nav)
	for _, p := range c.order {
		if err := check(); err != nil {
			return err
		}
		art, err := readability.FromDocument(p.doc, p.url)
		content := art.Node
		if err != nil || content == nil {
			content = body(p.doc) // a page readability finds no article in: keep its body
		}
		title := titles[p]
		if title == "" {
			title = strings.TrimSpace(art.Title())
		}
		if title == "" {
			title = p.title
		}
		if title == "" {
			title = strings.TrimSuffix(path.Base(p.file), ".md")
		}
		titles[p] = title
		c.rewrite(ctx, p, content, title)
		md, err := htmltomarkdown.ConvertNode(content)
		if err != nil {
			c.site.Errors = append(c.site.Errors, fmt.Sprintf("%s: could not be converted to markdown: %v", p.url, err))
			md = nil
		}
		c.site.Files[p.file] = []byte("# " + oneLine(title) + "\n\n" + strings.TrimSpace(string(md)) + "\n")
		c.site.Sources[p.file] = p.url.String()
	}
	c.site.Files["SUMMARY.md"] = []byte(c.summary(nav, titles))
	return nil
}

// summary writes SUMMARY.md: the start page, then the navigation's crawled pages nested as
// in the navigation, then crawled pages the navigation does not list.
func (c *crawler) summary(nav []*navItem, titles map[*page]string) string {
	var b strings.Builder
	b.WriteString("# Summary\n\n")
	listed := map[*page]bool{c.order[0]: true}
	fmt.Fprintf(&b, "* [%s](README.md)\n", mdText(titles[c.order[0]]))
	var walk func(items []*navItem, depth int)
	walk = func(items []*navItem, depth int) {
		for _, it := range items {
			p := c.pages[key(it.url)]
			if p == nil || listed[p] {
				walk(it.children, depth) // not crawled: its children take its place
				continue
			}
			listed[p] = true
			fmt.Fprintf(&b, "%s* [%s](%s)\n", strings.Repeat("  ", depth), mdText(titles[p]), p.file)
			walk(it.children, depth+1)
		}
	}
	walk(nav, 0)
	for _, p := range c.order {
		if !listed[p] {
			listed[p] = true
			fmt.Fprintf(&b, "* [%s](%s)\n", mdText(titles[p]), p.file)
		}
	}
	return b.String()
}

// rewrite brings the content's same-site images in as files and points links to crawled
// pages at their files in the tree; it drops a first heading that repeats the title.
func (c *crawler) rewrite(ctx context.Context, p *page, n *html.Node, title string) {
	var h1 *html.Node
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.H1:
				if h1 == nil {
					h1 = n
				}
			case atom.Img:
				if src := attr(n, "src"); src != "" {
					if u, err := p.url.Parse(src); err == nil {
						if asset := c.image(ctx, u); asset != "" {
							setAttr(n, "src", relative(p.file, asset))
						} else {
							setAttr(n, "src", u.String())
						}
					}
				}
			case atom.A:
				if href := attr(n, "href"); href != "" {
					if u, err := p.url.Parse(href); err == nil {
						if target := c.pages[key(u)]; target != nil && c.sameSite(u) {
							link := relative(p.file, target.file)
							if u.Fragment != "" {
								link += "#" + u.Fragment
							}
							setAttr(n, "href", link)
						} else {
							setAttr(n, "href", u.String())
						}
					}
				}
			}
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			visit(ch)
		}
	}
	visit(n)
	if h1 != nil && h1.Parent != nil && strings.EqualFold(strings.TrimSpace(text(h1)), strings.TrimSpace(title)) {
		h1.Parent.RemoveChild(h1)
	}
}

// image brings a same-site image in as a file and returns its path in the tree, or "" when it
// stays a link (another host, over a cap, failed).
func (c *crawler) image(ctx context.Context, u *url.URL) string {
	if !c.sameSite(u) {
		return ""
	}
	u.Fragment = ""
	k := u.String()
	if asset, ok := c.images[k]; ok {
		return asset
	}
	c.images[k] = ""
	if len(c.images) > c.limits.MaxImages {
		c.site.Errors = append(c.site.Errors, fmt.Sprintf("%s: image not brought in: more than %d images", u, c.limits.MaxImages))
		return ""
	}
	if !c.robots.allowed(pathQuery(u)) {
		return ""
	}
	res, err := c.get(ctx, c.imgFetch, u)
	if err != nil {
		c.site.Errors = append(c.site.Errors, fmt.Sprintf("%s: image not brought in: %v", u, err))
		return ""
	}
	name := path.Base(u.Path)
	if name == "" || name == "/" || name == "." {
		name = "image"
	}
	asset := ".gitbook/assets/" + name
	for i := 2; c.site.Files[asset] != nil; i++ {
		ext := path.Ext(name)
		asset = fmt.Sprintf(".gitbook/assets/%s-%d%s", strings.TrimSuffix(name, ext), i, ext)
	}
	c.site.Files[asset] = res.Body
	c.images[k] = asset
	return asset
}

// navigation reads the site's navigation from the page: the first <nav> (or element with
// role=navigation), its nested lists giving the nesting.
func navigation(doc *html.Node, base *url.URL) []*navItem {
	nav := find(doc, func(n *html.Node) bool {
		return n.DataAtom == atom.Nav || attr(n, "role") == "navigation"
	})
	if nav == nil {
		return nil
	}
	list := find(nav, func(n *html.Node) bool { return n.DataAtom == atom.Ul || n.DataAtom == atom.Ol })
	if list == nil {
		var out []*navItem // a flat navigation: its links in order
		for _, a := range all(nav, atom.A) {
			if it := item(a, base); it != nil {
				out = append(out, it)
			}
		}
		return out
	}
	return listItems(list, base, 0)
}

// listItems reads the items of a <ul>/<ol>: each <li>'s own link, and its nested list.
func listItems(list *html.Node, base *url.URL, depth int) []*navItem {
	if depth > 10 {
		return nil
	}
	var out []*navItem
	for li := list.FirstChild; li != nil; li = li.NextSibling {
		if li.DataAtom != atom.Li {
			continue
		}
		var it *navItem
		var sub []*navItem
		var visit func(n *html.Node)
		visit = func(n *html.Node) {
			for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
				switch {
				case ch.DataAtom == atom.Ul || ch.DataAtom == atom.Ol:
					sub = append(sub, listItems(ch, base, depth+1)...)
				case ch.DataAtom == atom.A && it == nil:
					it = item(ch, base)
				default:
					visit(ch)
				}
			}
		}
		visit(li)
		if it == nil {
			out = append(out, sub...)
			continue
		}
		it.children = sub
		out = append(out, it)
	}
	return out
}

func item(a *html.Node, base *url.URL) *navItem {
	href := attr(a, "href")
	if href == "" || strings.HasPrefix(href, "#") {
		return nil
	}
	u, err := base.Parse(href)
	if err != nil {
		return nil
	}
	return &navItem{title: strings.Join(strings.Fields(text(a)), " "), url: u}
}

// links lists the page's link targets, resolved against its URL.
func links(doc *html.Node, base *url.URL) []*url.URL {
	var out []*url.URL
	for _, a := range all(doc, atom.A) {
		href := attr(a, "href")
		if href == "" || strings.HasPrefix(href, "#") || strings.HasPrefix(href, "mailto:") || strings.HasPrefix(href, "javascript:") {
			continue
		}
		if u, err := base.Parse(href); err == nil {
			u.Fragment = ""
			out = append(out, u)
		}
	}
	return out
}

func docTitle(doc *html.Node) string {
	if t := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Title }); t != nil {
		return strings.TrimSpace(text(t))
	}
	return ""
}

func body(doc *html.Node) *html.Node {
	if b := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Body }); b != nil {
		return b
	}
	return doc
}

func find(n *html.Node, match func(*html.Node) bool) *html.Node {
	if n.Type == html.ElementNode && match(n) {
		return n
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if f := find(ch, match); f != nil {
			return f
		}
	}
	return nil
}

func all(n *html.Node, a atom.Atom) []*html.Node {
	var out []*html.Node
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == a {
			out = append(out, n)
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			visit(ch)
		}
	}
	visit(n)
	return out
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func setAttr(n *html.Node, name, value string) {
	for i, a := range n.Attr {
		if a.Key == name {
			n.Attr[i].Val = value
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: name, Val: value})
}

func text(n *html.Node) string {
	var b strings.Builder
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			visit(ch)
		}
	}
	visit(n)
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// mdText escapes a title for a markdown link's text.
func mdText(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`).Replace(oneLine(s))
}

// HTMLToMarkdown converts one HTML document to markdown: its main content (readability),
// and its title. It serves single uploaded .html files.
func HTMLToMarkdown(data []byte, name string) (title, markdown string, err error) {
	doc, err := html.Parse(strings.NewReader(string(data)))
	if err != nil {
		return "", "", err
	}
	base, _ := url.Parse("file:///" + url.PathEscape(name))
	art, aerr := readability.FromDocument(doc, base)
	content := art.Node
	if aerr != nil || content == nil {
		content = body(doc)
	}
	// The content's own first heading names it best; else the article's or document's title.
	if h1 := find(content, func(n *html.Node) bool { return n.DataAtom == atom.H1 }); h1 != nil && h1.Parent != nil {
		title = oneLine(text(h1))
		h1.Parent.RemoveChild(h1)
	}
	if title == "" {
		title = strings.TrimSpace(art.Title())
	}
	if title == "" {
		title = docTitle(doc)
	}
	md, err := htmltomarkdown.ConvertNode(content)
	return oneLine(title), strings.TrimSpace(string(md)), err
}
