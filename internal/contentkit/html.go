// Package contentkit turns the ContentKit an integration's script renders (a ui_render answer,
// ContentKitRenderOutput) into HTML for a published page, server-side: readers see a block
// without running anything of the integration's. Every text is escaped and every URL checked
// here; the only active content is a webframe, an iframe in a sandbox without same-origin
// access. Interactive elements (buttons with actions, inputs) show as inert controls: a
// published page has no state to dispatch their actions to.
package contentkit

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"net/url"
	"strconv"
	"strings"

	"docsd/internal/markdoc"
)

// Limits on what is rendered: deeper or longer output is cut, never an error.
const (
	maxDepth    = 32
	maxElements = 2000
)

// Output is a rendered block.
type Output struct {
	HTML string
	// Frames are the origins of its webframes (https://host[:port]), for the page's
	// Content-Security-Policy frame-src.
	Frames []string
}

// element is any ContentKit element: the fields of all of them, read as needed.
type element struct {
	Type        string             `json:"type"`
	Children    json.RawMessage    `json:"children"`
	Content     json.RawMessage    `json:"content"`
	Source      *struct{ URL any } `json:"source"`
	AspectRatio float64            `json:"aspectRatio"`
	Label       string             `json:"label"`
	Title       string             `json:"title"`
	Hint        json.RawMessage    `json:"hint"`
	Style       string             `json:"style"`
	Syntax      string             `json:"syntax"`
	Target      *struct {
		URL json.RawMessage `json:"url"`
	} `json:"target"`
	OnPress *struct {
		Action string `json:"action"`
		URL    string `json:"url"`
	} `json:"onPress"`
	Buttons []json.RawMessage `json:"buttons"`
}

// Render renders a ui_render answer: {element, state, props} (or {type: "element", ...}).
// An answer of another kind ("complete") or without an element is an error.
func Render(answer []byte) (Output, error) {
	var out struct {
		Type    string          `json:"type"`
		Element json.RawMessage `json:"element"`
		State   map[string]any  `json:"state"`
	}
	if err := json.Unmarshal(answer, &out); err != nil {
		return Output{}, fmt.Errorf("the answer is not ContentKit output: %v", err)
	}
	if (out.Type != "" && out.Type != "element") || len(out.Element) == 0 || out.Element[0] != '{' {
		return Output{}, fmt.Errorf("the answer holds no element to show")
	}
	r := &renderer{state: out.State}
	r.element(out.Element, 0)
	return Output{HTML: r.b.String(), Frames: r.frames}, nil
}

type renderer struct {
	b      strings.Builder
	state  map[string]any
	count  int
	frames []string
}

func (r *renderer) w(s ...string) {
	for _, x := range s {
		r.b.WriteString(x)
	}
}

func esc(s string) string { return html.EscapeString(s) }

// children renders an array of elements (strings among them, as text).
func (r *renderer) children(raw json.RawMessage, depth int) {
	var list []json.RawMessage
	if len(raw) == 0 {
		return
	}
	if raw[0] == '"' {
		r.element(raw, depth)
		return
	}
	if json.Unmarshal(raw, &list) != nil {
		return
	}
	for _, c := range list {
		r.element(c, depth)
	}
}

// text reads a value that is a string or a dynamic binding ({"$state": key}).
func (r *renderer) text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var b struct {
		State string `json:"$state"`
	}
	if json.Unmarshal(raw, &b) == nil && b.State != "" {
		if v, ok := r.state[b.State].(string); ok {
			return v
		}
	}
	return ""
}

