package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/ids"
	"docsd/internal/orderkey"
	"docsd/internal/site"
	"docsd/internal/store"

	"golang.org/x/net/html"
)

// siteFixture builds a site straight through the site store, so the serving tests do not
// depend on the site API's own validation.
type siteFixture struct {
	t    testing.TB
	e    *apitest.Env
	Site site.Site
	last string // position of the last item added
}

func newSiteFixture(t testing.TB, e *apitest.Env, visibility site.Visibility) *siteFixture {
	t.Helper()
	now := e.Clock.Now()
	st := site.Site{ID: ids.Random(20), OrganizationID: e.Org, Type: "basic", Title: "Acme Docs",
		Visibility: visibility, Basename: "docs-" + strings.ToLower(ids.Random(6)), Published: true,
		AgentsContext: "included", VisitorAuth: site.VisitorAuthSettings{Key: "site-signing-secret", Backend: "custom"},
		CreatedAt: now, UpdatedAt: now}
	f := &siteFixture{t: t, e: e, Site: st}
	f.write(func(tx site.Tx) error { return tx.InsertSite(context.Background(), st) })
	return f
}

func (f *siteFixture) write(fn func(tx site.Tx) error) {
	f.t.Helper()
	if err := (store.Sites{DB: f.e.App.DB}).Write(context.Background(), f.e.Clock.Now(), fn); err != nil {
		f.t.Fatal(err)
	}
}

func (f *siteFixture) next() string {
	f.last = orderkey.Between(f.last, "")
	return f.last
}

// update changes the site's row.
func (f *siteFixture) update(change func(st *site.Site)) {
	f.t.Helper()
	change(&f.Site)
	f.write(func(tx site.Tx) error { return tx.UpdateSite(context.Background(), f.Site) })
}

func (f *siteFixture) group(parent, title string) string {
	f.t.Helper()
	g := site.SectionGroup{ID: ids.Random(20), SiteID: f.Site.ID, ParentID: parent, Position: f.next(), Title: title,
		CreatedAt: f.e.Clock.Now()}
	f.write(func(tx site.Tx) error { return tx.InsertGroup(context.Background(), g) })
	return g.ID
}

func (f *siteFixture) section(group, title, path string, isDefault bool, condition *string) string {
	f.t.Helper()
	s := site.Section{ID: ids.Random(20), SiteID: f.Site.ID, GroupID: group, Position: f.next(), Title: title,
		Path: path, Default: isDefault, Condition: condition, CreatedAt: f.e.Clock.Now()}
	f.write(func(tx site.Tx) error { return tx.InsertSection(context.Background(), s) })
	return s.ID
}

func (f *siteFixture) siteSpace(section, spaceID, path string, isDefault bool, condition *string) string {
	f.t.Helper()
	ss := site.SiteSpace{ID: ids.Random(20), SiteID: f.Site.ID, SectionID: section, SpaceID: spaceID,
		Position: f.next(), Path: path, Default: isDefault, Condition: condition, CreatedAt: f.e.Clock.Now()}
	f.write(func(tx site.Tx) error { return tx.InsertSiteSpace(context.Background(), ss) })
	return ss.ID
}

func (f *siteFixture) shareLink(key string, active bool) site.ShareLink {
	f.t.Helper()
	l := site.ShareLink{ID: ids.Random(20), SiteID: f.Site.ID, Name: "link", Key: key, Active: active,
		CreatedAt: f.e.Clock.Now()}
	f.write(func(tx site.Tx) error { return tx.InsertShareLink(context.Background(), l) })
	return l
}

// path is the site's published path with rest below it.
func (f *siteFixture) path(rest string) string { return site.PublishedPath(f.Site) + "/" + rest }

// reader is a browser without JavaScript: it keeps cookies and does not follow redirects,
// so tests see each answer.
type reader struct {
	t      testing.TB
	base   string
	client *http.Client
	cookie map[string]*http.Cookie
	header http.Header
	raw    bool // leave HTML unparsed (benchmarks measure the server, not the parser)
}

func newReader(t testing.TB, e *apitest.Env) *reader {
	return &reader{t: t, base: e.URL, cookie: map[string]*http.Cookie{}, header: http.Header{},
		client: &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}}
}

type page struct {
	Status int
	Header http.Header
	Body   string
	doc    *html.Node
}

// get fetches path (relative to the server) with the reader's cookies and headers.
func (rd *reader) get(path string) *page {
	rd.t.Helper()
	req, err := http.NewRequest("GET", rd.base+path, nil)
	if err != nil {
		rd.t.Fatal(err)
	}
	for k, v := range rd.header {
		req.Header[k] = v
	}
	for _, c := range rd.cookie {
		req.AddCookie(c)
	}
	res, err := rd.client.Do(req)
	if err != nil {
		rd.t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		rd.t.Fatal(err)
	}
	for _, c := range res.Cookies() {
		if c.MaxAge < 0 || c.Value == "" {
			delete(rd.cookie, c.Name)
		} else {
			rd.cookie[c.Name] = c
		}
	}
	p := &page{Status: res.StatusCode, Header: res.Header, Body: string(body)}
	if !rd.raw && strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		if p.doc, err = html.Parse(strings.NewReader(p.Body)); err != nil {
			rd.t.Fatal(err)
		}
	}
	return p
}

// expect fails unless the status is want.
func (p *page) expect(t testing.TB, want int) *page {
	t.Helper()
	if p.Status != want {
		t.Fatalf("status %d, want %d; body: %.1500s", p.Status, want, p.Body)
	}
	return p
}

// location is the redirect target's path and query, relative to the server.
func (p *page) location(t testing.TB) string {
	t.Helper()
	u, err := url.Parse(p.Header.Get("Location"))
	if err != nil || p.Header.Get("Location") == "" {
		t.Fatalf("no Location in a %d answer", p.Status)
	}
	return u.RequestURI()
}

// link is an anchor: its text and href.
type link struct{ Text, Href string }

// links lists the anchors inside the element whose aria-label is label (a nav), in order;
// label "" lists those of the article.
func (p *page) links(label string) []link {
	var out []link
	var inside func(n *html.Node, in bool)
	inside = func(n *html.Node, in bool) {
		if n.Type == html.ElementNode {
			if label == "" && n.Data == "article" || label != "" && attr(n, "aria-label") == label {
				in = true
			}
			if in && n.Data == "a" {
				out = append(out, link{Text: text(n), Href: attr(n, "href")})
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			inside(c, in)
		}
	}
	if p.doc != nil {
		inside(p.doc, false)
	}
	return out
}

// heading is the text of the page's first h1.
func (p *page) heading() string {
	var h string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "h1" && h == "" {
			h = text(n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	if p.doc != nil {
		walk(p.doc)
	}
	return h
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}
