// Package embed unfurls a URL into what an editor shows for it (the API's `Embed`): a rich
// embed when the page offers oEmbed HTML, else a link card from its OpenGraph data or its
// title. Pages are fetched through the outbound policy (internal/fetch) with a short timeout
// and a small size cap; HTML from oEmbed is sanitised before it is returned; answers are
// kept for a while in memory, as a per-process saving only.
package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/microcosm-cc/bluemonday"
	"golang.org/x/net/html"

	"docsd/internal/apperr"
	"docsd/internal/clock"
	"docsd/internal/fetch"
)

// Limits of one unfurl.
const (
	Timeout   = 10 * time.Second
	PageBytes = 2 << 20   // the page, of which only the head matters
	OEmbed    = 256 << 10 // the oEmbed answer
	URLMax    = 2048
	cacheFor  = time.Hour
	cacheMax  = 2000
)

// Embed is the API's Embed: Type "link" or "rich" (with HTML).
type Embed struct {
	Type  string `json:"type"`
	Title string `json:"title"`
	Site  string `json:"site"`
	Icon  string `json:"icon,omitempty"`
	HTML  string `json:"html,omitempty"`
}

// httpsURL is the only source an embedded frame may have.
var httpsURL = regexp.MustCompile(`^https://[^\s]+$`)

// Service unfurls URLs.
type Service struct {
	client *fetch.Client
	policy *bluemonday.Policy
	clock  clock.Clock

	mu    sync.Mutex
	cache map[string]cached
}

type cached struct {
	e       Embed
	expires time.Time
}

// NewService returns a service fetching under the operator's address policy.
func NewService(o fetch.Options, clk clock.Clock) *Service {
	o.Timeout, o.MaxBytes = Timeout, PageBytes
	p := bluemonday.UGCPolicy()
	// Players and widgets come as iframes: allowed over https only, with their sizing.
	p.AllowElements("iframe")
	p.AllowAttrs("width", "height", "title", "allowfullscreen", "frameborder", "allow", "loading").OnElements("iframe")
	p.AllowAttrs("src").Matching(httpsURL).OnElements("iframe")
	p.RequireParseableURLs(true)
	p.AllowURLSchemes("https")
	return &Service{client: fetch.New(o), policy: p, clock: clk, cache: map[string]cached{}}
}

// Unfurl returns the embed of rawURL. A URL that is not http(s) or that the address policy
// refuses is a 400 naming `url`; a page that cannot be read (an error status, a timeout) is
// still a link, titled with its URL, so an editor can show it.
func (s *Service) Unfurl(ctx context.Context, rawURL string) (Embed, error) {
	u, err := check(rawURL)
	if err != nil {
		return Embed{}, err
	}
	key := u.String()
	now := s.clock.Now()
	s.mu.Lock()
	c, ok := s.cache[key]
	s.mu.Unlock()
	if ok && now.Before(c.expires) {
		return c.e, nil
	}
	e, err := s.unfurl(ctx, u)
	if err != nil {
		return Embed{}, err
	}
	s.mu.Lock()
	if len(s.cache) >= cacheMax {
		for k, v := range s.cache {
			if len(s.cache) < cacheMax && !now.After(v.expires) {
				break
			}
			delete(s.cache, k)
		}
	}
	s.cache[key] = cached{e: e, expires: now.Add(cacheFor)}
	s.mu.Unlock()
	return e, nil
}

func check(rawURL string) (*url.URL, error) {
	if rawURL == "" {
		return nil, apperr.Invalidf("url: is required")
	}
	if len(rawURL) > URLMax {
		return nil, apperr.Invalidf("url: must be at most %d characters", URLMax)
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, apperr.Invalidf("url: must be an absolute http or https URL (got %q)", rawURL)
	}
	u.Fragment = ""
	return u, nil
}

