package httpapi

import (
	"net/http"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/blob"
	"docsd/internal/changereq"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/evaluate"
	"docsd/internal/paging"
	"docsd/internal/space"
	"docsd/internal/wire"
)

// Content is read at the space's head (/content...), at one revision (/revisions/{id}...) or
// at a change request's revision (/change-requests/{id}/content...); all go through the same
// handlers, which pick the snapshot with s.snapshotOf.
func (s *Server) contentRoutes() {
	s.handle("GET /v1/spaces/{spaceId}/content", s.getRevision)
	s.handle("GET /v1/spaces/{spaceId}/content/pages", s.getPages)
	s.handle("GET /v1/spaces/{spaceId}/content/page/{pageId}", s.getPage)
	s.handle("GET /v1/spaces/{spaceId}/content/path/{pagePath...}", s.getPageByPath)
	s.handle("GET /v1/spaces/{spaceId}/content/files", s.listFiles)
	s.handle("GET /v1/spaces/{spaceId}/content/files/{fileId}", s.getFile)

	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}", s.getRevision)
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/pages", s.getPages)
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}", s.getPage)
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath...}", s.getPageByPath)
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/files", s.listFiles)
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}", s.getFile)

	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content", s.getRevision)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages", s.getPages)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}", s.getPage)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/path/{pagePath...}", s.getPageByPath)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files", s.listFiles)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}", s.getFile)
	s.handleStream("GET /v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}/download", s.downloadFile)
}

// handleStream registers an authenticated route whose answer must not go through the GET
// answer cache: it streams bytes with their own headers (ETag, ranges, disposition).
func (s *Server) handleStream(pattern string, h handlerFunc) {
	tc := newTextChecker(pattern)
	s.add(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := s.authenticate(r)
		if err == nil {
			err = tc.check(r)
		}
		if err == nil {
			err = h(w, r.WithContext(auth.WithCaller(r.Context(), c)), c)
		}
		if err != nil {
			writeError(w, r, s.log, err)
		}
	}))
}

// snapshotOf loads the content the request names, after checking the flags every content
// read accepts: metadata=false omits the Git metadata an import recorded (see withGit), and
// computed=false skips computed pages, of which docsd has none, so it is validated and
// otherwise changes nothing.
func (s *Server) snapshotOf(r *http.Request, c auth.Caller) (space.View, *content.Snapshot, error) {
	for _, flag := range []string{"metadata", "computed"} {
		if _, err := queryBool(r, flag); err != nil {
			return space.View{}, nil, err
		}
	}
	v, snap, _, err := s.contentAt(r, c)
	return v, snap, err
}

// contentAt loads the revision the path names: the head, a revision, or a change request's
// revision; cr is set in the last case.
func (s *Server) contentAt(r *http.Request, c auth.Caller) (v space.View, snap *content.Snapshot, cr *changereq.View, err error) {
	spaceID := r.PathValue("spaceId")
	if rev := r.PathValue("revisionId"); rev != "" {
		v, snap, err = s.Content.AtRevision(r.Context(), c, spaceID, rev)
		return v, snap, nil, err
	}
	if ref := r.PathValue("changeRequestId"); ref != "" {
		// The change request is the space's, so its revision is readable with the space,
		// even one made in the space this one was duplicated from.
		// One access decision serves both.
		v, got, err := s.ChangeRequests.GetWithSpace(r.Context(), c, spaceID, ref)
		if err != nil {
			return v, nil, nil, err
		}
		snap, err = s.Content.Snapshot(r.Context(), got.Revision)
		return v, snap, &got, err
	}
	v, snap, err = s.Content.Head(r.Context(), c, spaceID)
	return v, snap, nil, err
}

// withGit reports whether the answer shows Git metadata: unless metadata=false (the flag
// was checked by snapshotOf).
func withGit(r *http.Request) bool {
	b, _ := queryBool(r, "metadata")
	return b == nil || *b
}

func (s *Server) getRevision(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, snap, err := s.snapshotOf(r, c)
	if err != nil {
		return err
	}
	out := s.urls.FromRevision(v.ID, snap)
	if !withGit(r) {
		out.DropGit()
	}
	if snap.Revision.Type == content.TypeMerge {
		cr, found, err := s.ChangeRequests.MergedAs(r.Context(), snap.Revision.SpaceID, snap.Revision.ID, v.Revision)
		if err != nil {
			return err
		}
		if found {
			w := s.urls.FromChangeRequest(cr)
			out.MergedFrom = &w
		} else {
			// Before the update type existed, a change request's update from the head was
			// stored as a merge: no change request was merged as it.
			out.Type = content.TypeUpdate
		}
	}
	// Sites serve a space's current revision: that revision has the space's published
	// addresses, and no other revision has any.
	if snap.Revision.ID == v.Revision {
		pubs, err := s.spacesPublished(r.Context(), []string{v.ID}, "")
		if err != nil {
			return err
		}
		out.SetPublished(pubs[v.ID])
	}
	return ok(w, out)
}

