// Package webimport reads a documentation website into a GitBook-style markdown tree: it
// crawls the pages of the start URL's host (robots.txt honoured, within page and byte caps,
// through the outbound fetch policy), keeps each page's main content (readability) as
// markdown, the site's navigation as SUMMARY.md, same-host images as files, and links between
// crawled pages as links inside the tree.
package webimport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"

	"golang.org/x/net/html"

	"docsd/internal/fetch"
)

// Limits bound a crawl. Zero values take the defaults.
type Limits struct {
	MaxPages      int   // pages fetched, the start page included; default 200
	MaxPageBytes  int64 // one page's HTML; default 2 MiB
	MaxImageBytes int64 // one image; default 5 MiB
	MaxTotalBytes int64 // everything fetched; default 50 MiB
	MaxImages     int   // images brought in; default 500
}

func (l *Limits) defaults() {
	if l.MaxPages <= 0 {
		l.MaxPages = 200
	}
	if l.MaxPageBytes <= 0 {
		l.MaxPageBytes = 2 << 20
	}
	if l.MaxImageBytes <= 0 {
		l.MaxImageBytes = 5 << 20
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = 50 << 20
	}
	if l.MaxImages <= 0 {
		l.MaxImages = 500
	}
}

// Site is a crawled website as a markdown tree.
type Site struct {
	// Files is the tree: README.md (the start page), SUMMARY.md, pages/*.md and
	// .gitbook/assets/*.
	Files map[string][]byte
	// Sources maps each page's file in the tree to the URL it was read from.
	Sources map[string]string
	// Errors say what was skipped: pages over the byte cap, pages that failed, images.
	Errors []string
}

// page is one fetched page.
type page struct {
	url   *url.URL
	file  string // in the tree
	title string
	doc   *html.Node
}

type crawler struct {
	pageFetch *fetch.Client
	imgFetch  *fetch.Client
	limits    Limits
	origin    *url.URL
	robots    *robots
	total     int64
	site      *Site
	pages     map[string]*page // by normalised URL
	order     []*page
	images    map[string]string // image URL → asset path
}

// Crawl reads the website at start. check is called before each request; an error from it
// (the run was cancelled) ends the crawl with that error. Only a start page that cannot be
// read fails the crawl; other failures are listed in Site.Errors.
func Crawl(ctx context.Context, opts fetch.Options, start string, limits Limits, check func() error) (*Site, error) {
	limits.defaults()
	u, err := url.Parse(start)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &fetch.Error{Kind: fetch.ErrInvalidURL, Message: "must be an absolute http or https URL"}
	}
	u.Fragment = ""
	po, io := opts, opts
	po.MaxBytes, io.MaxBytes = limits.MaxPageBytes, limits.MaxImageBytes
	c := &crawler{pageFetch: fetch.New(po), imgFetch: fetch.New(io), limits: limits, origin: u,
		site: &Site{Files: map[string][]byte{}, Sources: map[string]string{}}, pages: map[string]*page{}, images: map[string]string{}}
	c.loadRobots(ctx)
	if !c.robots.allowed(pathQuery(u)) {
		return nil, &fetch.Error{Kind: fetch.ErrInvalidURL, Host: u.Host, Message: "robots.txt disallows the start page"}
	}
	queue := []*url.URL{u}
	seen := map[string]bool{key(u): true}
	for len(queue) > 0 && len(c.pages) < limits.MaxPages {
		if err := check(); err != nil {
			return nil, err
		}
		next := queue[0]
		queue = queue[1:]
		p, err := c.fetchPage(ctx, next, len(c.order) == 0)
		if err != nil {
			if len(c.order) == 0 {
				return nil, err
			}
			c.site.Errors = append(c.site.Errors, fmt.Sprintf("%s: skipped: %v", next, err))
			continue
		}
		for _, l := range links(p.doc, p.url) {
			if k := key(l); !seen[k] && c.sameSite(l) {
				seen[k] = true
				if !c.robots.allowed(pathQuery(l)) {
					continue // never fetched, and not an error: the site asked for it
				}
				queue = append(queue, l)
			}
		}
	}
	if len(queue) > 0 {
		c.site.Errors = append(c.site.Errors, fmt.Sprintf("stopped after %d pages (the most a website import reads); %d more were not read", limits.MaxPages, len(queue)))
	}
	if err := c.write(ctx, check); err != nil {
		return nil, err
	}
	return c.site, nil
}

func (c *crawler) loadRobots(ctx context.Context) {
	c.robots = &robots{}
	ru := *c.origin
	ru.Path, ru.RawQuery, ru.RawPath = "/robots.txt", "", ""
	res, err := c.get(ctx, c.pageFetch, &ru)
	if err == nil && res.StatusCode == http.StatusOK {
		c.robots = parseRobots(string(res.Body))
	}
}

