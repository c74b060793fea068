package openapi

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// tryItScript sends a "try it" panel's request from the reader's browser and shows the
// answer. It is served by docsd from the published site's own origin (no inline script, no
// eval), so the page's Content-Security-Policy allows it with script-src 'self'.
//
//go:embed assets/tryit.js
var tryItScript []byte

var tryItName = func() string {
	sum := sha256.Sum256(tryItScript)
	return "openapi-tryit." + hex.EncodeToString(sum[:6]) + ".js"
}()

// TryItScript is the panel's script and the file name it is served at, which carries a hash
// of its text so that it can be cached for good.
func TryItScript() (name string, body []byte) { return tryItName, tryItScript }

// tryItOrigin marks a rendered panel with the origin its requests go to (see TryItOrigins).
var tryItOrigin = regexp.MustCompile(`<div class="openapi-tryit" data-origin="([^"]+)"`)

// TryItOrigins lists the origins the "try it" panels of rendered reference HTML send their
// requests to, for the page's connect-src; none when it has no panel.
func TryItOrigins(html string) []string {
	var out []string
	for _, m := range tryItOrigin.FindAllStringSubmatch(html, -1) {
		out = append(out, m[1])
	}
	return out
}

var originHost = regexp.MustCompile(`^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$`)

// tryServer is the absolute http(s) URL the operations are sent to and its origin; "" when
// the spec names none (a relative or absent server has no address a browser can reach).
// Server variables take their defaults.
func (t *docTree) tryServer() (base, origin string) {
	raw := ""
	if t.swagger() {
		host, _ := t.root["host"].(string)
		if host == "" {
			return "", ""
		}
		scheme := "https"
		if schemes, ok := t.root["schemes"].([]any); ok && len(schemes) > 0 {
			scheme, _ = schemes[0].(string)
		}
		bp, _ := t.root["basePath"].(string)
		raw = scheme + "://" + host + bp
	} else {
		servers, _ := t.root["servers"].([]any)
		if len(servers) == 0 {
			return "", ""
		}
		s, _ := servers[0].(map[string]any)
		raw, _ = s["url"].(string)
		vars, _ := s["variables"].(map[string]any)
		for name, v := range vars {
			vm, _ := v.(map[string]any)
			if def, ok := vm["default"].(string); ok {
				raw = strings.ReplaceAll(raw, "{"+name+"}", def)
			}
		}
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !originHost.MatchString(u.Host) || u.User != nil {
		return "", ""
	}
	return strings.TrimSuffix(raw, "/"), u.Scheme + "://" + strings.ToLower(u.Host)
}

// tryItHTML is an operation's "try it" panel: an input per path, query and header parameter
// (filled with an example), a body filled with the example body, a Send button and the place
// the answer shows. It stays hidden until its script runs. "" when the spec has no server.
func (t *docTree) tryItHTML(item, op map[string]any, at node, p, method string) string {
	base, origin := t.tryServer()
	if base == "" {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="openapi-tryit" data-origin="%s" data-server="%s" data-method="%s" data-path="%s" hidden>`,
		esc(origin), esc(base), esc(strings.ToUpper(method)), esc(p))
	b.WriteString(`<p class="openapi-heading"><strong>Try it</strong></p>`)
	params := t.parameters(item, op, at)
	var body *node
	bodyType := ""
	for _, prm := range params {
		switch prm.in {
		case "path", "query", "header":
			value := ""
			if ex := t.example(prm.schema, 0); ex != nil {
				value = fmt.Sprint(ex)
			}
			fmt.Fprintf(&b, `<label class="openapi-tryit-field"><span><code>%s</code> <span class="openapi-type">%s</span>%s</span><input type="text" data-in="%s" data-name="%s" value="%s"></label>`,
				esc(prm.name), esc(prm.in), requiredMark(prm.required), esc(prm.in), esc(prm.name), esc(value))
		case "body":
			n := prm.schema
			body, bodyType = &n, "application/json"
		}
	}
	if rb, rbAt := t.deref(node{v: op["requestBody"], file: at.file}); rb != nil {
		if mt, schema, ok := t.mediaSchema(rb, rbAt); ok {
			body, bodyType = &schema, mt
		}
	}
	if body != nil {
		ex, _ := json.MarshalIndent(t.example(*body, 0), "", "  ")
		fmt.Fprintf(&b, `<label class="openapi-tryit-field"><span>Body <code>%s</code></span><textarea rows="6" data-body="%s">%s</textarea></label>`,
			esc(bodyType), esc(bodyType), esc(string(ex)))
	}
	b.WriteString(`<p><button type="button" class="openapi-tryit-send">Send</button></p>`)
	b.WriteString(`<div class="openapi-tryit-answer" hidden><p class="openapi-tryit-status"></p>` +
		`<pre class="openapi-tryit-headers"><code></code></pre><pre class="openapi-tryit-body"><code></code></pre></div>`)
	b.WriteString(`</div>`)
	return b.String()
}
