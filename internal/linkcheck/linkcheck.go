// Package linkcheck finds the links of a revision's pages, resolves them against the
// revision, and says which are broken: the link-check results and backlinks of the API.
package linkcheck

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"docsd/internal/contenttree"
	"docsd/internal/markdoc"
	"docsd/internal/spacelinks"
)

// Statuses of a link, as the API names them.
const (
	OK     = "ok"     // the target resolves: a page or file of the revision, or an outside URL
	Broken = "broken" // the target is absent from the revision
	InApp  = "in-app" // a URL pointing at a location of this server's app
)

// Statuses lists every status, for filters.
var Statuses = []string{OK, Broken, InApp}

// Target kinds.
const (
	TargetPage    = "page"    // Page, maybe with Anchor
	TargetFile    = "file"    // File
	TargetURL     = "url"     // URL: an absolute URL
	TargetMissing = "missing" // URL: the destination as written; Location: where it resolves to (for a link page's target, "page:<id>" or "file:<id>")
)

// Target is what a link points at.
type Target struct {
	Kind     string
	Page     string
	Anchor   string
	File     string
	URL      string
	Location string // for missing targets: the path from the root of the space's file layout
}

// Key identifies a target; links to the same target share it, and lists sort by it.
func (t Target) Key() string {
	switch t.Kind {
	case TargetPage:
		if t.Anchor != "" {
			return "page:" + t.Page + "#" + t.Anchor
		}
		return "page:" + t.Page
	case TargetFile:
		return "file:" + t.File
	case TargetMissing:
		return "missing:" + t.Location
	}
	return "url:" + t.URL
}

// Link is a target one page links to, with its status.
type Link struct {
	Target Target
	Status string
}

// Checker resolves links within one revision. appPrefix is the start of this server's app
// URLs ("https://docs.example.com/app/"): absolute URLs under it are in-app links.
type Checker struct {
	tree      *contenttree.Tree
	resolver  *spacelinks.Resolver
	appPrefix string
}

// NewChecker indexes a revision's tree (its pages need no markdown).
func NewChecker(t *contenttree.Tree, appPrefix string) *Checker {
	return &Checker{tree: t, resolver: spacelinks.New(t), appPrefix: appPrefix}
}

// LinkPageTarget returns where a link page (a page of type link) points: its target content
// reference, checked like a link. ok is false for a page without a target.
func (c *Checker) LinkPageTarget(p contenttree.Page) (Link, bool) {
	var ref struct {
		Kind   string `json:"kind"`
		URL    string `json:"url"`
		Page   string `json:"page"`
		File   string `json:"file"`
		Anchor string `json:"anchor"`
	}
	if len(p.Target) == 0 || json.Unmarshal(p.Target, &ref) != nil {
		return Link{}, false
	}
	switch {
	case ref.Kind == "url" && ref.URL != "":
		return c.urlLink(ref.URL), true
	case (ref.Kind == "page" || ref.Kind == "anchor") && ref.Page != "":
		if _, ok := c.tree.Pages[ref.Page]; ok {
			return Link{Target: Target{Kind: TargetPage, Page: ref.Page, Anchor: ref.Anchor}, Status: OK}, true
		}
		return missing("page "+ref.Page, "page:"+ref.Page), true
	case ref.Kind == "file" && ref.File != "":
		if _, ok := c.tree.Files[ref.File]; ok {
			return Link{Target: Target{Kind: TargetFile, File: ref.File}, Status: OK}, true
		}
		return missing("file "+ref.File, "file:"+ref.File), true
	}
	return Link{}, false
}

// missing is a broken link: what was written, and where it would point.
func missing(written, location string) Link {
	return Link{Target: Target{Kind: TargetMissing, URL: written, Location: location}, Status: Broken}
}

func (c *Checker) urlLink(u string) Link {
	status := OK
	if c.appPrefix != "" && strings.HasPrefix(u, c.appPrefix) {
		status = InApp
	}
	return Link{Target: Target{Kind: TargetURL, URL: u}, Status: status}
}

// PageLinks returns the distinct targets the markdown of page pageID links to, sorted by key.
// Links to a heading of the same page ("#install") are not references to other content and
// are left out.
func (c *Checker) PageLinks(pageID, markdown string) []Link {
	seen := map[string]bool{}
	var out []Link
	for _, l := range markdoc.Links(markdown) {
		if l.Kind == markdoc.LinkAnchor {
			continue
		}
		link := c.resolve(pageID, l)
		if k := link.Target.Key(); !seen[k] {
			seen[k] = true
			out = append(out, link)
		}
	}
	slices.SortFunc(out, func(a, b Link) int { return cmp.Compare(a.Target.Key(), b.Target.Key()) })
	return out
}

func (c *Checker) resolve(pageID string, l markdoc.Link) Link {
	if l.Kind == markdoc.LinkURL {
		return c.urlLink(l.Dest)
	}
	if ref, ok := c.resolver.Resolve(pageID, l.Dest); ok {
		switch ref.Kind {
		case "file":
			return Link{Target: Target{Kind: TargetFile, File: ref.File}, Status: OK}
		case "anchor":
			return Link{Target: Target{Kind: TargetPage, Page: ref.Page, Anchor: ref.Anchor}, Status: OK}
		default:
			return Link{Target: Target{Kind: TargetPage, Page: ref.Page}, Status: OK}
		}
	}
	// Where the link would point, so that links from several pages to the same missing
	// target count as one; a link that climbs above the root keeps its text.
	loc := l.Dest
	if from, ok := c.resolver.Location(pageID); ok {
		if to, ok := l.Resolve(from); ok {
			loc = to
		}
	}
	return missing(l.Dest, loc)
}