// get fetches a URL within the crawl's total byte budget.
func (c *crawler) get(ctx context.Context, client *fetch.Client, u *url.URL) (*fetch.Response, error) {
	if c.total >= c.limits.MaxTotalBytes {
		return nil, fmt.Errorf("the import's total of %s is used up", fetch.ByteSize(c.limits.MaxTotalBytes))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", userAgent)
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var buf bytes.Buffer
	_, err = buf.ReadFrom(res.Body)
	c.total += int64(buf.Len())
	if err != nil {
		return nil, client.Classify(u.Host, err)
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return &fetch.Response{URL: res.Request.URL.String(), StatusCode: res.StatusCode}, &fetch.Error{Kind: fetch.ErrStatus, Host: u.Host, StatusCode: res.StatusCode, Message: "the server answered " + res.Status}
	}
	return &fetch.Response{URL: res.Request.URL.String(), StatusCode: res.StatusCode, ContentType: res.Header.Get("Content-Type"), Body: buf.Bytes()}, nil
}

func (c *crawler) fetchPage(ctx context.Context, u *url.URL, first bool) (*page, error) {
	res, err := c.get(ctx, c.pageFetch, u)
	if err != nil {
		var fe *fetch.Error
		if errors.As(err, &fe) && errors.Is(err, fetch.ErrTooLarge) {
			return nil, fmt.Errorf("larger than %s, the most one page may be", fetch.ByteSize(c.limits.MaxPageBytes))
		}
		return nil, err
	}
	if mt, _, _ := mime.ParseMediaType(res.ContentType); mt != "text/html" && mt != "application/xhtml+xml" {
		return nil, fmt.Errorf("not an HTML page (%s)", res.ContentType)
	}
	final, err := url.Parse(res.URL)
	if err != nil || !c.sameSite(final) {
		return nil, fmt.Errorf("redirected off the site")
	}
	final.Fragment = ""
	doc, err := html.Parse(bytes.NewReader(res.Body))
	if err != nil {
		return nil, fmt.Errorf("not readable HTML: %v", err)
	}
	k := key(final)
	if _, dup := c.pages[k]; dup {
		return nil, fmt.Errorf("same page as %s", final)
	}
	p := &page{url: final, doc: doc, title: docTitle(doc)}
	if first {
		p.file = "README.md"
	} else {
		p.file = c.fileFor(final)
	}
	c.pages[k] = p
	c.pages[key(u)] = p
	c.order = append(c.order, p)
	return p, nil
}

// fileFor names a page's markdown file after its URL path, unique in the tree.
func (c *crawler) fileFor(u *url.URL) string {
	p := strings.Trim(u.Path, "/")
	p = strings.TrimSuffix(strings.TrimSuffix(p, ".html"), ".htm")
	var b strings.Builder
	for _, r := range strings.ToLower(p) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == '/':
			b.WriteByte('/')
		default:
			b.WriteByte('-')
		}
	}
	name := strings.Trim(b.String(), "/")
	if name == "" || name == "index" {
		name = "index"
	}
	name = strings.TrimSuffix(name, "/index")
	base := "pages/" + name
	file := base + ".md"
	for i := 2; c.fileTaken(file); i++ {
		file = fmt.Sprintf("%s-%d.md", base, i)
	}
	return file
}

func (c *crawler) fileTaken(file string) bool {
	for _, p := range c.order {
		if p.file == file {
			return true
		}
	}
	return false
}

// sameSite reports whether u is on the start URL's scheme and host.
func (c *crawler) sameSite(u *url.URL) bool {
	return u.Scheme == c.origin.Scheme && strings.EqualFold(u.Host, c.origin.Host)
}

// key normalises a page URL for de-duplication: no fragment, no trailing slash.
func key(u *url.URL) string {
	v := *u
	v.Fragment = ""
	v.Path = strings.TrimSuffix(v.Path, "/")
	if strings.HasSuffix(v.Path, "/index.html") {
		v.Path = strings.TrimSuffix(v.Path, "/index.html")
	}
	return strings.ToLower(v.Scheme+"://"+v.Host) + v.Path + "?" + v.RawQuery
}

func pathQuery(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return p
}

// relative is the link from the file from to the file to, both in the tree.
func relative(from, to string) string {
	dir := path.Dir(from)
	if dir == "." {
		return to
	}
	up := strings.Repeat("../", strings.Count(dir, "/")+1)
	return up + to
}

// CheckStart checks a start URL's form before any crawl: absolute, http or https.
func CheckStart(start string) error {
	u, err := url.Parse(start)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("must be an absolute http or https URL")
	}
	return nil
}
