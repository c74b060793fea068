package markdoc

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// ToHTML renders markdown to HTML that is safe to serve on a published site: headings carry
// their anchor ids (the same as in ToDocument and Sections), GitBook's block tags become
// plain elements with classes (`<div class="hint hint-info">`, `<div class="tabs">`, ...), and
// the result, raw HTML of the markdown included, passes through a sanitizer that keeps
// formatting and drops scripts, event handlers, styles and unsafe URLs.
func ToHTML(md string) string { return ToHTMLWith(md, HTMLHooks{}) }

// HTMLHooks let the caller render some blocks from what only it knows. The HTML they return
// passes through the same sanitizer as the rest.
type HTMLHooks struct {
	// OpenAPI renders an {% openapi-operation %}, {% openapi-schemas %}, {% openapi-webhook %},
	// {% openapi %} or {% swagger %} tag from its name and attributes; ok false keeps what the
	// page wrote inside the tag.
	OpenAPI func(tag string, attrs map[string]string) (html string, ok bool)
	// Integration renders an integration block ({% @integration/block prop="..." %}) from its
	// integration's name, its block's id and its props. Its HTML is the caller's to make safe:
	// it is put in place after the sanitizer ran (a block's frame is an iframe, which the
	// sanitizer would drop). Without the hook, the block shows as an empty <div>.
	Integration func(integration, block string, props map[string]any) (html string)
}

// ToHTMLWith is ToHTML with hooks. What the OpenAPI hook renders is sanitized on its own, with the
// page's policy and the few form elements an API reference's "try it" panel needs (see
// hookSanitizer), and put in its place after the page is sanitized: the page's own raw HTML
// never gets those.
func ToHTMLWith(md string, hooks HTMLHooks) string {
	p := parse(md)
	var blocks []string // hooks' HTML, in the order of their placeholders
	var trusted []bool  // whether a block's HTML is the hook's to make safe (integrations)
	// The placeholders carry a nonce of this call: the page's own HTML cannot write one.
	var nonceBytes [8]byte
	_, _ = rand.Read(nonceBytes[:])
	nonce := hex.EncodeToString(nonceBytes[:]) + "-"
	placeholder := func(html string, trust bool) string {
		blocks, trusted = append(blocks, html), append(trusted, trust)
		return `<div class="integration-block" id="` + integrationPlaceholder + nonce + strconv.Itoa(len(blocks)-1) + `"></div>`
	}
	if hooks.OpenAPI != nil || hooks.Integration != nil {
		_ = ast.Walk(p.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			t, ok := n.(*tagBlock)
			if !entering || !ok {
				return ast.WalkContinue, nil
			}
			if name, blk, ok := IntegrationTag(t.Name); ok && hooks.Integration != nil {
				t.rendered = placeholder(hooks.Integration(name, blk, IntegrationProps(t.Attrs)), true)
				return ast.WalkSkipChildren, nil
			}
			if hooks.OpenAPI == nil {
				return ast.WalkContinue, nil
			}
			switch t.Name {
			case "openapi-operation", "openapi-schemas", "openapi-webhook", "openapi", "swagger":
				if html, ok := hooks.OpenAPI(t.Name, t.Attrs); ok {
					t.rendered = placeholder(html, false)
					return ast.WalkSkipChildren, nil
				}
			}
			return ast.WalkContinue, nil
		})
	}
	var buf bytes.Buffer
	// Rendering into memory cannot fail.
	_ = markdown.Renderer().Render(&buf, p.src, p.root)
	out := sanitizer.Sanitize(buf.String())
	if len(blocks) > 0 {
		// The placeholders' ids passed the sanitizer; one the page wrote (without this call's
		// nonce) is left an empty <div>.
		out = placeholderRe.ReplaceAllStringFunc(out, func(m string) string {
			sub := placeholderRe.FindStringSubmatch(m)
			i, err := strconv.Atoi(sub[2])
			if sub[1] != nonce || err != nil || i >= len(blocks) {
				return m
			}
			if trusted[i] {
				return blocks[i]
			}
			return hookSanitizer.Sanitize(blocks[i])
		})
	}
	return out
}

// integrationPlaceholder begins the id of the element an integration block's HTML replaces.
const integrationPlaceholder = "docsd-integration-block-"

var placeholderRe = regexp.MustCompile(`<div class="integration-block" id="` + integrationPlaceholder + `([0-9a-f]{16}-)([0-9]+)"></div>`)

