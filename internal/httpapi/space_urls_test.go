package httpapi_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
)

// spaceURLs reads a space's urls.published and urls.public, as GET /spaces/{id} shows them
// (with a share key when given) and as the organization's space list does; they must agree
// when no key is given.
func spaceURLs(t *testing.T, e *apitest.Env, spaceID, shareKey string) (published, public string) {
	t.Helper()
	path := "/v1/spaces/" + spaceID
	if shareKey != "" {
		path += "?shareKey=" + url.QueryEscape(shareKey)
	}
	r := e.Get(e.Admin, path).Expect(200)
	published, public = optStr(r, "urls.published"), optStr(r, "urls.public")
	if shareKey != "" {
		return published, public
	}
	for _, it := range e.WalkList(e.Admin, "/v1/orgs/"+e.Org+"/spaces", 100) {
		if it["id"] != spaceID {
			continue
		}
		urls := it["urls"].(map[string]any)
		p, _ := urls["published"].(string)
		q, _ := urls["public"].(string)
		if p != published || q != public {
			t.Fatalf("the space list shows %q, %q; the space %q, %q", p, q, published, public)
		}
	}
	return published, public
}

// revisionURLs reads a revision's urls.published and urls.public at a content base.
func revisionURLs(t *testing.T, e *apitest.Env, base string) (published, public string) {
	t.Helper()
	r := e.Get(e.Admin, base).Expect(200)
	if !r.Has("urls.app") {
		t.Fatalf("%s: no urls.app: %s", base, r.Body)
	}
	return optStr(r, "urls.published"), optStr(r, "urls.public")
}

// optStr reads a string that may be absent ("").
func optStr(r *apitest.Resp, path string) string {
	v, _ := r.Get(path)
	s, _ := v.(string)
	return s
}

// relative is a URL of this server as a path and query.
func relative(t *testing.T, e *apitest.Env, u string) string {
	t.Helper()
	rest, ok := strings.CutPrefix(u, e.URL)
	if !ok {
		t.Fatalf("%s is not under %s", u, e.URL)
	}
	return rest
}

