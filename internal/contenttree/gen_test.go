package contenttree

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// choices draws numbers from fuzzer input; once it runs out, every answer is 0.
type choices struct{ data []byte }

func (c *choices) next(n int) int {
	if len(c.data) == 0 || n <= 1 {
		return 0
	}
	b := c.data[0]
	c.data = c.data[1:]
	return int(b) % n
}

func pick[T any](c *choices, options []T) T { return options[c.next(len(options))] }

// Small pools of values make both sides pick the same ones often: same ids added, same slugs,
// same order keys, same lines. That is where merges have decisions to make.
var (
	genSlugs   = []string{"a", "b", "c"}
	genOrders  = []string{"1", "2", "V", "V"}
	genTitles  = []string{"One", "Two", "Three"}
	genLines   = []string{"# Title\n", "text\n", "\n", "- item\n", "more\n"}
	genEmoji   = []string{"", "🚀", "📦"}
	genLayouts = []json.RawMessage{nil, json.RawMessage(`{"width":"wide"}`), json.RawMessage(`{"width":"default"}`)}
	genValues  = []json.RawMessage{json.RawMessage(`1`), json.RawMessage(`"x"`), json.RawMessage(`true`)}
	genNames   = []string{"v0", "v1", "v2"}
)

// genTree makes a valid tree.
func genTree(c *choices) *Tree {
	t := New()
	for range c.next(9) {
		genAddPage(c, t)
	}
	for range c.next(3) {
		genChangeFile(c, t)
	}
	for range c.next(3) {
		genChangeValue(c, t.Variables)
	}
	return t
}

// genEdit derives a valid tree from base by a few operations of every kind.
func genEdit(c *choices, base *Tree) *Tree {
	t := base.Clone()
	for range c.next(7) {
		switch c.next(10) {
		case 0:
			genAddPage(c, t)
		case 1:
			if id, ok := genPickPage(c, t); ok {
				removeSubtree(t, id)
			}
		case 2:
			genMovePage(c, t)
		case 3:
			genRenamePage(c, t)
		case 4:
			genEditMetadata(c, t)
		case 5:
			if id, ok := genPickPage(c, t); ok && t.Pages[id].Kind == KindDocument {
				setPage(t, id, func(p *Page) { p.Markdown = genEditText(c, p.Markdown) })
			}
		case 6:
			if id, ok := genPickPage(c, t); ok {
				setPage(t, id, func(p *Page) {
					if p.Variables == nil {
						p.Variables = map[string]json.RawMessage{}
					}
					genChangeValue(c, p.Variables)
				})
			}
		case 7:
			genChangeFile(c, t)
		case 8:
			genChangeValue(c, t.Variables)
		case 9:
			genChangeKind(c, t)
		}
	}
	return t
}

func genPickPage(c *choices, t *Tree) (string, bool) {
	ids := slices.Sorted(maps.Keys(t.Pages))
	if len(ids) == 0 {
		return "", false
	}
	return pick(c, ids), true
}

// genParents lists where a page of this kind may go without breaking the tree: the top level, or
// (for documents and links) under a document or group that is not the page itself or below it.
func genParents(t *Tree, kind Kind, id string) []string {
	parents := []string{""}
	if kind == KindGroup {
		return parents
	}
	for _, pid := range slices.Sorted(maps.Keys(t.Pages)) {
		if p := t.Pages[pid]; p.Kind != KindLink && !genIsWithin(t, pid, id) {
			parents = append(parents, pid)
		}
	}
	return parents
}

// genIsWithin reports whether page id is root or below it.
func genIsWithin(t *Tree, id, root string) bool {
	for id != "" {
		if id == root {
			return true
		}
		id = t.Pages[id].ParentID
	}
	return false
}

// genSlugFree reports whether slug is unused among the pages under parent, other than self.
func genSlugFree(t *Tree, parent, slug, self string) bool {
	for _, p := range t.Pages {
		if p.ID != self && p.ParentID == parent && p.Kind != KindLink && p.Slug == slug {
			return false
		}
	}
	return true
}

