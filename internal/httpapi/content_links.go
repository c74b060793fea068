package httpapi

import (
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/changereq"
	"docsd/internal/content"
	"docsd/internal/linkcheck"
	"docsd/internal/org"
	"docsd/internal/paging"
	"docsd/internal/wire"
)

// linkHandlers answer link checks and backlinks, at the space's head and in change requests.
type linkHandlers struct {
	*Server
	links *linkcheck.Service
}

func (s *Server) contentLinkRoutes() {
	h := &linkHandlers{Server: s, links: linkcheck.NewService(s.Content, s.urls.App("/"))}
	s.handle("GET /v1/spaces/{spaceId}/links", h.spaceLinks)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/links", h.spaceLinks)
	s.handle("GET /v1/spaces/{spaceId}/content/page/{pageId}/links", h.pageLinks)
	s.handle("GET /v1/spaces/{spaceId}/content/page/{pageId}/backlinks", h.pageBacklinks)
	s.handle("GET /v1/spaces/{spaceId}/content/files/{fileId}/backlinks", h.fileBacklinks)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links", h.pageLinks)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/backlinks", h.pageBacklinks)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks", h.fileBacklinks)
}

// linkRead is the content one link request reads, with what its locations show.
type linkRead struct {
	snap *content.Snapshot
	cr   *changereq.View
	loc  wire.Locator
	list string // identifies the revision read, for cursors
}

func (h *linkHandlers) read(r *http.Request, c auth.Caller) (linkRead, error) {
	v, snap, cr, err := h.contentAt(r, c)
	if err != nil {
		return linkRead{}, err
	}
	o, err := h.Orgs.Get(r.Context(), c, v.OrganizationID)
	if e, ok := apperr.As(err); ok && e.Code == apperr.NotFound {
		// A guest of the space who is not a member of its organization still sees which
		// organization the content belongs to, by id.
		o, err = org.View{Organization: org.Organization{ID: v.OrganizationID}}, nil
	}
	if err != nil {
		return linkRead{}, err
	}
	sp, err := h.spaceOut(r.Context(), v, "")
	if err != nil {
		return linkRead{}, err
	}
	rd := linkRead{snap: snap, cr: cr, list: v.ID + "/" + snap.Revision.ID,
		loc: wire.Locator{URLs: h.urls, Snap: snap, Space: sp, Organization: h.urls.FromOrganization(o)}}
	if cr != nil {
		w := h.urls.FromChangeRequest(*cr)
		rd.loc.Context = &wire.VersionContext{Type: "changeRequest", ChangeRequest: &w}
	}
	return rd, nil
}

// base returns the revision a change request started from (its merge base), whose links
// tell which of the change request's broken links it broke. Reading the change request
// checked access; the base may have been made in the space this one was duplicated from.
func (h *linkHandlers) base(r *http.Request, rd linkRead) (*content.Snapshot, error) {
	return h.Content.Snapshot(r.Context(), rd.cr.MergeBase())
}

func (h *linkHandlers) spaceLinks(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	status, err := queryEnum(r, "status", "", linkcheck.Statuses...)
	if err != nil {
		return err
	}
	brokenContext := "space"
	if r.PathValue("changeRequestId") != "" {
		if brokenContext, err = queryEnum(r, "brokenContext", "space", "change-request", "space"); err != nil {
			return err
		}
	}
	rd, err := h.read(r, c)
	if err != nil {
		return err
	}
	ix, err := h.links.Index(r.Context(), rd.snap)
	if err != nil {
		return err
	}
	var base []linkcheck.Usage
	if rd.cr != nil {
		snap, err := h.base(r, rd)
		if err != nil {
			return err
		}
		bix, err := h.links.Index(r.Context(), snap)
		if err != nil {
			return err
		}
		base = bix.Usages
	}
	return h.writeLinks(w, r, rd, ix.Usages, base, status, brokenContext)
}