func (s *Server) getPages(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, snap, err := s.snapshotOf(r, c)
	if err != nil {
		return err
	}
	pages := s.urls.PageTree(v.ID, snap, "")
	if !withGit(r) {
		wire.DropPagesGit(pages)
	}
	return ok(w, wire.PageList{Pages: pages})
}

func (s *Server) getPage(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, snap, err := s.snapshotOf(r, c)
	if err != nil {
		return err
	}
	id := r.PathValue("pageId")
	p, found := snap.Tree.Pages[id]
	if !found {
		return apperr.NotFoundf("page %s not found in revision %s", id, snap.Revision.ID)
	}
	return s.writePage(w, r, v, snap, p)
}

func (s *Server) getPageByPath(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, snap, err := s.snapshotOf(r, c)
	if err != nil {
		return err
	}
	path := strings.Trim(r.PathValue("pagePath"), "/")
	p, found := snap.Tree.PageByPath(path)
	if !found {
		return apperr.NotFoundf("no page at path %q in revision %s", path, snap.Revision.ID)
	}
	return s.writePage(w, r, v, snap, p)
}

// writePage answers one page with its subtree; a document carries its content in the
// requested format: `document` (the default, as in the GitBook API) is the block tree derived
// from the markdown, which is the source of truth. With `evaluated`, the markdown's
// expressions are replaced by their values first (see package evaluate).
func (s *Server) writePage(w http.ResponseWriter, r *http.Request, v space.View, snap *content.Snapshot, p contenttree.Page) error {
	format, err := queryEnum(r, "format", "document", "document", "markdown")
	if err != nil {
		return err
	}
	mode, err := queryEnum(r, "evaluated", evaluate.None, evaluate.Modes...)
	if err != nil {
		return err
	}
	out := s.urls.FromPage(v.ID, snap, p)
	if !withGit(r) {
		out.DropGit()
	}
	if p.Kind == contenttree.KindDocument {
		text, err := s.Content.Markdown(r.Context(), snap, p.ID)
		if err != nil {
			return err
		}
		text = evaluate.Markdown(text, evaluate.Vars{Space: snap.Tree.Variables, Page: p.Variables}, mode)
		if format == "markdown" {
			out.Markdown = &text
		} else {
			doc, err := s.docs.JSON(documentOptions(snap), text)
			if err != nil {
				return err
			}
			return okWithDocument(w, out, doc)
		}
	}
	return ok(w, out)
}

func (s *Server) listFiles(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, snap, err := s.snapshotOf(r, c)
	if err != nil {
		return err
	}
	list := "files/" + v.ID + "/" + snap.Revision.ID
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	ids := snap.FileIDs()
	res := paging.Result[contenttree.File]{Count: len(ids)}
	start := 0
	if len(page.After) == 1 {
		after, _ := page.After[0].(string)
		for start < len(ids) && ids[start] <= after {
			start++
		}
	}
	for _, id := range ids[start:min(start+page.Limit, len(ids))] {
		res.Items = append(res.Items, snap.Tree.Files[id])
	}
	if n := len(res.Items); n > 0 && start+n < len(ids) {
		res.Next = []any{res.Items[n-1].ID}
	}
	git := withGit(r)
	return writeList(s, w, list, res, func(f contenttree.File) wire.File {
		out := s.urls.FromFile(v.ID, snap.Revision.ID, f)
		if !git {
			out.Git = nil
		}
		return out
	})
}

func (s *Server) getFile(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, snap, err := s.snapshotOf(r, c)
	if err != nil {
		return err
	}
	f, err := fileIn(snap, r.PathValue("fileId"))
	if err != nil {
		return err
	}
	out := s.urls.FromFile(v.ID, snap.Revision.ID, f)
	if !withGit(r) {
		out.Git = nil
	}
	return ok(w, out)
}

// downloadFile streams a file's bytes to a caller who can read the space, with the same
// bearer token as the rest of the API. The URL names a revision, whose files never change,
// so the answer may be cached privately for long.
func (s *Server) downloadFile(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	_, snap, err := s.snapshotOf(r, c)
	if err != nil {
		return err
	}
	f, err := fileIn(snap, r.PathValue("fileId"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	w.Header().Set("Content-Disposition", `attachment; filename="`+strings.NewReplacer(`"`, "", `\`, "", "\r", "", "\n", "").Replace(f.Name)+`"`)
	return blob.Serve(w, r, s.Blobs, f.Hash, f.ContentType)
}

func fileIn(snap *content.Snapshot, id string) (contenttree.File, error) {
	f, found := snap.Tree.Files[id]
	if !found {
		return f, apperr.NotFoundf("file %s not found in revision %s", id, snap.Revision.ID)
	}
	return f, nil
}
