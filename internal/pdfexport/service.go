package pdfexport

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/blob"
	"docsd/internal/changereq"
	"docsd/internal/clock"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/gitbookimport"
	"docsd/internal/pdfrender"
)

// PageIDMax bounds the `page` query value.
const PageIDMax = 100

// imageMax is the largest image drawn; a larger one shows its alt text.
const imageMax = 20 << 20

// Service issues PDF links for change requests and draws the PDFs they name.
type Service struct {
	content  *content.Service
	crs      *changereq.Service
	blobs    blob.Store
	signer   signer
	clock    clock.Clock
	maxPages int
	rendered renderedCache
}

// NewService returns the service. key signs links; a PDF holds at most maxPages pages.
func NewService(cs *content.Service, crs *changereq.Service, blobs blob.Store, key []byte, clk clock.Clock, maxPages int) *Service {
	return &Service{content: cs, crs: crs, blobs: blobs, signer: signer{key: key}, clock: clk, maxPages: maxPages}
}

// Request says what to print: every page (Page ""), one page with its subpages, or (Only)
// one page alone.
type Request struct {
	Page string
	Only bool
}

// Link checks that the caller can see the change request (404 otherwise) and that the
// request names a page of it (400 otherwise), and returns a token for its current revision.
func (s *Service) Link(ctx context.Context, c auth.Caller, spaceID, crRef string, req Request) (string, error) {
	if err := checkRequest(req); err != nil {
		return "", err
	}
	cr, err := s.crs.Get(ctx, c, spaceID, crRef)
	if err != nil {
		return "", err
	}
	snap, err := s.content.RevisionByID(ctx, cr.Revision)
	if err != nil {
		return "", err
	}
	title := cr.Subject
	if title == "" {
		title = fmt.Sprintf("Change request #%d", cr.Number)
	}
	return s.link(spaceID, snap, title, req)
}

// SpaceLink is Link for the space's current revision (getSpacePDF): the caller must be able to
// read the space (404 otherwise); the document is titled with the space's title.
func (s *Service) SpaceLink(ctx context.Context, c auth.Caller, spaceID string, req Request) (string, error) {
	if err := checkRequest(req); err != nil {
		return "", err
	}
	v, snap, err := s.content.Head(ctx, c, spaceID)
	if err != nil {
		return "", err
	}
	title := v.Title
	if title == "" {
		title = "Untitled space"
	}
	return s.link(spaceID, snap, title, req)
}

func checkRequest(req Request) error {
	switch {
	case req.Only && req.Page == "":
		return apperr.Invalidf("page: is required when only is true (only prints that one page)")
	case len(req.Page) > PageIDMax:
		return apperr.Invalidf("page: must be at most %d characters", PageIDMax)
	}
	return nil
}

// link signs a ticket for one revision once the selection is known to fit the page limit.
func (s *Service) link(spaceID string, snap *content.Snapshot, title string, req Request) (string, error) {
	pages, err := selectPages(snap.Tree, req)
	if err != nil {
		return "", err
	}
	if len(pages) > s.maxPages {
		return "", apperr.Invalidf("page: the PDF would hold %d pages, more than the limit of %d; choose a page to print it with its subpages", len(pages), s.maxPages)
	}
	return s.signer.sign(Ticket{Space: spaceID, Revision: snap.Revision.ID, Page: req.Page, Only: req.Only,
		Title: title, Expires: s.clock.Now().Add(LinkLifetime).Unix()}), nil
}

// Render checks a token (403 when it is forged, altered or expired) and writes its PDF to w.
func (s *Service) Render(ctx context.Context, token string, w io.Writer) error {
	t, err := s.signer.open(token, s.clock.Now())
	if err != nil {
		return err
	}
	key := renderedKey(t)
	if b, ok := s.rendered.get(key); ok {
		_, err := w.Write(b)
		return err
	}
	snap, err := s.content.RevisionByID(ctx, t.Revision)
	if err != nil {
		return err
	}
	pages, err := selectPages(snap.Tree, Request{Page: t.Page, Only: t.Only})
	if err != nil {
		return err
	}
	ids := make([]string, len(pages))
	for i, p := range pages {
		ids[i] = p.ID
	}
	texts, err := s.content.Markdowns(ctx, snap, ids)
	if err != nil {
		return err
	}
	doc := pdfrender.Document{Title: t.Title, Pages: make([]pdfrender.Page, len(pages))}
	for i, p := range pages {
		var location string
		if spacePath, ok := snap.Paths[p.ID]; ok {
			location = gitbookimport.SpaceLocation(spacePath, len(snap.Children(p.ID)) > 0)
		}
		md, err := s.content.ExpandIncludes(ctx, snap, texts[p.ID])
		if err != nil {
			return err
		}
		doc.Pages[i] = pdfrender.Page{Title: p.Title, Markdown: md, Path: location, Depth: p.depth}
	}
	var buf bytes.Buffer
	if err := pdfrender.Render(&buf, doc, pdfrender.Options{Images: s.images(ctx, snap.Tree), Date: s.clock.Now()}); err != nil {
		return err
	}
	s.rendered.put(key, buf.Bytes())
	_, err = w.Write(buf.Bytes())
	return err
}

// selected is a page chosen for the PDF, with its depth below the selection's top.
type selected struct {
	contenttree.Page
	depth int
}

// selectPages lists the pages to print in reading order. Links have no content and are left
// out (with their subpages, which links cannot have).
func selectPages(tree *contenttree.Tree, req Request) ([]selected, error) {
	if req.Page != "" {
		p, ok := tree.Pages[req.Page]
		if !ok {
			return nil, apperr.Invalidf("page: no page %s in this content", req.Page)
		}
		if p.Kind == contenttree.KindLink {
			return nil, apperr.Invalidf("page: %s is a link, which has no content to print", req.Page)
		}
		if req.Only {
			return []selected{{Page: p}}, nil
		}
	}
	var out []selected
	inside, top := req.Page == "", 0
	tree.Walk(func(p contenttree.Page, depth int) bool {
		if p.Kind == contenttree.KindLink {
			return false
		}
		switch {
		case p.ID == req.Page:
			inside, top = true, depth
		case req.Page != "" && inside && depth <= top:
			inside = false // the walk has left the chosen page's subtree
		}
		if !inside {
			return req.Page != ""
		}
		out = append(out, selected{Page: p, depth: depth - top})
		return true
	})
	return out, nil
}

// images resolves image sources the way imported pages write them: relative to the page's
// location, to ".gitbook/assets/<file name>".
func (s *Service) images(ctx context.Context, tree *contenttree.Tree) pdfrender.ImageResolver {
	byName := map[string]contenttree.File{}
	for _, f := range tree.Files {
		byName[f.Name] = f
	}
	return func(page pdfrender.Page, src string) ([]byte, error) {
		if strings.Contains(src, "://") || page.Path == "" {
			return nil, nil
		}
		name, ok := strings.CutPrefix(path.Join(path.Dir(page.Path), src), ".gitbook/assets/")
		f, found := byName[name]
		if !ok || !found || f.Size > imageMax {
			return nil, nil
		}
		obj, err := s.blobs.Open(ctx, f.Hash)
		if err != nil {
			return nil, err
		}
		defer obj.Close()
		return io.ReadAll(io.LimitReader(obj, imageMax))
	}
}