func (h *linkHandlers) pageLinks(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	status, err := queryEnum(r, "status", "", linkcheck.Statuses...)
	if err != nil {
		return err
	}
	rd, err := h.read(r, c)
	if err != nil {
		return err
	}
	id := r.PathValue("pageId")
	usages, found, err := h.links.PageLinks(r.Context(), rd.snap, id)
	if err != nil {
		return err
	}
	if !found {
		return apperr.NotFoundf("page %s not found in revision %s", id, rd.snap.Revision.ID)
	}
	var base []linkcheck.Usage
	if rd.cr != nil {
		snap, err := h.base(r, rd)
		if err != nil {
			return err
		}
		if base, _, err = h.links.PageLinks(r.Context(), snap, id); err != nil {
			return err
		}
	}
	rd.list += "/page/" + id
	return h.writeLinks(w, r, rd, usages, base, status, "space")
}

// writeLinks answers one page of link-check results. Stats count every target before the
// status filter; on change request reads, stats.broken.changeRequest counts the broken
// targets that were not broken in the revision the change request started from, and
// brokenContext=change-request keeps only those among the broken ones.
func (h *linkHandlers) writeLinks(w http.ResponseWriter, r *http.Request, rd linkRead, usages, base []linkcheck.Usage, status, brokenContext string) error {
	st := linkcheck.Count(usages)
	out := wire.LinkList{Stats: wire.LinkStats{Total: st.Total, Broken: wire.BrokenStats{Total: st.Broken}}}
	var newly map[string]bool
	if rd.cr != nil {
		newly = linkcheck.NewlyBroken(usages, base)
		n := len(newly)
		out.Stats.Broken.ChangeRequest = &n
	}
	var kept []linkcheck.Usage
	for _, u := range usages {
		if status != "" && u.Status != status {
			continue
		}
		if brokenContext == "change-request" && u.Status == linkcheck.Broken && !newly[u.Target.Key()] {
			continue
		}
		kept = append(kept, u)
	}
	list := "links/" + rd.list + "/" + status + "/" + brokenContext
	page, err := h.pageRequest(r, list)
	if err != nil {
		return err
	}
	res := sliceAfter(kept, page)
	out.Count, out.Items = res.Count, make([]wire.LinkUsage, 0, len(res.Items))
	for _, u := range res.Items {
		out.Items = append(out.Items, rd.loc.Usage(u))
	}
	if res.Next != nil {
		out.Next = &wire.Next{Page: h.Cursors.Encode(list, res.Next)}
	}
	return ok(w, out)
}

func (h *linkHandlers) pageBacklinks(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	return h.backlinks(w, r, c, "page", func(ix *linkcheck.Index, snap *content.Snapshot, id string) ([]string, bool) {
		_, found := snap.Tree.Pages[id]
		return ix.PageBacklinks(id), found
	})
}

func (h *linkHandlers) fileBacklinks(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	return h.backlinks(w, r, c, "file", func(ix *linkcheck.Index, snap *content.Snapshot, id string) ([]string, bool) {
		_, found := snap.Tree.Files[id]
		return ix.FileBacklinks(id), found
	})
}

// backlinks answers the pages that link to a page or a file, in the order of the pages.
func (h *linkHandlers) backlinks(w http.ResponseWriter, r *http.Request, c auth.Caller, kind string,
	find func(*linkcheck.Index, *content.Snapshot, string) ([]string, bool)) error {
	rd, err := h.read(r, c)
	if err != nil {
		return err
	}
	id := r.PathValue(kind + "Id")
	ix, err := h.links.Index(r.Context(), rd.snap)
	if err != nil {
		return err
	}
	pages, found := find(ix, rd.snap, id)
	if !found {
		return apperr.NotFoundf("%s %s not found in revision %s", kind, id, rd.snap.Revision.ID)
	}
	list := "backlinks/" + rd.list + "/" + kind + "/" + id
	page, err := h.pageRequest(r, list)
	if err != nil {
		return err
	}
	return writeList(h.Server, w, list, sliceAfter(pages, page), func(p string) wire.ContentLocation { return rd.loc.Page(p, "") })
}

// sliceAfter pages through a list that never changes (the list name of its cursors names
// the revision it comes from), so an offset is a stable cursor.
func sliceAfter[T any](items []T, page paging.Request) paging.Result[T] {
	start := 0
	if len(page.After) == 1 {
		if n, ok := page.After[0].(int64); ok && n >= 0 && n <= int64(len(items)) {
			start = int(n)
		}
	}
	end := min(start+page.Limit, len(items))
	res := paging.Result[T]{Count: len(items), Items: items[start:end]}
	if end < len(items) {
		res.Next = []any{int64(end)}
	}
	return res
}