func (s *Service) unfurl(ctx context.Context, u *url.URL) (Embed, error) {
	fallback := Embed{Type: "link", Title: u.String(), Site: u.Hostname()}
	res, err := s.client.Get(ctx, u.String())
	var fe *fetch.Error
	if errors.As(err, &fe) && fe.CallerFault() && !errors.Is(err, fetch.ErrStatus) {
		return Embed{}, apperr.Invalidf("url: %s", fe.Error())
	}
	if err != nil {
		return fallback, nil
	}
	if !strings.Contains(strings.ToLower(res.ContentType), "html") {
		// A file: named by its last path segment.
		if name := path.Base(u.Path); name != "/" && name != "." {
			fallback.Title = name
		}
		return fallback, nil
	}
	meta := readHead(res.Body)
	base, _ := url.Parse(res.URL)
	e := Embed{Type: "link", Title: first(meta.og["og:title"], meta.og["twitter:title"], meta.title, u.String()),
		Site: first(meta.og["og:site_name"], u.Hostname()), Icon: absolute(base, meta.icon)}
	if meta.oembed != "" {
		if o, ok := s.oembed(ctx, absolute(base, meta.oembed)); ok {
			if o.Title != "" {
				e.Title = o.Title
			}
			if o.ProviderName != "" {
				e.Site = o.ProviderName
			}
			if clean := strings.TrimSpace(s.policy.Sanitize(o.HTML)); clean != "" {
				e.Type, e.HTML = "rich", clean
			}
		}
	}
	e.Title, e.Site = oneLine(e.Title), oneLine(e.Site)
	return e, nil
}

type oembedAnswer struct {
	Title        string `json:"title"`
	ProviderName string `json:"provider_name"`
	HTML         string `json:"html"`
}

// oembed reads a page's oEmbed answer; a failure only leaves the embed a link.
func (s *Service) oembed(ctx context.Context, endpoint string) (oembedAnswer, bool) {
	var o oembedAnswer
	if endpoint == "" {
		return o, false
	}
	res, err := s.client.Get(ctx, endpoint)
	if err != nil || len(res.Body) > OEmbed {
		return o, false
	}
	return o, json.Unmarshal(res.Body, &o) == nil
}

// head is what a page's head says about it.
type head struct {
	title, icon, oembed string
	og                  map[string]string
}

// readHead reads the title, OpenGraph and Twitter meta tags, the icon and the oEmbed link
// of a page, stopping at <body>.
func readHead(page []byte) head {
	h := head{og: map[string]string{}}
	z := html.NewTokenizer(bytes.NewReader(page))
	inTitle := false
	for range 20000 { // bounded: a head has far fewer tokens
		switch z.Next() {
		case html.ErrorToken:
			return h
		case html.TextToken:
			if inTitle && h.title == "" {
				h.title = strings.TrimSpace(string(z.Text()))
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "title" {
				inTitle = false
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			t := z.Token()
			attr := func(k string) string {
				for _, a := range t.Attr {
					if strings.EqualFold(a.Key, k) {
						return a.Val
					}
				}
				return ""
			}
			switch t.Data {
			case "body":
				return h
			case "title":
				inTitle = true
			case "meta":
				name := strings.ToLower(first(attr("property"), attr("name")))
				if (strings.HasPrefix(name, "og:") || strings.HasPrefix(name, "twitter:")) && h.og[name] == "" {
					h.og[name] = attr("content")
				}
			case "link":
				rel := strings.ToLower(attr("rel"))
				switch {
				case strings.Contains(attr("type"), "json+oembed") && rel == "alternate" && h.oembed == "":
					h.oembed = attr("href")
				case (rel == "icon" || rel == "shortcut icon" || rel == "apple-touch-icon") && h.icon == "":
					h.icon = attr("href")
				}
			}
		}
	}
	return h
}

func first(vals ...string) string {
	for _, v := range vals {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

// absolute resolves ref against base, keeping only http(s) results.
func absolute(base *url.URL, ref string) string {
	if ref == "" || base == nil {
		return ""
	}
	u, err := base.Parse(ref)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return u.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
