package httpapi_test

import (
	"fmt"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// The permission matrix: every space and collection operation, called by members holding each
// role in each way a role can be held (a grant to them, to their team, on the collection
// above, or the default level), by a member of another organization and without a token,
// each with the status the access rule predicts.
//
// Every case gets this fixture, made by an organization admin:
//
//	C  a collection with no default level (members get nothing through it)
//	├─ S   the space the space operations act on (in-collection, no default level)
//	├─ S2  a sibling space
//	└─ D   the collection the collection operations act on (no default level)
//
// A user X and a team TX hold read on S and D, for the operations on others' permissions.
// Callers are members with the organization role read (so they may not create at the top
// level) and admins of an organization of their own (the target of transfers).
type matrixFixture struct {
	C, D, S, S2 string
}

// matrixWorld is what the fixtures of one environment share.
type matrixWorld struct {
	e  *apitest.Env
	x  apitest.Actor
	tx string
}

// matrixCaller is a caller with the role they hold on S and D, and on C.
type matrixCaller struct {
	name         string
	actor        apitest.Actor
	target       string    // an organization the caller administers, for transfers
	onNode       auth.Role // role on S and D
	onParent     auth.Role // role on C
	member       bool      // a member of the organization (false: another organization's)
	give         func(w *matrixWorld, c *matrixCaller, f matrixFixture)
	defaultLevel string // the default level of S and D ("" for null)
}

type matrixOp struct {
	name string
	// need is the role on the node the operation needs; parentCreate adds create on C, and
	// orgCreate create in the organization (which the callers never have).
	need                    auth.Role
	parentCreate, orgCreate bool
	ok                      int // the success status
	hidden                  int // the status for a caller who cannot see the node (404 unless set)
	fresh                   bool
	prepare                 func(w *matrixWorld, f matrixFixture)
	do                      func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp
	// listed, for lists that always answer 200 to members: the id the list must hold exactly
	// when the caller can read the node.
	listed func(f matrixFixture) string
	// check looks at a successful answer with the caller's role.
	check func(t *testing.T, r *apitest.Resp, role auth.Role)
}

func (o matrixOp) expect(c *matrixCaller) int {
	switch {
	case c.actor.Token == "":
		return 401
	case !c.member:
		if o.hidden == 204 {
			return 204
		}
		return 404
	case o.listed != nil:
		return 200
	case !c.onNode.AtLeast(auth.Read):
		if o.hidden != 0 {
			return o.hidden
		}
		return 404
	case !c.onNode.AtLeast(o.need), o.parentCreate && !c.onParent.AtLeast(auth.Create), o.orgCreate:
		return 403
	}
	return o.ok
}

func checkSpacePermissions(t *testing.T, r *apitest.Resp, role auth.Role) {
	t.Helper()
	want := map[string]bool{"view": true, "admin": role == auth.Admin, "edit": role.AtLeast(auth.Edit),
		"review": role.AtLeast(auth.Review), "comment": role.AtLeast(auth.Comment), "installIntegration": role == auth.Admin}
	for k, v := range want {
		if r.Bool("permissions."+k) != v {
			t.Errorf("permissions.%s = %v with role %s: %s", k, !v, role, r.Body)
		}
	}
}

func checkCollectionPermissions(t *testing.T, r *apitest.Resp, role auth.Role) {
	t.Helper()
	want := map[string]bool{"view": true, "admin": role == auth.Admin, "create": role.AtLeast(auth.Create)}
	for k, v := range want {
		if r.Bool("permissions."+k) != v {
			t.Errorf("permissions.%s = %v with role %s: %s", k, !v, role, r.Body)
		}
	}
}

func spaceOps() []matrixOp {
	sp := func(f matrixFixture) string { return "/v1/spaces/" + f.S }
	return []matrixOp{
		{name: "get space", need: auth.Read, ok: 200, check: checkSpacePermissions,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp { return w.e.Get(c.actor, sp(f)) }},
		{name: "patch space title", need: auth.Admin, ok: 200, check: checkSpacePermissions,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Patch(c.actor, sp(f), map[string]any{"title": "Renamed"})
			}},
		{name: "patch space language", need: auth.Edit, ok: 200,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Patch(c.actor, sp(f), map[string]any{"language": "fr"})
			}},
		{name: "delete space", need: auth.Admin, ok: 204, hidden: 204, fresh: true,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Delete(c.actor, sp(f))
			}},
		{name: "restore space", need: auth.Admin, ok: 200, fresh: true,
			prepare: func(w *matrixWorld, f matrixFixture) { w.e.Delete(w.e.Admin, sp(f)).Expect(204) },
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Post(c.actor, sp(f)+"/restore", nil)
			}},
		{name: "duplicate space", need: auth.Read, parentCreate: true, ok: 201,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Post(c.actor, sp(f)+"/duplicate", nil)
			}},
		{name: "move space among siblings", need: auth.Admin, ok: 200, fresh: true,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Post(c.actor, sp(f)+"/move", map[string]any{"position": map[string]any{"after": ptr("space", f.S2)}})
			}},
		{name: "move space to the top level", need: auth.Admin, orgCreate: true, ok: 200, fresh: true,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Post(c.actor, sp(f)+"/move", map[string]any{"parent": nil})
			}},
		{name: "transfer space", need: auth.Admin, ok: 200, fresh: true,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Post(c.actor, sp(f)+"/transfer", map[string]any{"organization": c.target})
			}},
		{name: "list spaces of the organization", listed: func(f matrixFixture) string { return f.S },
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Get(c.actor, "/v1/orgs/"+w.e.Org+"/spaces")
			}},
		{name: "list own spaces as a member", listed: func(f matrixFixture) string { return f.S },
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Get(c.actor, "/v1/orgs/"+w.e.Org+"/members/"+c.actor.ID+"/spaces")
			}},
	}
}

