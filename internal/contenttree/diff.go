package contenttree

// ChangeType says what happened to a page, file or variable between two trees.
type ChangeType string

// Change types.
const (
	Added   ChangeType = "added"
	Removed ChangeType = "removed"
	Changed ChangeType = "changed"
)

// Changes is the difference between two trees, each list sorted by id or name.
type Changes struct {
	Pages     []PageChange
	Files     []FileChange
	Variables []VariableChange
}

// PageChange is what happened to one page. For a changed page, Fields lists what differs (Field*
// names, in a fixed order); FieldPath is among them when the page's path changed, which also
// happens when only an ancestor moved or was renamed.
type PageChange struct {
	ID     string
	Type   ChangeType
	Fields []string
}

// FileChange is what happened to one file; Fields as for pages.
type FileChange struct {
	ID     string
	Type   ChangeType
	Fields []string
}

// VariableChange is what happened to one space variable.
type VariableChange struct {
	Name string
	Type ChangeType
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool {
	return len(c.Pages) == 0 && len(c.Files) == 0 && len(c.Variables) == 0
}

// Diff lists what changed from old to new.
func Diff(old, new *Tree) Changes {
	old, new = orEmpty(old), orEmpty(new)
	var c Changes
	oldPaths, newPaths := old.Paths(), new.Paths()
	for _, id := range unionKeys(old.Pages, new.Pages) {
		a, inOld := old.Pages[id]
		b, inNew := new.Pages[id]
		switch {
		case !inOld:
			c.Pages = append(c.Pages, PageChange{ID: id, Type: Added})
		case !inNew:
			c.Pages = append(c.Pages, PageChange{ID: id, Type: Removed})
		default:
			fields := pageDiff(&a, &b)
			if oldPaths[id] != newPaths[id] {
				fields = append(fields, FieldPath)
			}
			if len(fields) > 0 {
				c.Pages = append(c.Pages, PageChange{ID: id, Type: Changed, Fields: fields})
			}
		}
	}
	for _, id := range unionKeys(old.Files, new.Files) {
		a, inOld := old.Files[id]
		b, inNew := new.Files[id]
		switch {
		case !inOld:
			c.Files = append(c.Files, FileChange{ID: id, Type: Added})
		case !inNew:
			c.Files = append(c.Files, FileChange{ID: id, Type: Removed})
		default:
			if fields := fileDiff(a, b); len(fields) > 0 {
				c.Files = append(c.Files, FileChange{ID: id, Type: Changed, Fields: fields})
			}
		}
	}
	for _, name := range unionKeys(old.Variables, new.Variables) {
		a, inOld := old.Variables[name]
		b, inNew := new.Variables[name]
		switch {
		case !inOld:
			c.Variables = append(c.Variables, VariableChange{Name: name, Type: Added})
		case !inNew:
			c.Variables = append(c.Variables, VariableChange{Name: name, Type: Removed})
		case !jsonEqual(a, b):
			c.Variables = append(c.Variables, VariableChange{Name: name, Type: Changed})
		}
	}
	return c
}

// unionKeys returns the keys of any of the maps, sorted, once each.
func unionKeys[V any](ms ...map[string]V) []string {
	union := map[string]struct{}{}
	for _, m := range ms {
		for k := range m {
			union[k] = struct{}{}
		}
	}
	return sortedKeys(union)
}