// hookSanitizer is the page's policy and the elements of an API reference's "try it" panel:
// text inputs and a text area holding example values, a button, and the data attributes
// its script reads (see openapi.tryItHTML).
var hookSanitizer = func() *bluemonday.Policy {
	p := newSanitizer()
	data := regexp.MustCompile(`^[^\x00-\x1f"<>]{0,1000}$`)
	p.AllowAttrs("data-origin", "data-server", "data-method", "data-path").Matching(data).OnElements("div")
	p.AllowAttrs("hidden").Matching(regexp.MustCompile(`^$`)).OnElements("div")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^[A-Za-z0-9 _-]+$`)).OnElements("label", "button")
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^text$`)).OnElements("input")
	p.AllowAttrs("data-in").Matching(regexp.MustCompile(`^(path|query|header)$`)).OnElements("input")
	p.AllowAttrs("data-name", "value").Matching(data).OnElements("input")
	p.AllowAttrs("rows").Matching(bluemonday.Integer).OnElements("textarea")
	p.AllowAttrs("data-body").Matching(data).OnElements("textarea")
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^button$`)).OnElements("button")
	p.AllowElements("label", "textarea", "button")
	return p
}()

var sanitizer = newSanitizer()

func newSanitizer() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	// A site links to its own pages; only links leaving it are marked nofollow.
	p.RequireNoFollowOnLinks(false)
	p.RequireNoFollowOnFullyQualifiedLinks(true)
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^[-a-z0-9.+_]+$`)).OnElements("h1", "h2", "h3", "h4", "h5", "h6")
	// Footnotes link a reference and its note by ids such as fn:1 and fnref:1.
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^fn(ref)?[-:0-9]+$`)).OnElements("sup", "li")
	p.AllowAttrs("role").Matching(regexp.MustCompile(`^doc-(noteref|endnotes|backlink)$`)).OnElements("a", "div")
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^` + integrationPlaceholder + `[0-9a-f]{16}-[0-9]+$`)).OnElements("div")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^[A-Za-z0-9 _-]+$`)).OnElements("div", "p", "span", "code", "pre", "ol", "li", "a",
		"ul", "table", "details")
	p.AllowAttrs("open").Matching(regexp.MustCompile(`^$`)).OnElements("details")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|center|right)$`)).OnElements("div", "p", "th", "td", "img")
	p.AllowStyles("text-align").MatchingEnum("left", "center", "right").OnElements("th", "td")
	p.AllowAttrs("width", "height").Matching(bluemonday.NumberOrPercent).OnElements("img")
	p.AllowElements("figure", "figcaption", "details", "summary", "kbd", "mark")
	// Task list checkboxes, shown and not editable.
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").OnElements("input")
	return p
}

// htmlExtras renders the nodes this package adds to goldmark's tree.
type htmlExtras struct{}

func (htmlExtras) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindTag, renderTag)
	reg.Register(kindMathBlock, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString(`<div class="math">`)
			_, _ = w.Write(util.EscapeHTML([]byte(n.(*mathBlock).formula(src))))
			_, _ = w.WriteString("</div>\n")
		}
		return ast.WalkSkipChildren, nil
	})
	reg.Register(kindInlineMath, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString(`<span class="math">`)
			_, _ = w.Write(util.EscapeHTML([]byte(n.(*inlineMath).Formula)))
			_, _ = w.WriteString("</span>")
		}
		return ast.WalkSkipChildren, nil
	})
}

func renderTag(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*tagBlock)
	esc := func(s string) string { return string(util.EscapeHTML([]byte(s))) }
	link := func(href string) string {
		return `<a href="` + esc(string(util.URLEscape([]byte(href), false))) + `">` + esc(href) + `</a>`
	}
	if n.rendered != "" {
		if entering {
			_, _ = w.WriteString(n.rendered + "\n")
		}
		return ast.WalkSkipChildren, nil
	}
	var open, close string
	if containerTags[n.Name] && !n.container {
		return ast.WalkContinue, nil
	}
	switch n.Name {
	case "hint":
		style := n.Attrs["style"]
		if !hintStyles[style] {
			style = "info"
		}
		open, close = `<div class="hint hint-`+style+`">`, `</div>`
	case "tabs":
		open, close = `<div class="tabs">`, `</div>`
	case "tab":
		open, close = `<div class="tab"><p class="tab-title">`+esc(n.Attrs["title"])+`</p>`, `</div>`
	case "code":
		open, close = `<div class="code-block">`, `</div>`
		if title := n.Attrs["title"]; title != "" {
			open += `<p class="code-title">` + esc(title) + `</p>`
		}
	case "embed":
		open, close = `<div class="embed">`+link(n.Attrs["url"]), `</div>`
	case "file":
		open, close = `<div class="file">`+link(n.Attrs["src"]), `</div>`
	case "content-ref":
		open, close = `<div class="content-ref">`, `</div>`
	case "stepper":
		open, close = `<ol class="stepper">`, `</ol>`
	case "step":
		open, close = `<li class="step">`, `</li>`
	case "columns":
		open, close = `<div class="columns">`, `</div>`
	case "column":
		open, close = `<div class="column">`, `</div>`
	case "updates":
		open, close = `<div class="updates">`, `</div>`
	case "update":
		open, close = `<div class="update"><p class="update-date">`+esc(n.Attrs["date"])+`</p>`, `</div>`
		if tags := n.Attrs["tags"]; tags != "" {
			open += `<p class="update-tags">` + esc(tags) + `</p>`
		}
	case "prompt":
		open, close = `<div class="prompt">`, `</div>`
	case "if":
		// Visitors' claims are not known when a page is rendered; adaptive content shows.
		open, close = `<div class="if">`, `</div>`
	case "openapi-operation", "openapi-webhook", "openapi", "swagger":
		label := strings.ToUpper(n.Attrs["method"]) + " " + n.Attrs["path"] + n.Attrs["name"]
		open, close = `<div class="openapi">`+`<p class="openapi-operation"><code>`+esc(strings.TrimSpace(label))+`</code></p>`, `</div>`
	case "openapi-schemas":
		open, close = `<div class="openapi">`+`<p class="openapi-schemas">`+esc(n.Attrs["schemas"])+`</p>`, `</div>`
	case "swagger-description", "swagger-parameter", "swagger-response":
		open, close = `<div class="`+n.Name+`">`, `</div>`
		if name := n.Attrs["name"] + n.Attrs["status"]; name != "" {
			open += `<p class="swagger-name"><code>` + esc(name) + `</code></p>`
		}
	}
	if open == "" {
		// A tag with nothing of its own to show (an include left unexpanded, a closing line
		// with no opening, a tag docsd does not know) shows only what it holds.
		return ast.WalkContinue, nil
	}
	if entering {
		_, _ = w.WriteString(open + "\n")
	} else {
		_, _ = w.WriteString(close + "\n")
	}
	return ast.WalkContinue, nil
}
