package content

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"time"
	"unicode/utf8"

	"docsd/internal/apperr"
	"docsd/internal/contenttree"
	"docsd/internal/ids"
)

// Changes turn a base revision into a new one. Upserted pages and files replace those with
// the same id, whole; a nil variable value removes the variable.
type Changes struct {
	UpsertPages []contenttree.Page
	RemovePages []string
	UpsertFiles []contenttree.File
	RemoveFiles []string
	Variables   map[string]json.RawMessage
	// Reusable contents upserted whole, and removed, by id.
	UpsertReusable []contenttree.ReusableContent
	RemoveReusable []string
}

// Meta describes the revision a commit makes.
type Meta struct {
	SpaceID  string
	Type     string // TypeEdits when empty
	AuthorID string
	Parents  []string   // the base revision when nil
	Git      *GitCommit // the commit an import read, if any
	// Working marks a change request's working revision, which never becomes a head as it
	// is: it is stored as its changes over the base while the chain allows (see stored.go).
	Working bool
}

// Stats count what a commit wrote, for measuring that writes follow the size of a change.
type Stats struct {
	Objects int   // records, markdown texts and trie nodes the commit made (some may be stored already)
	Bytes   int64 // bytes actually written: those of the ones that were not stored yet
}

// Commit writes, within tx, a revision made of base plus changes, and returns it. It does not
// move any head (see MoveHead). The result must be a valid tree (contenttree.Tree.Validate),
// or Commit fails with a 400 naming the problems and writes nothing that anything points to.
func (s *Service) Commit(ctx context.Context, tx Tx, baseID string, ch Changes, m Meta, now time.Time) (Revision, Stats, error) {
	base, err := s.view(ctx, tx, baseID)
	if err != nil {
		return Revision{}, Stats{}, err
	}
	if base.depth >= maxChain {
		snap := base.derive()
		s.snapshots.put(baseID, snap)
		s.pending.remove(baseID)
		base = &View{snap: snap}
	}
	variables := maps.Clone(base.variables())
	if variables == nil {
		variables = map[string]json.RawMessage{}
	}
	for k, v := range ch.Variables {
		if v == nil {
			delete(variables, k)
		} else {
			variables[k] = v
		}
	}
	for _, p := range ch.UpsertPages {
		// Markdown is stored as text, which PostgreSQL refuses with NUL or invalid UTF-8 in it.
		if !utf8.ValidString(p.Markdown) || strings.ContainsRune(p.Markdown, 0) {
			return Revision{}, Stats{}, apperr.Invalidf("markdown: page %s (%q) must be UTF-8 text without NUL characters", p.ID, p.Title)
		}
	}
	for _, r := range ch.UpsertReusable {
		if !utf8.ValidString(r.Markdown) || strings.ContainsRune(r.Markdown, 0) {
			return Revision{}, Stats{}, apperr.Invalidf("markdown: reusable content %s (%q) must be UTF-8 text without NUL characters", r.ID, r.Title)
		}
	}
	// Only the pages a change can affect are checked, on a tree of just those pages: copying
	// the whole tree would make every commit cost the size of the space.
	changed := changedPages(ch)
	near, children := neighbourhood(base, ch, changed)
	if problems := near.CheckPages(changed, func(id string) []string { return children[id] }); len(problems) > 0 {
		return Revision{}, Stats{}, invalidTree(&contenttree.InvalidError{Problems: problems})
	}

	objects := map[string]Object{}
	texts := map[string]string{}
	pageChanges := map[string]string{}
	markdownHashes := map[string]string{}
	for _, id := range ch.RemovePages {
		pageChanges[id], markdownHashes[id] = "", ""
	}
	for _, p := range ch.UpsertPages {
		h, body, md := encodePage(p)
		pageChanges[p.ID] = h
		markdownHashes[p.ID] = md
		if base.pageHash(p.ID) != h {
			objects[h] = Object{Kind: KindPage, Body: body}
			texts[md] = p.Markdown
		}
	}
	for _, id := range ch.RemoveReusable {
		pageChanges[reusableKey(id)], markdownHashes[reusableKey(id)] = "", ""
	}
	for _, r := range ch.UpsertReusable {
		key := reusableKey(r.ID)
		h, body, md := encodeReusable(r)
		pageChanges[key] = h
		markdownHashes[key] = md
		if base.pageHash(key) != h {
			objects[h] = Object{Kind: KindPage, Body: body}
			texts[md] = r.Markdown
		}
	}
	fileChanges := map[string]string{}
	for _, id := range ch.RemoveFiles {
		fileChanges[id] = ""
	}
	for _, f := range ch.UpsertFiles {
		h, body := encodeFile(f)
		fileChanges[f.ID] = h
		if base.fileHash(f.ID) != h {
			objects[h] = Object{Kind: KindFile, Body: body}
		}
	}
	baseRev := base.Revision()
	asChanges := m.Working && baseRev.Depth < maxStoredDepth
	var pagesRoot, filesRoot string
	if !asChanges {
		// Stored whole: the changes go into the tries under the base, after those of the
		// base's own chain when it is stored as changes.
		under, err := resolve(ctx, tx, baseRev)
		if err != nil {
			return Revision{}, Stats{}, err
		}
		w := newTrieWriter(s.nodes(tx))
		if pagesRoot, err = w.apply(ctx, under.pagesRoot, 0, overlay(under.pages, pageChanges)); err != nil {
			return Revision{}, Stats{}, err
		}
		if filesRoot, err = w.apply(ctx, under.filesRoot, 0, overlay(under.files, fileChanges)); err != nil {
			return Revision{}, Stats{}, err
		}
		for h, b := range w.created {
			objects[h] = Object{Kind: KindNode, Body: b}
		}
	}

	var st Stats
	n, err := tx.PutMarkdown(ctx, texts)
	if err != nil {
		return Revision{}, st, err
	}
	st.Bytes += n
	n, err = tx.PutObjects(ctx, objects)
	if err != nil {
		return Revision{}, st, err
	}
	st.Bytes += n
	st.Objects = len(objects) + len(texts)

	rev := Revision{ID: ids.New(), SpaceID: m.SpaceID, Parents: m.Parents, Type: m.Type, PagesRoot: pagesRoot,
		FilesRoot: filesRoot, Variables: variables, AuthorID: m.AuthorID, CreatedAt: now, Git: m.Git}
	if asChanges {
		rev.Base, rev.Depth = baseID, baseRev.Depth+1
		rev.PageChanges = effective(pageChanges, base.pageHash)
		rev.FileChanges = effective(fileChanges, base.fileHash)
	}
	if rev.Parents == nil {
		rev.Parents = []string{baseID}
	}
	if rev.Type == "" {
		rev.Type = TypeEdits
	}
	if err := tx.InsertRevision(ctx, rev); err != nil {
		return Revision{}, st, err
	}
	// The documents the commit brought in stay readable by id as in this revision
	// (DocumentByID), whatever later revisions do with them.
	if err := tx.RecordDocuments(ctx, m.SpaceID, rev.ID, texts); err != nil {
		return Revision{}, st, err
	}
	// The new revision is kept as its changes over the base (see View) and derived into a
	// snapshot when something first reads it whole: a change request's revision often never
	// is (a merge takes its delta), and deriving copies maps the size of the space. If tx
	// rolls back, the revision id is never handed out, so the entry is merely unused.
	s.pending.put(rev.ID, newPending(rev, baseID, ch, changed, children, pageChanges, fileChanges, markdownHashes))
	return rev, st, nil
}

