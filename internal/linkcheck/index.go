package linkcheck

import (
	"cmp"
	"slices"
)

// Usage is one target of a revision's links with the pages that link to it, in page order.
type Usage struct {
	Link
	Pages []string
}

// Index is every link of a revision, by target; it is built once per revision (see
// Service) and read by many requests, so it must not be changed.
type Index struct {
	Usages    []Usage             // sorted by target key
	backlinks map[string][]string // "page:<id>" or "file:<id>" → linking pages, in page order
}

// Build indexes the links of pages, given in page order, as linksOf returns them.
func Build(pages []string, linksOf func(pageID string) []Link) *Index {
	ix := &Index{backlinks: map[string][]string{}}
	byKey := map[string]int{}
	for _, id := range pages {
		linked := map[string]bool{}
		for _, l := range linksOf(id) {
			k := l.Target.Key()
			i, ok := byKey[k]
			if !ok {
				i = len(ix.Usages)
				byKey[k] = i
				ix.Usages = append(ix.Usages, Usage{Link: l})
			}
			ix.Usages[i].Pages = append(ix.Usages[i].Pages, id)
			// Backlinks name a page or file once per linking page, anchors or not.
			var to string
			switch l.Target.Kind {
			case TargetPage:
				to = "page:" + l.Target.Page
			case TargetFile:
				to = "file:" + l.Target.File
			}
			if to != "" && !linked[to] {
				linked[to] = true
				ix.backlinks[to] = append(ix.backlinks[to], id)
			}
		}
	}
	slices.SortFunc(ix.Usages, func(a, b Usage) int { return cmp.Compare(a.Target.Key(), b.Target.Key()) })
	return ix
}

// PageBacklinks returns the pages that link to page id, in page order.
func (ix *Index) PageBacklinks(id string) []string { return ix.backlinks["page:"+id] }

// FileBacklinks returns the pages that link to file id, in page order.
func (ix *Index) FileBacklinks(id string) []string { return ix.backlinks["file:"+id] }

// Stats counts targets: all of them and the broken ones.
type Stats struct {
	Total, Broken int
}

// Count counts usages.
func Count(us []Usage) Stats {
	var s Stats
	for _, u := range us {
		s.Total++
		if u.Status == Broken {
			s.Broken++
		}
	}
	return s
}

// NewlyBroken returns the keys of the broken targets of us that are not broken in base: the
// links a change request broke, when base is what it started from.
func NewlyBroken(us []Usage, base []Usage) map[string]bool {
	before := map[string]bool{}
	for _, u := range base {
		if u.Status == Broken {
			before[u.Target.Key()] = true
		}
	}
	out := map[string]bool{}
	for _, u := range us {
		if k := u.Target.Key(); u.Status == Broken && !before[k] {
			out[k] = true
		}
	}
	return out
}
