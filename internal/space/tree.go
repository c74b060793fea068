package space

import (
	"context"
	"sort"

	"docsd/internal/apperr"
	"docsd/internal/orderkey"
)

// Pointer names a sibling in a position: a space or a collection.
type Pointer struct {
	Kind Kind
	ID   string
}

// Position places a node right before and/or right after a sibling at its level.
type Position struct {
	Before *Pointer
	After  *Pointer
}

// orgTree is an organization's live tree, loaded (under the tree lock) for one change.
type orgTree struct {
	spaces []Space
	cols   map[string]Collection
}

// loadTree locks orgID's tree against concurrent changes and loads it.
func loadTree(ctx context.Context, tx Tx, orgID string) (*orgTree, error) {
	if err := tx.LockTree(ctx, orgID); err != nil {
		return nil, err
	}
	spaces, err := tx.Spaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	cols, err := tx.Collections(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return &orgTree{spaces: spaces, cols: collectionMap(cols)}, nil
}

// node is a space or collection at one level.
type node struct {
	Pointer
	position string
}

// level returns the live nodes whose parent is parent, in order.
func (t *orgTree) level(parent string) []node {
	var nodes []node
	for _, s := range t.spaces {
		if s.Parent == parent {
			nodes = append(nodes, node{Pointer{SpaceKind, s.ID}, s.Position})
		}
	}
	for _, c := range t.cols {
		if c.Parent == parent {
			nodes = append(nodes, node{Pointer{CollectionKind, c.ID}, c.Position})
		}
	}
	sort.Slice(nodes, func(i, j int) bool {
		if nodes[i].position != nodes[j].position {
			return nodes[i].position < nodes[j].position
		}
		return nodes[i].ID < nodes[j].ID
	})
	return nodes
}

// end is the position after every node at a level.
func (t *orgTree) end(parent string) string {
	nodes := t.level(parent)
	if len(nodes) == 0 {
		return orderkey.First
	}
	return orderkey.Between(nodes[len(nodes)-1].position, "")
}

// after is the position right after a node at its level.
func (t *orgTree) after(parent string, p Pointer) string {
	nodes := t.level(parent)
	for i, n := range nodes {
		if n.Pointer == p {
			return between(nodes, i, i+1)
		}
	}
	return t.end(parent)
}

// between is a position after nodes[i] and before nodes[j] (either may be out of range,
// meaning an open end). Live siblings never share a position: changes to a level run under
// the tree lock, and a restored space whose old position was taken meanwhile gets a new one.
func between(nodes []node, i, j int) string {
	a, b := "", ""
	if i >= 0 && i < len(nodes) {
		a = nodes[i].position
	}
	if j >= 0 && j < len(nodes) {
		b = nodes[j].position
	}
	return orderkey.Between(a, b)
}

func indexOf(nodes []node, p Pointer) int {
	for i, n := range nodes {
		if n.Pointer == p {
			return i
		}
	}
	return -1
}

// checkParent makes sure a level still exists under the lock: access was checked on what
// was read before it, and the collection may have been deleted meanwhile.
func (t *orgTree) checkParent(parent string) error {
	if _, ok := t.cols[parent]; parent != "" && !ok {
		return apperr.Invalidf("parent: collection %s not found in the organization", parent)
	}
	return nil
}

// place computes the position of self at level parent according to pos (nil: the end), and
// whether self already stands there (same level, same neighbours).
func (t *orgTree) place(parent string, self Pointer, sameLevel bool, pos *Position) (position string, unchanged bool, err error) {
	if err := t.checkParent(parent); err != nil {
		return "", false, err
	}
	all := t.level(parent)
	var others []node
	for _, n := range all {
		if n.Pointer != self {
			others = append(others, n)
		}
	}
	selfAt := indexOf(all, self)
	if pos == nil {
		if sameLevel {
			return "", true, nil
		}
		return t.end(parent), false, nil
	}
	for _, f := range []struct {
		field string
		p     *Pointer
	}{{"position.before", pos.Before}, {"position.after", pos.After}} {
		field, p := f.field, f.p
		if p == nil {
			continue
		}
		if *p == self {
			return "", false, apperr.Invalidf("%s: cannot be the %s being moved", field, self.Kind)
		}
		if indexOf(others, *p) < 0 {
			return "", false, apperr.Invalidf("%s: %s %s is not at the destination level", field, p.Kind, p.ID)
		}
	}
	switch {
	case pos.After != nil:
		i := indexOf(others, *pos.After)
		if pos.Before != nil && indexOf(others, *pos.Before) <= i {
			return "", false, apperr.Invalidf("position: before must come after after at the destination level")
		}
		unchanged = sameLevel && selfAt > 0 && all[selfAt-1].Pointer == *pos.After
		return between(others, i, i+1), unchanged, nil
	case pos.Before != nil:
		j := indexOf(others, *pos.Before)
		unchanged = sameLevel && selfAt >= 0 && selfAt+1 < len(all) && all[selfAt+1].Pointer == *pos.Before
		return between(others, j-1, j), unchanged, nil
	}
	return "", false, apperr.Invalidf("position: give before, after or both")
}

// isWithin reports whether collection id is ancestor itself or lies under it.
func (t *orgTree) isWithin(id, ancestor string) bool {
	for hops := 0; id != "" && hops <= len(t.cols); hops++ {
		if id == ancestor {
			return true
		}
		id = t.cols[id].Parent
	}
	return false
}

// subtree returns the ids of a collection and every collection under it.
func (t *orgTree) subtree(id string) []string {
	var out []string
	for cid := range t.cols {
		if t.isWithin(cid, id) {
			out = append(out, cid)
		}
	}
	return out
}
