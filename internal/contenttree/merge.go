package contenttree

import (
	"encoding/json"
	"maps"
	"slices"
	"time"

	"docsd/internal/textmerge"
)

// Merge combines ours and theirs, two trees derived from base, matching pages and files by id.
//
// What one side changed and the other left alone is taken: a page or file added, a page deleted
// (with its subtree), moved, renamed or otherwise edited, a variable set or removed. The same change
// on both sides is taken once. Fields merge one by one, so one side may retitle a page while the
// other moves it; a page's markdown edited on both sides merges line by line (textmerge). A
// page's creation and edit times never conflict (see mergeTimes).
//
// The rest are conflicts, and Merge then returns a nil tree and every conflict it found, in a stable
// order (pages by id, then the tree's structure, files by id, space variables by name):
//   - a field (a page's position, title, slug, ..., one variable) changed to different values;
//   - markdown changed on the same or touching lines;
//   - a page, file or variable deleted on one side and changed on the other;
//   - a page added or moved under a page the other side deleted;
//   - moves that together make a cycle;
//   - two pages given the same slug under one parent;
//   - any other combination that leaves an invalid tree (see Tree.Check).
//
// Structural conflicts are looked for only among pages that merged cleanly: a page already in
// conflict is not reported again for where it would have ended up. Without conflicts, the result is
// a valid tree whenever the three inputs are. Nil trees count as empty.
func Merge(base, ours, theirs *Tree) (*Tree, []Conflict) {
	m := &merger{
		base: orEmpty(base), ours: orEmpty(ours), theirs: orEmpty(theirs),
		result: New(), conflicted: map[string]bool{},
	}
	m.mergePages()
	m.checkStructure()
	m.mergeFiles()
	m.mergeReusableContents()
	m.result.Variables = m.mergeValues(m.base.Variables, m.ours.Variables, m.theirs.Variables,
		func(name string, deletedBy Side) {
			m.add(valueConflict(Conflict{Variable: name}, deletedBy))
		})
	if m.result.Variables == nil {
		m.result.Variables = map[string]json.RawMessage{}
	}
	if len(m.conflicts) > 0 {
		return nil, m.conflicts
	}
	return m.result, nil
}

type merger struct {
	base, ours, theirs *Tree
	result             *Tree
	conflicts          []Conflict
	conflicted         map[string]bool // pages with a conflict about themselves
}

func (m *merger) add(c Conflict) {
	if len(c.PageIDs) == 1 {
		m.conflicted[c.PageIDs[0]] = true
	}
	m.conflicts = append(m.conflicts, c)
}

func (m *merger) mergePages() {
	for _, id := range unionKeys(m.base.Pages, m.ours.Pages, m.theirs.Pages) {
		b, inBase := m.base.Pages[id]
		o, inOurs := m.ours.Pages[id]
		t, inTheirs := m.theirs.Pages[id]
		switch {
		case inOurs && inTheirs:
			if !inBase {
				b = Page{ID: id} // added on both sides: every field set is a change
			}
			m.result.Pages[id] = m.mergePage(&b, &o, &t)
		case inOurs:
			m.oneSidePage(id, b, inBase, o, Theirs)
		case inTheirs:
			m.oneSidePage(id, b, inBase, t, Ours)
		}
	}
}

// oneSidePage settles a page that only one side has: added there, or deleted by the other side.
// A page in conflict stays in the result, so that the structure checks see it where the side that
// kept it put it.
func (m *merger) oneSidePage(id string, b Page, inBase bool, kept Page, deletedBy Side) {
	kept.Variables = maps.Clone(kept.Variables)
	switch {
	case !inBase:
		m.result.Pages[id] = kept
	case len(pageDiff(&b, &kept)) > 0:
		m.add(Conflict{Kind: ConflictDeleteEdit, PageIDs: []string{id}, DeletedBy: deletedBy})
		m.result.Pages[id] = kept
	}
}