func TestSpacePublishedURLs(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	guide, other := titledSpace(t, e, "Guide"), titledSpace(t, e, "Other")
	empty := e.Get(e.Admin, "/v1/spaces/"+guide).Expect(200).Str("revision")
	head, _ := replaceContent(t, e, e.Admin, guide, newTreeBuilder().
		doc("home", "", "Home", "home", "# Welcome\n\nGuide home.\n").
		doc("install", "", "Install", "install", "# Install\n\nRun the installer.\n").tree)
	replaceContent(t, e, e.Admin, other, newTreeBuilder().doc("ref", "", "Reference", "reference", "# Reference\n\nEvery endpoint.\n").tree)
	expectNone := func(t *testing.T, spaceID string) {
		t.Helper()
		if p, q := spaceURLs(t, e, spaceID, ""); p != "" || q != "" {
			t.Fatalf("space %s: published %q, public %q; want neither", spaceID, p, q)
		}
		if p, q := revisionURLs(t, e, "/v1/spaces/"+spaceID+"/content"); p != "" || q != "" {
			t.Fatalf("space %s's head revision: published %q, public %q; want neither", spaceID, p, q)
		}
	}

	sitePath := newSite(t, e, map[string]any{"title": "Docs", "spaces": []string{guide}})
	siteURL := e.URL + "/sites/" + e.Org + "/docs/"
	t.Run("no published site includes the space: no published URL", func(t *testing.T) {
		expectNone(t, guide) // the site exists, unpublished
		expectNone(t, other)
	})

	e.Post(e.Admin, sitePath+"/publish", nil).Expect(200)
	t.Run("published in a public site: the space and its current revision show the site's address", func(t *testing.T) {
		if p, q := spaceURLs(t, e, guide, ""); p != siteURL || q != siteURL {
			t.Fatalf("published %q, public %q; want %q for both", p, q, siteURL)
		}
		for _, base := range []string{"/v1/spaces/" + guide + "/content", "/v1/spaces/" + guide + "/revisions/" + head.ID} {
			if p, q := revisionURLs(t, e, base); p != siteURL || q != siteURL {
				t.Fatalf("%s: published %q, public %q; want %q", base, p, q, siteURL)
			}
		}
		// An older revision is not what the site serves.
		if p, q := revisionURLs(t, e, "/v1/spaces/"+guide+"/revisions/"+empty); p != "" || q != "" {
			t.Fatalf("an old revision: published %q, public %q", p, q)
		}
		expectNone(t, other)
	})
	t.Run("the collection and member space lists show it too", func(t *testing.T) {
		coll := e.Post(e.Admin, "/v1/orgs/"+e.Org+"/collections", map[string]any{"title": "Docs"}).Expect(201).Str("id")
		e.Post(e.Admin, "/v1/spaces/"+guide+"/move", map[string]any{"parent": coll}).Expect(200)
		for _, list := range []string{"/v1/collections/" + coll + "/spaces", "/v1/orgs/" + e.Org + "/members/" + e.Admin.ID + "/spaces"} {
			found := false
			for _, it := range e.WalkList(e.Admin, list, 100) {
				if sp, ok := it["space"].(map[string]any); ok { // a member's space: {permission, space}
					it = sp
				}
				urls := it["urls"].(map[string]any)
				switch it["id"] {
				case guide:
					found = true
					if urls["published"] != siteURL || urls["public"] != siteURL {
						t.Fatalf("%s: guide's urls %v", list, urls)
					}
				default:
					if urls["published"] != nil || urls["public"] != nil {
						t.Fatalf("%s: space %v's urls %v", list, it["id"], urls)
					}
				}
			}
			if !found {
				t.Fatalf("%s does not list guide", list)
			}
		}
	})
	t.Run("the published URL serves the space's pages", func(t *testing.T) {
		p, _ := spaceURLs(t, e, guide, "")
		rd := newReader(t, e)
		if home := rd.get(relative(t, e, p)).expect(t, 200); !strings.Contains(home.Body, "Guide home.") {
			t.Fatalf("the published URL shows: %.500s", home.Body)
		}
		if page := rd.get(relative(t, e, p)+"install").expect(t, 200); !strings.Contains(page.Body, "Run the installer.") {
			t.Fatalf("the published install page shows: %.500s", page.Body)
		}
	})

	t.Run("a space in a section has its path in the site, as its site space says", func(t *testing.T) {
		sec := e.Post(e.Admin, sitePath+"/sections", map[string]any{"spaceId": other, "title": "Reference"}).Expect(201)
		var siteSpaceURL string
		for _, ss := range sec.Map()["siteSpaces"].([]any) {
			m := ss.(map[string]any)
			if m["space"].(map[string]any)["id"] == other {
				siteSpaceURL = m["urls"].(map[string]any)["published"].(string)
				// The space inside the site space shows it too.
				if got := m["space"].(map[string]any)["urls"].(map[string]any)["published"]; got != siteSpaceURL {
					t.Fatalf("the site space's space shows %v, the site space %s", got, siteSpaceURL)
				}
			}
		}
		p, q := spaceURLs(t, e, other, "")
		if p == "" || p == siteURL || p != siteSpaceURL || q != p {
			t.Fatalf("other: published %q, public %q; its site space %q", p, q, siteSpaceURL)
		}
		if page := newReader(t, e).get(relative(t, e, p)).expect(t, 200); !strings.Contains(page.Body, "Every endpoint.") {
			t.Fatalf("other's published URL shows: %.500s", page.Body)
		}
		if p, _ := spaceURLs(t, e, guide, ""); p != siteURL {
			t.Fatalf("guide, the default site space of the default section, moved to %q", p)
		}
	})

	t.Run("an unlisted site publishes without a public URL", func(t *testing.T) {
		e.Patch(e.Admin, sitePath, map[string]any{"visibility": "unlisted"}).Expect(200)
		if p, q := spaceURLs(t, e, guide, ""); p != siteURL || q != "" {
			t.Fatalf("published %q, public %q", p, q)
		}
		if p, q := revisionURLs(t, e, "/v1/spaces/"+guide+"/content"); p != siteURL || q != "" {
			t.Fatalf("head revision: published %q, public %q", p, q)
		}
	})

	t.Run("a share-link site's URL carries the share key the caller gives", func(t *testing.T) {
		e.Patch(e.Admin, sitePath, map[string]any{"visibility": "share-link"}).Expect(200)
		link := e.Post(e.Admin, sitePath+"/share-links", map[string]any{"name": "Partners"}).Expect(201).Str("urls.published")
		u, err := url.Parse(link)
		if err != nil {
			t.Fatal(err)
		}
		key := u.Query().Get("shareKey")
		if p, q := spaceURLs(t, e, guide, key); p != siteURL+"?shareKey="+url.QueryEscape(key) || q != "" {
			t.Fatalf("with the key: published %q, public %q", p, q)
		}
		if p, _ := spaceURLs(t, e, guide, "not-a-key"); p != siteURL {
			t.Fatalf("with an unknown key: published %q", p)
		}
		p, _ := spaceURLs(t, e, guide, key)
		if page := newReader(t, e).get(relative(t, e, p)); page.Status != 200 && page.Status != 302 && page.Status != 303 {
			t.Fatalf("the share link's address answers %d", page.Status)
		}
	})

	t.Run("unpublishing the site takes the URLs away", func(t *testing.T) {
		e.Post(e.Admin, sitePath+"/unpublish", nil).Expect(200)
		expectNone(t, guide)
		expectNone(t, other)
		if page := newReader(t, e).get(relative(t, e, siteURL)); page.Status != 404 {
			t.Fatalf("the unpublished site answers %d", page.Status)
		}
	})

	t.Run("of two published sites, the older one's address comes first; public is the public one's", func(t *testing.T) {
		e.Post(e.Admin, sitePath+"/publish", nil).Expect(200) // share-link, made first
		e.Clock.Advance(time.Second)
		second := newSite(t, e, map[string]any{"title": "Public docs", "spaces": []string{guide}})
		e.Patch(e.Admin, second, map[string]any{"basename": "public-docs"}).Expect(200)
		e.Post(e.Admin, second+"/publish", nil).Expect(200)
		publicURL := e.URL + "/sites/" + e.Org + "/public-docs/"
		if p, q := spaceURLs(t, e, guide, ""); p != siteURL || q != publicURL {
			t.Fatalf("published %q, public %q; want %q, %q", p, q, siteURL, publicURL)
		}
		if page := newReader(t, e).get(relative(t, e, publicURL)+"install").expect(t, 200); !strings.Contains(page.Body, "Run the installer.") {
			t.Fatalf("the public site shows: %.500s", page.Body)
		}
	})
}
