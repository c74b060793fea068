package wire

import (
	"docsd/internal/content"
	"docsd/internal/linkcheck"
)

// ContentLocation is an absolute reference to content: a page or a file of a space (with the
// organization and space it is in, and the change request it is read in, if any), or a URL.
type ContentLocation struct {
	Kind             string            `json:"kind"`
	Organization     *Organization     `json:"organization,omitempty"`
	Space            *Space            `json:"space,omitempty"`
	VersionContext   *VersionContext   `json:"versionContext,omitempty"`
	Page             *Page             `json:"page,omitempty"`
	File             *File             `json:"file,omitempty"`
	InternalLocation *InternalLocation `json:"internalLocation,omitempty"`
	URL              string            `json:"url,omitempty"`
}

// VersionContext names the change request a location was read in.
type VersionContext struct {
	Type          string         `json:"type"`
	ChangeRequest *ChangeRequest `json:"changeRequest,omitempty"`
}

// InternalLocation is a place inside a page: a heading's anchor.
type InternalLocation struct {
	Type   string `json:"type"`
	Anchor string `json:"anchor"`
}

// LinkUsage is one link target with the pages that link to it.
type LinkUsage struct {
	Status             string            `json:"status"`
	Relation           string            `json:"relation"`
	TargetReference    ContentLocation   `json:"targetReference"`
	LocationReferences []ContentLocation `json:"locationReferences"`
}

// LinkStats counts the targets of a link check, before the status filter.
type LinkStats struct {
	Total  int         `json:"total"`
	Broken BrokenStats `json:"broken"`
}

// BrokenStats counts broken targets; ChangeRequest is set on change request reads.
type BrokenStats struct {
	Total         int  `json:"total"`
	ChangeRequest *int `json:"changeRequest,omitempty"`
}

// LinkList is the answer of the link-check routes: the list envelope plus stats.
type LinkList struct {
	Next  *Next       `json:"next,omitempty"`
	Count int         `json:"count"`
	Items []LinkUsage `json:"items"`
	Stats LinkStats   `json:"stats"`
}

// Locator converts what one read's links point at to content locations: the pages and
// files of Snap, in the space and organization given, read in Context when it is set.
type Locator struct {
	URLs
	Snap         *content.Snapshot
	Space        Space
	Organization Organization
	Context      *VersionContext
}

// Page locates a page. The page comes without its subtree: a reference names the page, and
// reading the page gives the rest.
func (l Locator) Page(id, anchor string) ContentLocation {
	p := l.PageAlone(l.Space.ID, l.Snap, l.Snap.Tree.Pages[id])
	loc := l.in("page")
	loc.Page = &p
	if anchor != "" {
		loc.InternalLocation = &InternalLocation{Type: "anchor", Anchor: anchor}
	}
	return loc
}

// File locates a file.
func (l Locator) File(id string) ContentLocation {
	f := l.FromFile(l.Space.ID, l.Snap.Revision.ID, l.Snap.Tree.Files[id])
	loc := l.in("file")
	loc.File = &f
	return loc
}

func (l Locator) in(kind string) ContentLocation {
	sp, org := l.Space, l.Organization
	return ContentLocation{Kind: kind, Organization: &org, Space: &sp, VersionContext: l.Context}
}

// Target locates a link's target; a missing one is shown as the URL it was written as.
func (l Locator) Target(t linkcheck.Target) ContentLocation {
	switch t.Kind {
	case linkcheck.TargetPage:
		return l.Page(t.Page, t.Anchor)
	case linkcheck.TargetFile:
		return l.File(t.File)
	}
	return ContentLocation{Kind: "url", URL: t.URL}
}

// LocationsMax bounds the locations shown per link target: each carries its space and
// organization, and a target linked from every page of a large space would otherwise weigh
// megabytes. Backlinks list every linking page, paged.
const LocationsMax = 10

// Usage converts one link target with the first LocationsMax pages that link to it.
func (l Locator) Usage(u linkcheck.Usage) LinkUsage {
	pages := u.Pages[:min(len(u.Pages), LocationsMax)]
	out := LinkUsage{Status: u.Status, Relation: "reference", TargetReference: l.Target(u.Target),
		LocationReferences: make([]ContentLocation, 0, len(pages))}
	for _, id := range pages {
		out.LocationReferences = append(out.LocationReferences, l.Page(id, ""))
	}
	return out
}