// mergePage merges a page both sides kept. Where both sides changed something differently, the
// result keeps our version of it.
func (m *merger) mergePage(b, o, t *Page) Page {
	r := *b
	fieldConflict := func(field string) {
		m.add(Conflict{Kind: ConflictField, PageIDs: []string{b.ID}, Field: field})
	}

	oursMoved := o.ParentID != b.ParentID || o.Order != b.Order
	theirsMoved := t.ParentID != b.ParentID || t.Order != b.Order
	switch {
	case oursMoved && theirsMoved && o.ParentID != t.ParentID:
		fieldConflict(FieldParent)
		r.ParentID, r.Order = o.ParentID, o.Order
	case oursMoved && theirsMoved && o.Order != t.Order:
		fieldConflict(FieldOrder)
		r.ParentID, r.Order = o.ParentID, o.Order
	case oursMoved:
		r.ParentID, r.Order = o.ParentID, o.Order
	case theirsMoved:
		r.ParentID, r.Order = t.ParentID, t.Order
	}

	for _, f := range valueFields {
		oursChanged, theirsChanged := !f.equal(b, o), !f.equal(b, t)
		switch {
		case oursChanged && theirsChanged && !f.equal(o, t):
			fieldConflict(f.name)
			f.copy(&r, o)
		case oursChanged:
			f.copy(&r, o)
		case theirsChanged:
			f.copy(&r, t)
		}
	}

	r.Variables = m.mergeValues(b.Variables, o.Variables, t.Variables, func(name string, deletedBy Side) {
		m.add(valueConflict(Conflict{PageIDs: []string{b.ID}, Variable: name}, deletedBy))
	})

	merged, textConflicts := textmerge.Merge(b.Markdown, o.Markdown, t.Markdown)
	if len(textConflicts) > 0 {
		m.add(Conflict{Kind: ConflictMarkdown, PageIDs: []string{b.ID}, Field: FieldMarkdown, Text: textConflicts})
		merged = o.Markdown
	}
	r.Markdown = merged
	r.CreatedAt, r.UpdatedAt = mergeTimes(b, o, t)
	// The Git blob a page was last imported from follows the side that re-imported it (ours
	// when both did): it is metadata of that import, never a conflict.
	switch {
	case o.Git != b.Git:
		r.Git = o.Git
	case t.Git != b.Git:
		r.Git = t.Git
	}
	return r
}

// mergeTimes gives a page both sides kept its first creation and its last edit: the earliest
// creation time any version has, and the latest edit time. Times only grow along a history,
// so this is the version a side changed, or the later of two edits.
func mergeTimes(pages ...*Page) (created, updated time.Time) {
	for _, p := range pages {
		if !p.CreatedAt.IsZero() && (created.IsZero() || p.CreatedAt.Before(created)) {
			created = p.CreatedAt
		}
		if p.UpdatedAt.After(updated) {
			updated = p.UpdatedAt
		}
	}
	return created, updated
}

// valueConflict completes a conflict over one variable: a delete-edit when one side removed it.
func valueConflict(c Conflict, deletedBy Side) Conflict {
	c.Kind, c.DeletedBy = ConflictField, deletedBy
	if deletedBy != "" {
		c.Kind = ConflictDeleteEdit
	}
	if len(c.PageIDs) > 0 {
		c.Field = FieldVariables
	}
	return c
}

// mergeValues merges maps of variables key by key; an absent key is a value like any other, so
// setting a key on one side and removing it on the other conflicts (onConflict is told which side
// removed it; "" when both set it, differently).
func (m *merger) mergeValues(base, ours, theirs map[string]json.RawMessage, onConflict func(name string, deletedBy Side)) map[string]json.RawMessage {
	switch {
	case valuesEqual(base, ours):
		return maps.Clone(theirs)
	case valuesEqual(base, theirs):
		return maps.Clone(ours)
	}
	merged := map[string]json.RawMessage{}
	for _, k := range unionKeys(base, ours, theirs) {
		b, inBase := base[k]
		o, inOurs := ours[k]
		t, inTheirs := theirs[k]
		oursChanged := inOurs != inBase || inOurs && !jsonEqual(b, o)
		theirsChanged := inTheirs != inBase || inTheirs && !jsonEqual(b, t)
		same := inOurs == inTheirs && (!inOurs || jsonEqual(o, t))
		switch {
		case oursChanged && theirsChanged && !same:
			var deletedBy Side
			if !inOurs {
				deletedBy = Ours
			} else if !inTheirs {
				deletedBy = Theirs
			}
			onConflict(k, deletedBy)
			if inOurs {
				merged[k] = o
			}
		case oursChanged:
			if inOurs {
				merged[k] = o
			}
		case theirsChanged:
			if inTheirs {
				merged[k] = t
			}
		case inBase:
			merged[k] = b
		}
	}
	return merged
}

// checkStructure reports what the page merges, each fine on its own, break together.
func (m *merger) checkStructure() {
	for _, p := range m.result.Check() {
		if slices.ContainsFunc(p.PageIDs, func(id string) bool { return m.conflicted[id] }) {
			continue
		}
		c := Conflict{PageIDs: p.PageIDs, FileID: p.FileID, Detail: p.Detail}
		switch p.Kind {
		case ProblemMissingParent:
			c.Kind = ConflictStructure
			parent := p.PageIDs[1]
			if _, inBase := m.base.Pages[parent]; inBase {
				c.Kind, c.DeletedBy = ConflictParentDeleted, Theirs
				if _, inOurs := m.ours.Pages[parent]; !inOurs {
					c.DeletedBy = Ours
				}
			}
		case ProblemCycle:
			c.Kind = ConflictCycle
		case ProblemDuplicateSlug:
			c.Kind = ConflictDuplicateSlug
		default:
			c.Kind = ConflictStructure
		}
		m.conflicts = append(m.conflicts, c)
	}
}

