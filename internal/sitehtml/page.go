// Package sitehtml renders the HTML pages of a published docs site: a page's content with the
// site's navigation, title, customization and search box, in a layout that reads on a phone.
// It knows nothing of access rules or storage: the site handler hands it a Page to render.
package sitehtml

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"html/template"
	"regexp"
	"strings"
)

// Page is everything one rendered page shows.
type Page struct {
	SiteTitle string
	HomeURL   string
	NoIndex   bool
	Theme     Theme
	LogoURL   string
	Favicon   string
	Header    []Link
	Footer    []LinkGroup
	Copyright string
	// Announcement is a banner over the page; AnnouncementLink its optional link.
	Announcement     string
	AnnouncementLink Link

	Sections []NavItem // top-level sections and groups; empty for a site without sections
	Variants []NavItem // site spaces of the current section, when there are several
	Tree     []NavItem // the current site space's pages

	Title       string // the page's title; "" for a search page
	Description string
	Body        template.HTML // sanitized content HTML
	Outline     []NavItem     // the page's headings, linking to their anchors

	// Previous and Next are the neighbouring pages in reading order, when pagination is on.
	Previous, Next *Link

	SearchURL   string
	SearchQuery string
	Results     []Result // for the search page
	IsSearch    bool

	// Scripts are the addresses of the scripts the site's integrations inject (analytics, chat
	// widgets), loaded deferred from the site's own origin.
	Scripts []string
}

// Theme holds the site's colours (any value that is not a CSS colour falls back to a
// default) and when the dark ones apply.
type Theme struct {
	Primary, Tint         string
	PrimaryDark, TintDark string
	// Dark is "always" (the site's default theme is dark), "system" (readers may switch:
	// follow their system's preference) or "" (light only).
	Dark string
}

// Link is a header or footer link.
type Link struct {
	Title string
	URL   string
}

// LinkGroup is a footer column.
type LinkGroup struct {
	Title string
	Links []Link
}

// NavItem is an entry of a navigation list; groups have no URL and hold children.
type NavItem struct {
	Title    string
	URL      string
	Current  bool
	Children []NavItem
}

// Result is one search hit.
type Result struct {
	Title   string
	URL     string
	Context string
}

//go:embed templates/*.html templates/*.css
var files embed.FS

var (
	pageTemplate = template.Must(template.New("page.html").Funcs(template.FuncMap{"treeHTML": TreeHTML}).
			ParseFS(files, "templates/page.html"))
	baseCSS = mustRead("templates/site.css")
)

func mustRead(name string) string {
	b, err := files.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// cssColor accepts the colour notations a customization holds: #rgb, #rrggbb (with alpha
// variants) and rgb()/hsl() forms of digits, so nothing else reaches the style sheet.
var cssColor = regexp.MustCompile(`^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\([0-9., %]+\))$`)

// Color returns c when it is a CSS colour this renderer accepts, else fallback.
func Color(c, fallback string) string {
	if cssColor.MatchString(strings.TrimSpace(c)) {
		return strings.TrimSpace(c)
	}
	return fallback
}

// The two palettes: text and surfaces, then the site's colours.
const (
	lightVars = "--bg:#fff;--fg:#1b1f24;--muted:#57606a;--border:#d0d7de;--on-primary:#fff"
	darkVars  = "--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--border:#30363d;--on-primary:#0d1117"
)

// themeCSS declares the colour variables the style sheet uses.
func themeCSS(t Theme) string {
	light := ":root{" + lightVars + ";--primary:" + Color(t.Primary, "#346ddb") + ";--tint:" + Color(t.Tint, "#f5f7fa") + "}\n"
	dark := ":root{" + darkVars + ";--primary:" + Color(t.PrimaryDark, Color(t.Primary, "#6e9cf0")) +
		";--tint:" + Color(t.TintDark, "#161b22") + "}\n"
	switch t.Dark {
	case "always":
		return dark
	case "system":
		return light + "@media (prefers-color-scheme:dark){" + strings.TrimSuffix(dark, "\n") + "}\n"
	}
	return light
}

// Rendered is a rendered page with the hash its Content-Security-Policy must allow for its
// one inline style sheet.
type Rendered struct {
	HTML      []byte
	StyleHash string // "sha256-..." of the style element's text
}

// Render renders p.
func Render(p Page) (Rendered, error) {
	style := themeCSS(p.Theme) + baseCSS
	sum := sha256.Sum256([]byte(style))
	var buf bytes.Buffer
	err := pageTemplate.Execute(&buf, struct {
		Page
		Style template.CSS
	}{p, template.CSS(style)})
	if err != nil {
		return Rendered{}, err
	}
	return Rendered{HTML: buf.Bytes(), StyleHash: "sha256-" + base64.StdEncoding.EncodeToString(sum[:])}, nil
}