func (r *renderer) element(raw json.RawMessage, depth int) {
	r.count++
	if depth > maxDepth || r.count > maxElements || len(raw) == 0 {
		return
	}
	if raw[0] == '"' {
		var s string
		_ = json.Unmarshal(raw, &s)
		r.w(esc(s))
		return
	}
	var e element
	if json.Unmarshal(raw, &e) != nil {
		return
	}
	d := depth + 1
	switch e.Type {
	case "block":
		r.w(`<div class="ck-block">`)
		r.children(e.Children, d)
		r.w(`</div>`)
	case "box", "vstack", "hstack":
		r.w(`<div class="ck-`, e.Type, `">`)
		r.children(e.Children, d)
		r.w(`</div>`)
	case "text":
		tag := map[string]string{"bold": "strong", "italic": "em", "strikethrough": "s", "code": "code"}[e.Style]
		if tag == "" {
			tag = "span"
		}
		r.w(`<`, tag, ` class="ck-text">`)
		r.children(e.Children, d)
		r.w(`</`, tag, `>`)
	case "hint":
		r.w(`<p class="ck-hint">`)
		r.children(e.Children, d)
		r.w(`</p>`)
	case "markdown":
		r.w(`<div class="ck-markdown">`, markdoc.ToHTML(r.text(e.Content)), `</div>`)
	case "codeblock", "code-block":
		class := ""
		if lang := safeClass(e.Syntax); lang != "" {
			class = ` class="language-` + lang + `"`
		}
		r.w(`<pre class="ck-code-block"><code`, class, `>`, esc(r.text(e.Content)), `</code></pre>`)
	case "divider":
		r.w(`<hr class="ck-divider">`)
	case "image":
		if e.Source != nil {
			if u, ok := e.Source.URL.(string); ok && httpsURL(u) != "" {
				r.w(`<img class="ck-image" src="`, esc(httpsURL(u)), `" alt="" loading="lazy" referrerpolicy="no-referrer"`, ratio(e.AspectRatio), `>`)
			}
		}
	case "webframe":
		r.webframe(e)
	case "link":
		u := ""
		if e.Target != nil {
			u = linkURL(e.Target.URL)
		}
		if u == "" {
			r.w(`<span class="ck-link">`)
			r.children(e.Children, d)
			r.w(`</span>`)
			return
		}
		r.w(`<a class="ck-link" href="`, esc(u), `" rel="nofollow noopener" target="_blank">`)
		r.children(e.Children, d)
		r.w(`</a>`)
	case "button":
		// A button that opens a URL is a link; any other action has nothing to act on here.
		if e.OnPress != nil && e.OnPress.Action == "@ui.url.open" && httpsURL(e.OnPress.URL) != "" {
			r.w(`<a class="ck-button" href="`, esc(httpsURL(e.OnPress.URL)), `" rel="nofollow noopener" target="_blank">`, esc(e.Label), `</a>`)
			return
		}
		r.w(`<button class="ck-button" type="button" disabled>`, esc(e.Label), `</button>`)
	case "card":
		r.w(`<div class="ck-card">`)
		if e.Title != "" {
			r.w(`<p class="ck-card-title">`, esc(e.Title), `</p>`)
		}
		if len(e.Hint) > 0 {
			r.w(`<p class="ck-hint">`)
			r.children(e.Hint, d)
			r.w(`</p>`)
		}
		r.children(e.Children, d)
		r.w(`</div>`)
	default:
		// Inputs, selects, modals and elements this renderer does not know: their children, if
		// any, are still shown.
		r.children(e.Children, d)
	}
}

// webframe is an iframe in a sandbox: its scripts run in an opaque origin, away from the page's
// cookies and DOM; it may open links in new windows. Only https frames (or http on loopback,
// for a local integration) are shown.
func (r *renderer) webframe(e element) {
	if e.Source == nil {
		return
	}
	s, _ := e.Source.URL.(string)
	u := frameURL(s)
	if u == nil {
		return
	}
	origin := u.Scheme + "://" + u.Host
	found := false
	for _, f := range r.frames {
		found = found || f == origin
	}
	if !found {
		r.frames = append(r.frames, origin)
	}
	r.w(`<iframe class="ck-webframe" src="`, esc(u.String()), `" sandbox="allow-scripts allow-popups allow-forms" `+
		`referrerpolicy="no-referrer" loading="lazy" title="Integration frame"`, ratio(e.AspectRatio), `></iframe>`)
}

// ratio gives an element a width and height of its aspect ratio (attributes, not styles: the
// page's policy allows no inline style).
func ratio(r float64) string {
	if r <= 0 || math.IsInf(r, 0) || math.IsNaN(r) {
		return ""
	}
	h := math.Round(640 / r)
	if h < 1 || h > 4000 {
		return ""
	}
	return ` width="640" height="` + strconv.Itoa(int(h)) + `"`
}

// httpsURL keeps https URLs (and http ones, which browsers upgrade or block on an https page).
func httpsURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return ""
	}
	return u.String()
}

func frameURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil {
		return nil
	}
	return u
}

// linkURL reads a link's target: a URL string, or {host, pathname, query}.
func linkURL(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return httpsURL(s)
	}
	var p struct {
		Host     string            `json:"host"`
		Pathname string            `json:"pathname"`
		Query    map[string]string `json:"query"`
	}
	if json.Unmarshal(raw, &p) != nil || p.Host == "" {
		return ""
	}
	u := url.URL{Scheme: "https", Host: p.Host, Path: p.Pathname}
	q := url.Values{}
	for k, v := range p.Query {
		q.Set(k, v)
	}
	u.RawQuery = q.Encode()
	return httpsURL(u.String())
}

func safeClass(s string) string {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '+') {
			return ""
		}
	}
	if len(s) > 40 {
		return ""
	}
	return s
}
