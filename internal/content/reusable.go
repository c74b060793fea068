package content

import (
	"context"
	"path"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/contenttree"
	"docsd/internal/markdoc"
)

// Reusable contents live in the revision's page trie beside the pages, under keys
// "rc:<id>" that no page id can take (ids are letters and digits), as page records of kind
// "reusable-content". So they are stored, stored as changes, diffed and cached exactly as
// pages are, with no table or column of their own, and a change to one costs what a change
// to a page costs. Decoding puts them in Tree.ReusableContents, never in Tree.Pages.

const (
	reusablePrefix = "rc:"
	reusableKind   = contenttree.Kind("reusable-content")
)

func reusableKey(id string) string { return reusablePrefix + id }

// reusableID returns the id of a reusable content's trie key; ok is false for a page's key.
func reusableID(key string) (string, bool) { return strings.CutPrefix(key, reusablePrefix) }

// encodeReusable returns the record of a reusable content, its hash and its markdown's hash.
func encodeReusable(r contenttree.ReusableContent) (hash string, body []byte, markdownHash string) {
	return encodePage(contenttree.Page{ID: r.ID, Kind: reusableKind, Title: r.Title, Markdown: r.Markdown, Git: r.Git})
}

func reusableOf(p contenttree.Page) contenttree.ReusableContent {
	return contenttree.ReusableContent{ID: p.ID, Title: p.Title, Markdown: p.Markdown, Git: p.Git}
}

// ReusableContent returns one reusable content of a snapshot, with its markdown; a 404 when
// the revision has none with that id.
func (s *Service) ReusableContent(ctx context.Context, snap *Snapshot, id string) (contenttree.ReusableContent, error) {
	r, ok := snap.Tree.ReusableContents[id]
	if !ok {
		return r, apperr.NotFoundf("reusable content %s not found in revision %s", id, snap.Revision.ID)
	}
	text, err := s.markdownText(ctx, s.store.Read(), snap.markdownHashes[reusableKey(id)])
	if err != nil {
		return r, err
	}
	r.Markdown = text
	return r, nil
}

// ViewReusableContent returns one reusable content of a view with its markdown, reading only
// its record: an edit in a change request must not load the whole revision. found is false
// when the view has none with that id.
func (s *Service) ViewReusableContent(ctx context.Context, v *View, id string) (r contenttree.ReusableContent, found bool, err error) {
	key := reusableKey(id)
	h := v.pageHash(key)
	if h == "" {
		return r, false, nil
	}
	tx := s.store.Read()
	bodies, err := objects(ctx, tx, []string{h})
	if err != nil {
		return r, false, err
	}
	p, md, err := decodePage(bodies[h])
	if err != nil {
		return r, false, err
	}
	r = reusableOf(p)
	if r.Markdown, err = s.markdownText(ctx, tx, md); err != nil {
		return r, false, err
	}
	return r, true, nil
}

// ReusableDocumentID is the id of the document of a reusable content ("" when it has none): the
// hash of its markdown, which names the same text in every revision and space that has it.
func (snap *Snapshot) ReusableDocumentID(id string) string {
	return snap.markdownHashes[reusableKey(id)]
}

// PageDocumentID is the id of a page's document, as ReusableDocumentID; "" when the page is
// empty, as the API leaves an empty page's documentId out.
func (snap *Snapshot) PageDocumentID(pageID string) string {
	if _, reusable := reusableID(pageID); reusable {
		return ""
	}
	if h := snap.markdownHashes[pageID]; h != emptyDocument {
		return h
	}
	return ""
}

// emptyDocument is the id of the empty markdown text.
var emptyDocument = digest(nil)

// ReusableByPath returns the id of the reusable content an include names ("" when none):
// the one whose file, as imported or as its title would be written, has the include's file
// name. Only the name counts, since a page's include is written relative to where the page
// sits, which moves with it.
func (snap *Snapshot) ReusableByPath(includePath string) string {
	snap.includeOnce.Do(func() {
		snap.includeNames = make(map[string]string, len(snap.Tree.ReusableContents))
		for id, r := range snap.Tree.ReusableContents {
			// Two with one name: the smaller id, so the answer never depends on map order.
			if name := ReusableFileName(r); snap.includeNames[name] == "" || id < snap.includeNames[name] {
				snap.includeNames[name] = id
			}
		}
	})
	return snap.includeNames[path.Base(includePath)]
}

// ReusableFileName is the file a reusable content lives in under .gitbook/includes/: the one
// it was imported from, else its title as a slug.
func ReusableFileName(r contenttree.ReusableContent) string {
	if r.Git.Path != "" {
		return path.Base(r.Git.Path)
	}
	slug := markdoc.Slugify(r.Title)
	if slug == "" {
		slug = r.ID
	}
	return slug + ".md"
}

// ExpandIncludes shows the snapshot's reusable contents in place of the includes of md. Only
// the texts the page includes are read (through the markdown cache).
func (s *Service) ExpandIncludes(ctx context.Context, snap *Snapshot, md string) (string, error) {
	if len(snap.Tree.ReusableContents) == 0 || !strings.Contains(md, "include") {
		return md, nil
	}
	var firstErr error
	tx := s.store.Read()
	out := markdoc.ExpandIncludes(md, func(p string) (string, bool) {
		id := snap.ReusableByPath(p)
		if id == "" || firstErr != nil {
			return "", false
		}
		text, err := s.markdownText(ctx, tx, snap.markdownHashes[reusableKey(id)])
		if err != nil {
			firstErr = err
			return "", false
		}
		return text, true
	})
	return out, firstErr
}