func genAddPage(c *choices, t *Tree) {
	id := fmt.Sprintf("p%d", c.next(10))
	if _, exists := t.Pages[id]; exists {
		return
	}
	kind := pick(c, []Kind{KindDocument, KindDocument, KindGroup, KindLink})
	p := Page{ID: id, Kind: kind, Title: pick(c, genTitles), Order: pick(c, genOrders)}
	p.ParentID = pick(c, genParents(t, kind, id))
	switch kind {
	case KindLink:
		p.Target = json.RawMessage(`{"kind":"url","url":"https://example.com/` + id + `"}`)
	default:
		p.Slug = pick(c, genSlugs)
		if !genSlugFree(t, p.ParentID, p.Slug, id) {
			return
		}
		if kind == KindDocument {
			p.Markdown = genEditText(c, "")
		}
	}
	t.Pages[id] = p
}

func genMovePage(c *choices, t *Tree) {
	id, ok := genPickPage(c, t)
	if !ok {
		return
	}
	p := t.Pages[id]
	p.ParentID = pick(c, genParents(t, p.Kind, id))
	p.Order = pick(c, genOrders)
	if p.Kind == KindLink || genSlugFree(t, p.ParentID, p.Slug, id) {
		t.Pages[id] = p
	}
}

func genRenamePage(c *choices, t *Tree) {
	id, ok := genPickPage(c, t)
	if !ok {
		return
	}
	p := t.Pages[id]
	p.Title = pick(c, genTitles)
	if p.Kind != KindLink {
		p.Slug = pick(c, genSlugs)
	}
	if p.Kind == KindLink || genSlugFree(t, p.ParentID, p.Slug, id) {
		t.Pages[id] = p
	}
}

func genEditMetadata(c *choices, t *Tree) {
	id, ok := genPickPage(c, t)
	if !ok {
		return
	}
	setPage(t, id, func(p *Page) {
		switch c.next(3) {
		case 0:
			p.Emoji = pick(c, genEmoji)
		case 1:
			p.Hidden = !p.Hidden
		case 2:
			p.Layout = pick(c, genLayouts)
		}
	})
}

// genChangeKind turns a document without children into a link, or a link back into a document.
func genChangeKind(c *choices, t *Tree) {
	id, ok := genPickPage(c, t)
	if !ok {
		return
	}
	p := t.Pages[id]
	switch p.Kind {
	case KindDocument:
		if len(t.Children(id)) > 0 {
			return
		}
		p.Kind, p.Slug, p.Markdown = KindLink, "", ""
		p.Target = json.RawMessage(`{"kind":"url","url":"https://example.com"}`)
	case KindLink:
		p.Kind, p.Slug, p.Target = KindDocument, pick(c, genSlugs), nil
		if !genSlugFree(t, p.ParentID, p.Slug, id) {
			return
		}
	default:
		return
	}
	t.Pages[id] = p
}

func genChangeFile(c *choices, t *Tree) {
	id := fmt.Sprintf("f%d", c.next(4))
	f, exists := t.Files[id]
	switch {
	case !exists:
		t.Files[id] = File{ID: id, Name: id + ".png", ContentType: "image/png", Hash: "h" + id, Size: 10}
	case c.next(3) == 0:
		delete(t.Files, id)
	case c.next(2) == 0:
		f.Name = pick(c, genTitles) + ".png"
		t.Files[id] = f
	default:
		f.Hash, f.Size = pick(c, []string{"h1", "h2"}), int64(c.next(3))
		t.Files[id] = f
	}
}

func genChangeValue(c *choices, values map[string]json.RawMessage) {
	name := pick(c, genNames)
	if _, exists := values[name]; exists && c.next(3) == 0 {
		delete(values, name)
		return
	}
	values[name] = pick(c, genValues)
}

// genEditText inserts, deletes or replaces a few lines.
func genEditText(c *choices, text string) string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for range c.next(4) {
		i := c.next(len(lines) + 1)
		switch c.next(3) {
		case 0:
			lines = slices.Insert(lines, i, pick(c, genLines))
		case 1:
			if i < len(lines) {
				lines = slices.Delete(lines, i, i+1)
			}
		case 2:
			if i < len(lines) {
				lines[i] = pick(c, genLines)
			}
		}
	}
	return strings.Join(lines, "")
}
