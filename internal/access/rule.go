package access

import "docsd/internal/auth"

// TargetKind names what a grant is on.
type TargetKind string

const (
	SpaceTarget      TargetKind = "space"
	CollectionTarget TargetKind = "collection"
)

// Target is a space or a collection.
type Target struct {
	Kind TargetKind
	ID   string
}

// Grant is a role given on a target to the caller or a team of theirs.
type Grant struct {
	Target Target
	Role   auth.Role
}

// Level is a default level: a role name, Inherit, or NoAccess.
type Level string

const (
	Inherit  Level = "inherit"
	NoAccess Level = ""
)

func (l Level) role() auth.Role {
	if l == Inherit {
		return auth.Guest
	}
	return auth.Role(l)
}

// Node is a collection as the role rule sees it.
type Node struct {
	Parent       string
	DefaultLevel Level
}

// Tree is the collection tree of an organization (or the part of it above one space): the
// rule only ever climbs it.
type Tree interface {
	Node(id string) (Node, bool)
	Len() int
}

// SpaceNode is a space as the role rule sees it.
type SpaceNode struct {
	ID, Parent   string
	DefaultLevel Level
	// Private spaces ignore default levels; InCollection ones are readable by whoever can
	// read their collection.
	Private, InCollection bool
}

// Facts are what decide one user's roles on an organization's content: their membership,
// the grants that reach them (their own and their teams'), and the collection tree. The
// role rule is written once, here, for single lookups and whole lists alike.
type Facts struct {
	member  bool
	orgRole auth.Role
	grants  map[Target]auth.Role
	tree    Tree
}

// NewFacts builds a user's facts: member is false for non-members and disabled members.
func NewFacts(orgRole auth.Role, member bool, grants []Grant, tree Tree) *Facts {
	f := &Facts{member: member, orgRole: orgRole, grants: make(map[Target]auth.Role, len(grants)), tree: tree}
	for _, g := range grants {
		f.grants[g.Target] = auth.Stronger(f.grants[g.Target], g.Role)
	}
	return f
}

// OrgRole is the user's role in the organization (Guest for guests and non-members).
func (f *Facts) OrgRole() auth.Role { return f.orgRole }

// Member reports whether the user is an enabled member of the organization.
func (f *Facts) Member() bool { return f.member }

// SpaceRole is the user's effective role on a space; Guest means no access. It is the
// strongest of: organization admin; grants on the space or any collection above it; for
// non-guest members of a space that is not private, its default level (climbing "inherit"
// to the organization role) and read through a readable collection when in-collection.
func (f *Facts) SpaceRole(s SpaceNode) auth.Role {
	if !f.member {
		return auth.Guest
	}
	if f.orgRole == auth.Admin {
		return auth.Admin
	}
	r := auth.Stronger(f.grants[Target{SpaceTarget, s.ID}], f.inheritedGrant(s.Parent))
	if f.orgRole == auth.Guest || s.Private {
		return r
	}
	r = auth.Stronger(r, f.defaultLevel(s.DefaultLevel, s.Parent))
	if s.InCollection && s.Parent != "" && f.CollectionRole(s.Parent).AtLeast(auth.Read) {
		r = auth.Stronger(r, auth.Read)
	}
	return r
}

// CollectionRole is the user's effective role on a collection; Guest means no access (also
// for a collection that does not exist).
func (f *Facts) CollectionRole(id string) auth.Role {
	c, ok := f.tree.Node(id)
	if !f.member || !ok {
		return auth.Guest
	}
	if f.orgRole == auth.Admin {
		return auth.Admin
	}
	r := f.inheritedGrant(id)
	if f.orgRole == auth.Guest {
		return r
	}
	return auth.Stronger(r, f.defaultLevel(c.DefaultLevel, c.Parent))
}

// LevelRole is the user's role at a level of the tree where something new would go: the
// collection's role, or at the top level the organization role.
func (f *Facts) LevelRole(collectionID string) auth.Role {
	if collectionID == "" {
		if !f.member {
			return auth.Guest
		}
		return f.orgRole
	}
	return f.CollectionRole(collectionID)
}

// inheritedGrant is the strongest grant on collectionID and every collection above it.
func (f *Facts) inheritedGrant(collectionID string) auth.Role {
	r := auth.Guest
	for id, hops := collectionID, 0; id != "" && hops <= f.tree.Len(); hops++ {
		r = auth.Stronger(r, f.grants[Target{CollectionTarget, id}])
		n, _ := f.tree.Node(id)
		id = n.Parent
	}
	return r
}

// defaultLevel resolves a node's default level for a non-guest member: "inherit" climbs to
// the parent collection, and past the top of the tree it is the organization role.
func (f *Facts) defaultLevel(l Level, parent string) auth.Role {
	for hops := 0; l == Inherit; hops++ {
		if parent == "" || hops > f.tree.Len() {
			return f.orgRole
		}
		c, _ := f.tree.Node(parent)
		l, parent = c.DefaultLevel, c.Parent
	}
	return l.role()
}