func collectionOps() []matrixOp {
	col := func(f matrixFixture) string { return "/v1/collections/" + f.D }
	return []matrixOp{
		{name: "get collection", need: auth.Read, ok: 200, check: checkCollectionPermissions,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp { return w.e.Get(c.actor, col(f)) }},
		{name: "patch collection", need: auth.Admin, ok: 200, check: checkCollectionPermissions,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Patch(c.actor, col(f), map[string]any{"title": "Renamed", "description": "New"})
			}},
		{name: "delete collection", need: auth.Admin, ok: 204, hidden: 204, fresh: true,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Delete(c.actor, col(f))
			}},
		{name: "list spaces of the collection", need: auth.Read, ok: 200,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Get(c.actor, col(f)+"/spaces")
			}},
		{name: "move collection among siblings", need: auth.Admin, ok: 200, fresh: true,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Post(c.actor, col(f)+"/move", map[string]any{"position": map[string]any{"before": ptr("space", f.S)}})
			}},
		{name: "move collection to the top level", need: auth.Admin, orgCreate: true, ok: 200, fresh: true,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Post(c.actor, col(f)+"/move", map[string]any{"parent": nil})
			}},
		{name: "transfer collection", need: auth.Admin, ok: 200, fresh: true,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Post(c.actor, col(f)+"/transfer", map[string]any{"organization": c.target})
			}},
		{name: "create space in the collection", need: auth.Create, ok: 201, hidden: 400,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Post(c.actor, "/v1/orgs/"+w.e.Org+"/spaces", map[string]any{"parent": f.D})
			}},
		{name: "create collection in the collection", need: auth.Create, ok: 201, hidden: 400,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Post(c.actor, "/v1/orgs/"+w.e.Org+"/collections", map[string]any{"parent": f.D})
			}},
		{name: "list collections of the organization", listed: func(f matrixFixture) string { return f.D },
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Get(c.actor, "/v1/orgs/"+w.e.Org+"/collections")
			}},
	}
}