// fileFields are the fields of a file that merge as single values; a file's bytes (hash and size)
// are one value.
var fileFields = []struct {
	name  string
	equal func(a, b *File) bool
	copy  func(dst, src *File)
}{
	{FieldName, func(a, b *File) bool { return a.Name == b.Name }, func(d, s *File) { d.Name = s.Name }},
	{FieldContentType, func(a, b *File) bool { return a.ContentType == b.ContentType },
		func(d, s *File) { d.ContentType = s.ContentType }},
	{FieldContent, func(a, b *File) bool { return a.Hash == b.Hash && a.Size == b.Size },
		func(d, s *File) { d.Hash, d.Size = s.Hash, s.Size }},
}

func (m *merger) mergeFiles() {
	for _, id := range unionKeys(m.base.Files, m.ours.Files, m.theirs.Files) {
		b, inBase := m.base.Files[id]
		o, inOurs := m.ours.Files[id]
		t, inTheirs := m.theirs.Files[id]
		switch {
		case inOurs && inTheirs:
			if !inBase {
				b = File{ID: id}
			}
			r := b
			for _, f := range fileFields {
				oursChanged, theirsChanged := !f.equal(&b, &o), !f.equal(&b, &t)
				switch {
				case oursChanged && theirsChanged && !f.equal(&o, &t):
					m.add(Conflict{Kind: ConflictField, FileID: id, Field: f.name})
				case oursChanged:
					f.copy(&r, &o)
				case theirsChanged:
					f.copy(&r, &t)
				}
			}
			m.result.Files[id] = r
		case inOurs:
			m.oneSideFile(id, b, inBase, o, Theirs)
		case inTheirs:
			m.oneSideFile(id, b, inBase, t, Ours)
		}
	}
}

func (m *merger) oneSideFile(id string, b File, inBase bool, kept File, deletedBy Side) {
	switch {
	case !inBase:
		m.result.Files[id] = kept
	case b != kept:
		m.add(Conflict{Kind: ConflictDeleteEdit, FileID: id, DeletedBy: deletedBy})
	}
}

// mergeReusableContents merges reusable contents as pages merge their own fields: the title
// taken from the side that changed it, the markdown line by line; deleted on one side and
// changed on the other, or changed differently on both, is a conflict naming it.
func (m *merger) mergeReusableContents() {
	for _, id := range unionKeys(m.base.ReusableContents, m.ours.ReusableContents, m.theirs.ReusableContents) {
		b, inBase := m.base.ReusableContents[id]
		o, inOurs := m.ours.ReusableContents[id]
		t, inTheirs := m.theirs.ReusableContents[id]
		switch {
		case inOurs && inTheirs:
			if !inBase {
				b = ReusableContent{ID: id}
			}
			r := b
			switch {
			case o.Title != b.Title && t.Title != b.Title && o.Title != t.Title:
				m.add(Conflict{Kind: ConflictField, ReusableContentID: id, Field: FieldTitle})
			case o.Title != b.Title:
				r.Title = o.Title
			case t.Title != b.Title:
				r.Title = t.Title
			}
			merged, textConflicts := textmerge.Merge(b.Markdown, o.Markdown, t.Markdown)
			if len(textConflicts) > 0 {
				m.add(Conflict{Kind: ConflictMarkdown, ReusableContentID: id, Field: FieldMarkdown, Text: textConflicts})
			}
			r.Markdown = merged
			switch {
			case o.Git != b.Git:
				r.Git = o.Git
			case t.Git != b.Git:
				r.Git = t.Git
			}
			m.result.ReusableContents[id] = r
		case inOurs:
			m.oneSideReusable(id, b, inBase, o, Theirs)
		case inTheirs:
			m.oneSideReusable(id, b, inBase, t, Ours)
		}
	}
}

func (m *merger) oneSideReusable(id string, b ReusableContent, inBase bool, kept ReusableContent, deletedBy Side) {
	switch {
	case !inBase:
		m.result.ReusableContents[id] = kept
	case b != kept:
		m.add(Conflict{Kind: ConflictDeleteEdit, ReusableContentID: id, DeletedBy: deletedBy})
	}
}