// overlay returns under with changes applied over it (changes win), without changing either.
func overlay(under, changes map[string]string) map[string]string {
	if len(under) == 0 {
		return changes
	}
	out := maps.Clone(under)
	maps.Copy(out, changes)
	return out
}

// effective keeps the changes that change something: an upsert of the record the base
// already has is left out of what is stored.
func effective(changes map[string]string, inBase func(id string) string) map[string]string {
	out := make(map[string]string, len(changes))
	for id, h := range changes {
		if inBase(id) != h {
			out[id] = h
		}
	}
	return out
}

// ChangesTo lists the changes that turn snap's content into next, page by page: pages and
// files whose records are equal are left out, so a commit of them writes only what differs.
func ChangesTo(snap *Snapshot, next *contenttree.Tree) Changes {
	var ch Changes
	for key := range snap.pageHashes {
		if id, ok := reusableID(key); ok {
			if _, ok := next.ReusableContents[id]; !ok {
				ch.RemoveReusable = append(ch.RemoveReusable, id)
			}
		} else if _, ok := next.Pages[key]; !ok {
			ch.RemovePages = append(ch.RemovePages, key)
		}
	}
	for id, r := range next.ReusableContents {
		if h, _, _ := encodeReusable(r); snap.pageHashes[reusableKey(id)] != h {
			ch.UpsertReusable = append(ch.UpsertReusable, r)
		}
	}
	for id, p := range next.Pages {
		if h, _, _ := encodePage(p); snap.pageHashes[id] != h {
			ch.UpsertPages = append(ch.UpsertPages, p)
		}
	}
	for id := range snap.fileHashes {
		if _, ok := next.Files[id]; !ok {
			ch.RemoveFiles = append(ch.RemoveFiles, id)
		}
	}
	for id, f := range next.Files {
		if h, _ := encodeFile(f); snap.fileHashes[id] != h {
			ch.UpsertFiles = append(ch.UpsertFiles, f)
		}
	}
	ch.Variables = map[string]json.RawMessage{}
	for k := range snap.Tree.Variables {
		if _, ok := next.Variables[k]; !ok {
			ch.Variables[k] = nil
		}
	}
	for k, v := range next.Variables {
		ch.Variables[k] = v
	}
	return ch
}

// MoveHead moves the space's head from from to to within tx. When someone else moved it
// first, nothing is written and the answer is a 409: the caller's change was made against
// content that is no longer current.
func MoveHead(ctx context.Context, tx Tx, spaceID, from, to string) error {
	ok, err := tx.MoveHead(ctx, spaceID, from, to)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.Conflictf("space %s: its content changed while this change was made (head is no longer %s); retry", spaceID, from)
	}
	return nil
}

// invalidTree turns a tree's problems into a 400 that lists them.
func invalidTree(err error) error {
	inv, ok := err.(*contenttree.InvalidError)
	if !ok {
		return err
	}
	var parts []string
	for i, p := range inv.Problems {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(inv.Problems)-10))
			break
		}
		parts = append(parts, p.String())
	}
	return apperr.Invalidf("content: %s", strings.Join(parts, "; "))
}