// permissionOps are the permission operations, on S or on D.
func permissionOps(kind string) []matrixOp {
	path := func(f matrixFixture) string {
		if kind == "space" {
			return "/v1/spaces/" + f.S
		}
		return "/v1/collections/" + f.D
	}
	var ops []matrixOp
	for _, l := range []string{"users", "teams", "aggregate"} {
		ops = append(ops, matrixOp{name: "list " + l + " permissions of the " + kind, need: auth.Read, ok: 200,
			do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
				return w.e.Get(c.actor, path(f)+"/permissions/"+l)
			}})
	}
	principal := func(w *matrixWorld, who string) string {
		if who == "users" {
			return w.x.ID
		}
		return w.tx
	}
	for _, who := range []string{"users", "teams"} {
		ops = append(ops,
			matrixOp{name: "patch " + who + " permission on the " + kind, need: auth.Admin, ok: 204,
				do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
					return w.e.Patch(c.actor, path(f)+"/permissions/"+who+"/"+principal(w, who), map[string]any{"role": "comment"})
				}},
			matrixOp{name: "remove " + who + " permission on the " + kind, need: auth.Admin, ok: 204,
				do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
					return w.e.Delete(c.actor, path(f)+"/permissions/"+who+"/"+principal(w, who))
				}})
	}
	return append(ops, matrixOp{name: "invite to the " + kind, need: auth.Admin, ok: 204,
		do: func(w *matrixWorld, c *matrixCaller, f matrixFixture) *apitest.Resp {
			return w.e.Post(c.actor, path(f)+"/permissions", map[string]any{"role": "read", "users": []string{w.x.ID}})
		}})
}

// matrixVariants are the ways a member holds a role on S and D.
var matrixVariants = []struct {
	name     string
	onParent bool // the role also holds on C
	give     func(w *matrixWorld, c *matrixCaller, f matrixFixture)
	byLevel  bool // the role is S's and D's default level
}{
	{name: "granted directly", give: func(w *matrixWorld, c *matrixCaller, f matrixFixture) {
		grant(w.e.T, w.e, w.e.Admin, "/v1/spaces/"+f.S, string(c.onNode), []string{c.actor.ID}, nil)
		grant(w.e.T, w.e, w.e.Admin, "/v1/collections/"+f.D, string(c.onNode), []string{c.actor.ID}, nil)
	}},
	{name: "through a team", give: func(w *matrixWorld, c *matrixCaller, f matrixFixture) {
		team := newTeam(w.e.T, w.e, w.e.Org, "Team of "+c.name, c.actor)
		grant(w.e.T, w.e, w.e.Admin, "/v1/spaces/"+f.S, string(c.onNode), nil, []string{team})
		grant(w.e.T, w.e, w.e.Admin, "/v1/collections/"+f.D, string(c.onNode), nil, []string{team})
	}},
	{name: "through the parent collection", onParent: true, give: func(w *matrixWorld, c *matrixCaller, f matrixFixture) {
		grant(w.e.T, w.e, w.e.Admin, "/v1/collections/"+f.C, string(c.onNode), []string{c.actor.ID}, nil)
	}},
	{name: "by default level", byLevel: true},
}

// fixture builds the tree of one case and gives the caller their role in it.
func (w *matrixWorld) fixture(c *matrixCaller) matrixFixture {
	e := w.e
	var f matrixFixture
	f.C = newCollection(e.T, e, e.Admin, e.Org, map[string]any{"title": "C"})
	e.Patch(e.Admin, "/v1/collections/"+f.C, map[string]any{"defaultLevel": nil}).Expect(200)
	f.S = newSpace(e.T, e, e.Admin, e.Org, map[string]any{"parent": f.C, "title": "S"})
	f.S2 = newSpace(e.T, e, e.Admin, e.Org, map[string]any{"parent": f.C, "title": "S2"})
	f.D = newCollection(e.T, e, e.Admin, e.Org, map[string]any{"parent": f.C, "title": "D"})
	var level any
	if c.defaultLevel != "" {
		level = c.defaultLevel
	}
	e.Patch(e.Admin, "/v1/spaces/"+f.S, map[string]any{"defaultLevel": level}).Expect(200)
	e.Patch(e.Admin, "/v1/collections/"+f.D, map[string]any{"defaultLevel": level}).Expect(200)
	grant(e.T, e, e.Admin, "/v1/spaces/"+f.S, "read", []string{w.x.ID}, []string{w.tx})
	grant(e.T, e, e.Admin, "/v1/collections/"+f.D, "read", []string{w.x.ID}, []string{w.tx})
	if c.give != nil {
		c.give(w, c, f)
	}
	return f
}

