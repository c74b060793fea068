package space

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/paging"
)

// Lists are computed in Go: which nodes a caller sees depends on the whole tree above each
// node (grants and default levels), which the Access rule already knows. An organization's
// tree is metadata only (no content), so loading it whole is cheap; pages are then cut by a
// string key, so cursors work as in the SQL lists.

// pageOf returns one page of items sorted by key, ascending (or descending when desc).
func pageOf[T any](items []T, key func(T) string, desc bool, page paging.Request) paging.Result[T] {
	sort.SliceStable(items, func(i, j int) bool {
		if desc {
			return key(items[i]) > key(items[j])
		}
		return key(items[i]) < key(items[j])
	})
	res := paging.Result[T]{Count: len(items), Items: []T{}}
	if page.Limit == 0 {
		return res
	}
	start := 0
	if len(page.After) == 1 {
		if after, ok := page.After[0].(string); ok {
			start = sort.Search(len(items), func(i int) bool {
				if desc {
					return key(items[i]) < after
				}
				return key(items[i]) > after
			})
		}
	}
	end := min(start+page.Limit, len(items))
	res.Items = items[start:end]
	if end < len(items) {
		res.Next = []any{key(items[end-1])}
	}
	return res
}

// treeOrder gives every node a key that sorts the tree depth first, each level by position:
// the keys of its ancestors and then its own, "position id" joined by "/". Space and slash sort
// below every character of positions and ids, so a node comes before its descendants, and
// those before the node's next sibling.
type treeOrder struct {
	cols  map[string]Collection
	paths map[string]string
}

func newTreeOrder(cols map[string]Collection) *treeOrder {
	return &treeOrder{cols: cols, paths: map[string]string{}}
}

func siblingKey(position, id string) string { return position + " " + id }

func (t *treeOrder) under(parent string, position, id string) string {
	if parent == "" {
		return siblingKey(position, id)
	}
	return t.collection(parent) + "/" + siblingKey(position, id)
}

func (t *treeOrder) collection(id string) string {
	if p, ok := t.paths[id]; ok {
		return p
	}
	// Mark the node first, so a (never expected) cycle ends instead of recursing forever.
	t.paths[id] = ""
	c := t.cols[id]
	p := t.under(c.Parent, c.Position, c.ID)
	t.paths[id] = p
	return p
}

// ListInOrganization lists the spaces of an organization the caller can see, in tree order.
func (s *Service) ListInOrganization(ctx context.Context, c auth.Caller, orgID string, page paging.Request) (paging.Result[View], error) {
	tx := s.store.Read()
	acc, err := s.accessIn(ctx, tx, c, orgID)
	if err != nil {
		return paging.Result[View]{}, err
	}
	if !acc.Member() {
		return paging.Result[View]{}, apperr.NotFoundf("organization %s not found", orgID)
	}
	spaces, err := tx.Spaces(ctx, orgID)
	if err != nil {
		return paging.Result[View]{}, err
	}
	order := newTreeOrder(acc.collections)
	views := visibleSpaces(acc, spaces, func(Space) bool { return true })
	return pageOf(views, func(v View) string { return order.under(v.Parent, v.Position, v.ID) }, false, page), nil
}

// ListInCollection lists the spaces directly inside a collection, in their order.
func (s *Service) ListInCollection(ctx context.Context, c auth.Caller, collectionID string, page paging.Request) (paging.Result[View], error) {
	tx := s.store.Read()
	col, acc, err := s.collectionView(ctx, tx, c, collectionID, auth.Read)
	if err != nil {
		return paging.Result[View]{}, err
	}
	spaces, err := tx.Spaces(ctx, col.OrganizationID)
	if err != nil {
		return paging.Result[View]{}, err
	}
	views := visibleSpaces(acc, spaces, func(sp Space) bool { return sp.Parent == collectionID })
	return pageOf(views, func(v View) string { return siblingKey(v.Position, v.ID) }, false, page), nil
}

func visibleSpaces(acc *Access, spaces []Space, keep func(Space) bool) []View {
	views := []View{}
	for _, sp := range spaces {
		if r := acc.SpaceRole(sp); r.AtLeast(auth.Read) && keep(sp) {
			views = append(views, View{Space: sp, Role: r})
		}
	}
	return views
}

