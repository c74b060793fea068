package contenttree

import (
	"encoding/json"
	"maps"
	"slices"
)

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
	compare(old.Pages, new.Pages, func(id string, a, b Page) []string {
		fields := pageDiff(&a, &b)
		if oldPaths[id] != newPaths[id] {
			fields = append(fields, FieldPath)
		}
		return fields
	}, func(id string, t ChangeType, fields []string) {
		c.Pages = append(c.Pages, PageChange{ID: id, Type: t, Fields: fields})
	})
	compare(old.Files, new.Files, func(_ string, a, b File) []string { return fileDiff(a, b) },
		func(id string, t ChangeType, fields []string) {
			c.Files = append(c.Files, FileChange{ID: id, Type: t, Fields: fields})
		})
	compare(old.Variables, new.Variables, func(_ string, a, b json.RawMessage) []string {
		if jsonEqual(a, b) {
			return nil
		}
		return []string{"value"}
	}, func(name string, t ChangeType, _ []string) {
		c.Variables = append(c.Variables, VariableChange{Name: name, Type: t})
	})
	return c
}

// compare calls record, in key order, for each key added to, removed from or changed between two
// maps; fields lists how two values of a key differ, nothing when they do not.
func compare[V any](old, new map[string]V, fields func(key string, a, b V) []string,
	record func(key string, t ChangeType, fields []string)) {
	for _, k := range unionKeys(old, new) {
		a, inOld := old[k]
		b, inNew := new[k]
		switch {
		case !inOld:
			record(k, Added, nil)
		case !inNew:
			record(k, Removed, nil)
		default:
			if f := fields(k, a, b); len(f) > 0 {
				record(k, Changed, f)
			}
		}
	}
}

// unionKeys returns the keys of any of the maps, sorted, once each.
func unionKeys[V any](ms ...map[string]V) []string {
	union := map[string]struct{}{}
	for _, m := range ms {
		for k := range m {
			union[k] = struct{}{}
		}
	}
	return slices.Sorted(maps.Keys(union))
}