func newMatrixWorld(t *testing.T) *matrixWorld {
	e := apitest.New(t)
	x := e.Member("x", auth.Read)
	return &matrixWorld{e: e, x: x, tx: newTeam(t, e, e.Org, "TX", x)}
}

// callers lists the members of one variant, one per role, plus (for the first variant) a
// member with no access at all, a member of another organization and an anonymous caller.
func (w *matrixWorld) callers(variant int, withOutsiders bool) []*matrixCaller {
	v := matrixVariants[variant]
	var out []*matrixCaller
	for _, r := range auth.Roles {
		name := fmt.Sprintf("%s %s", r, v.name)
		a := w.e.Member(name, auth.Read)
		c := &matrixCaller{name: name, actor: a, target: w.e.NewOrg(a, "Target of "+a.Name), onNode: r, member: true, give: v.give}
		if v.onParent {
			c.onParent = r
		}
		if v.byLevel {
			c.defaultLevel = string(r)
		}
		out = append(out, c)
	}
	if withOutsiders {
		stranger := w.e.NewUser("member of another organization")
		out = append(out,
			&matrixCaller{name: "member without access", actor: w.e.Member("member without access", auth.Read),
				target: w.e.NewOrg(w.e.Admin, "Not theirs"), member: true},
			&matrixCaller{name: "member of another organization", actor: stranger, target: w.e.NewOrg(stranger, "Stranger's")},
			&matrixCaller{name: "no token", actor: apitest.Anonymous})
	}
	return out
}

func matrixOps() []matrixOp {
	ops := append(spaceOps(), collectionOps()...)
	ops = append(ops, permissionOps("space")...)
	return append(ops, permissionOps("collection")...)
}

func TestPermissionMatrix(t *testing.T) {
	t.Parallel()
	ops := matrixOps()
	callers := len(matrixVariants)*len(auth.Roles) + 3
	n := len(ops) * callers
	t.Logf("permission matrix: %d operations × %d callers = %d cases", len(ops), callers, n)
	t.Run(fmt.Sprintf("permission matrix of %d cases", n), func(t *testing.T) {
		for i := range matrixVariants {
			t.Run(matrixVariants[i].name, func(t *testing.T) {
				t.Parallel()
				w := newMatrixWorld(t)
				for _, c := range w.callers(i, i == 0) {
					t.Run(c.name, func(t *testing.T) {
						t.Parallel()
						runMatrixCaller(t, w.in(t), c, ops)
					})
				}
			})
		}
	})
}

// in is the world as seen from test t: requests that fail, fail t.
func (w *matrixWorld) in(t *testing.T) *matrixWorld {
	e := *w.e
	e.T = t
	return &matrixWorld{e: &e, x: w.x, tx: w.tx}
}

func runMatrixCaller(t *testing.T, w *matrixWorld, c *matrixCaller, ops []matrixOp) {
	shared := w.fixture(c)
	for _, o := range ops {
		t.Run(o.name, func(t *testing.T) {
			w := w.in(t)
			f := shared
			if o.fresh {
				f = w.fixture(c)
			}
			if o.prepare != nil {
				o.prepare(w, f)
			}
			want := o.expect(c)
			r := o.do(w, c, f).Expect(want)
			if o.listed != nil && want == 200 {
				found := false
				for _, id := range r.IDs() {
					found = found || id == o.listed(f)
				}
				for _, it := range r.Items() {
					if s, ok := it["space"].(map[string]any); ok {
						found = found || s["id"] == o.listed(f)
					}
				}
				if found != c.onNode.AtLeast(auth.Read) {
					t.Errorf("listed = %v with role %q", found, c.onNode)
				}
			}
			if o.check != nil && want == o.ok {
				o.check(t, r, c.onNode)
			}
		})
	}
}