// ListCollections lists the collections of an organization the caller can see, in tree
// order: every level when nested is true, the top level only otherwise.
func (s *Service) ListCollections(ctx context.Context, c auth.Caller, orgID string, nested bool, page paging.Request) (paging.Result[CollectionView], error) {
	tx := s.store.Read()
	acc, err := s.accessIn(ctx, tx, c, orgID)
	if err != nil {
		return paging.Result[CollectionView]{}, err
	}
	if !acc.Member() {
		return paging.Result[CollectionView]{}, apperr.NotFoundf("organization %s not found", orgID)
	}
	order := newTreeOrder(acc.collections)
	views := []CollectionView{}
	for _, col := range acc.collections {
		if r := acc.CollectionRole(col.ID); r.AtLeast(auth.Read) && (nested || col.Parent == "") {
			views = append(views, CollectionView{Collection: col, Role: r})
		}
	}
	return pageOf(views, func(v CollectionView) string { return order.collection(v.ID) }, false, page), nil
}

// MemberSpace is a space a member can access, with the member's role on it. The space's own
// permissions are the caller's.
type MemberSpace struct {
	Permission auth.Role
	Space      View
}

// ListForMember lists the spaces a member of an organization can access, by creation time
// (newest first unless ascending). Callers see only the spaces they can see themselves;
// guests may ask only about themselves (they do not see the organization's members).
func (s *Service) ListForMember(ctx context.Context, c auth.Caller, orgID, userID string, ascending bool, page paging.Request) (paging.Result[MemberSpace], error) {
	tx := s.store.Read()
	mine, err := s.accessIn(ctx, tx, c, orgID)
	if err != nil {
		return paging.Result[MemberSpace]{}, err
	}
	if !mine.Member() {
		return paging.Result[MemberSpace]{}, apperr.NotFoundf("organization %s not found", orgID)
	}
	if mine.OrgRole() == auth.Guest && userID != c.UserID {
		return paging.Result[MemberSpace]{}, apperr.Forbiddenf("guests may not list other members' spaces")
	}
	theirs, err := s.accessIn(ctx, tx, auth.Caller{UserID: userID}, orgID)
	if err != nil {
		return paging.Result[MemberSpace]{}, err
	}
	if !theirs.Member() {
		return paging.Result[MemberSpace]{}, apperr.NotFoundf("member %s not found in organization %s", userID, orgID)
	}
	spaces, err := tx.Spaces(ctx, orgID)
	if err != nil {
		return paging.Result[MemberSpace]{}, err
	}
	items := []MemberSpace{}
	for _, sp := range spaces {
		their, my := theirs.SpaceRole(sp), mine.SpaceRole(sp)
		if their.AtLeast(auth.Read) && my.AtLeast(auth.Read) {
			items = append(items, MemberSpace{Permission: their, Space: View{Space: sp, Role: my}})
		}
	}
	key := func(m MemberSpace) string { return fmt.Sprintf("%020d %s", m.Space.CreatedAt.UnixMicro(), m.Space.ID) }
	return pageOf(items, key, !ascending, page), nil
}

// Aggregate lists every member who can access a target, with their effective role; role,
// when set, keeps only the members with exactly that role.
func (s *Service) Aggregate(ctx context.Context, c auth.Caller, t Target, role *auth.Role, page paging.Request) (paging.Result[UserGrant], error) {
	tx := s.store.Read()
	orgID, err := s.requireListable(ctx, tx, c, t)
	if err != nil {
		return paging.Result[UserGrant]{}, err
	}
	e, err := loadEveryone(ctx, tx, orgID)
	if err != nil {
		return paging.Result[UserGrant]{}, err
	}
	var sp Space
	if t.Kind == SpaceKind {
		if sp, err = tx.Space(ctx, t.ID); err != nil {
			return paging.Result[UserGrant]{}, err
		}
	}
	items := []UserGrant{}
	for _, m := range e.members {
		acc := e.of(m.User.ID)
		r := acc.CollectionRole(t.ID)
		if t.Kind == SpaceKind {
			r = acc.SpaceRole(sp)
		}
		if r.AtLeast(auth.Read) && (role == nil || r == *role) {
			items = append(items, UserGrant{User: m.User, Role: r})
		}
	}
	key := func(g UserGrant) string { return strings.ToLower(g.User.DisplayName) + "\x00" + g.User.ID }
	return pageOf(items, key, false, page), nil
}
