package httpapi_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// changeRequestsPath is the change request collection of a space.
func changeRequestsPath(spaceID string) string { return "/v1/spaces/" + spaceID + "/change-requests" }

// newChangeRequest opens a change request as actor and returns its id.
func newChangeRequest(t testing.TB, e *apitest.Env, a apitest.Actor, spaceID, subject string) string {
	t.Helper()
	return e.Post(a, changeRequestsPath(spaceID), map[string]any{"subject": subject}).Expect(201).Str("id")
}

// crDescription is a valid rich-text document.
const crDescription = sampleInstructions

func TestChangeRequestCreate(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	head := e.Get(e.Admin, "/v1/spaces/"+sp+"/content").Expect(200).Str("id")

	t.Run("answers 201 with the change request on the head", func(t *testing.T) {
		r := e.Post(e.Admin, changeRequestsPath(sp), map[string]any{"subject": "Fix typos"}).Expect(201)
		id := r.Str("id")
		for path, want := range map[string]string{"object": "change-request", "status": "open", "subject": "Fix typos",
			"space": sp, "revision": head, "revisionInitial": head, "createdBy.id": e.Admin.ID,
			"urls.location": e.URL + changeRequestsPath(sp) + "/" + id} {
			if got := r.Str(path); got != want {
				t.Errorf("%s = %q, want %q", path, got, want)
			}
		}
		if r.Num("comments") != 0 || r.Bool("outdated") || r.Has("revisionMerged") || r.Has("revisionMergedAncestor") {
			t.Errorf("unexpected fields: %v", r.Map())
		}
		got := e.Get(e.Admin, changeRequestsPath(sp)+"/"+id).Expect(200)
		if got.Str("subject") != "Fix typos" || got.Num("number") != r.Num("number") {
			t.Errorf("re-read: %v", got.Map())
		}
	})

	t.Run("numbers increase per space and address the change request", func(t *testing.T) {
		other := newSpace(t, e, e.Admin, e.Org, nil)
		a := e.Post(e.Admin, changeRequestsPath(other), map[string]any{"subject": "a"}).Expect(201)
		b := e.Post(e.Admin, changeRequestsPath(other), map[string]any{"subject": "b"}).Expect(201)
		if a.Num("number") != 1 || b.Num("number") != 2 {
			t.Fatalf("numbers %v, %v", a.Num("number"), b.Num("number"))
		}
		if got := e.Get(e.Admin, changeRequestsPath(other)+"/2").Expect(200).Str("id"); got != b.Str("id") {
			t.Errorf("by number 2: %s, want %s", got, b.Str("id"))
		}
		e.Get(e.Admin, changeRequestsPath(other)+"/3").Expect(404)
		e.Get(e.Admin, changeRequestsPath(sp)+"/"+b.Str("id")).Expect(404)
	})

	t.Run("concurrent creations get distinct numbers", func(t *testing.T) {
		other := newSpace(t, e, e.Admin, e.Org, nil)
		const n = 8
		var wg sync.WaitGroup
		nums := make([]float64, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				nums[i] = e.Post(e.Admin, changeRequestsPath(other), map[string]any{"subject": fmt.Sprint(i)}).Expect(201).Num("number")
			}()
		}
		wg.Wait()
		seen := map[float64]bool{}
		for _, x := range nums {
			if x < 1 || x > n || seen[x] {
				t.Fatalf("numbers %v are not 1..%d", nums, n)
			}
			seen[x] = true
		}
	})

	t.Run("a description is validated and kept", func(t *testing.T) {
		r := e.Post(e.Admin, changeRequestsPath(sp), map[string]any{"subject": "d", "description": json.RawMessage(crDescription)}).Expect(201)
		if !r.Has("description.nodes.0") {
			t.Errorf("description lost: %s", r.Body)
		}
		e.Post(e.Admin, changeRequestsPath(sp), map[string]any{"subject": "d", "description": map[string]any{"object": "nope"}}).
			Expect(400).ExpectMessage("description")
	})

	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		field  string
	}{
		{"a subject of 100 characters is accepted", map[string]any{"subject": strings.Repeat("é", 100)}, 201, ""},
		{"an empty subject is accepted", map[string]any{"subject": ""}, 201, ""},
		{"a subject of 101 characters is refused", map[string]any{"subject": strings.Repeat("é", 101)}, 400, "subject"},
		{"a missing subject is refused", map[string]any{}, 400, "subject"},
		{"an unknown field is refused", map[string]any{"subject": "x", "nope": 1}, 400, "nope"},
		{"an agent task is refused, as none exist", map[string]any{"subject": "x", "agentTaskId": "t1"}, 400, "agentTaskId"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Post(e.Admin, changeRequestsPath(sp), tc.body).Expect(tc.status)
			if tc.field != "" {
				r.ExpectMessage(tc.field)
			}
		})
	}
}

func TestChangeRequestAccess(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	cr := newChangeRequest(t, e, e.Admin, sp, "s")
	reader := e.Member("reader", auth.Read)
	editor := e.Member("editor", auth.Edit)
	outsider := e.NewUser("outsider")
	grant(t, e, e.Admin, "/v1/spaces/"+sp, "read", []string{reader.ID}, nil)
	grant(t, e, e.Admin, "/v1/spaces/"+sp, "edit", []string{editor.ID}, nil)

	t.Run("a reader lists and reads but cannot create or patch", func(t *testing.T) {
		e.Get(reader, changeRequestsPath(sp)).Expect(200)
		e.Get(reader, changeRequestsPath(sp)+"/"+cr).Expect(200)
		e.Post(reader, changeRequestsPath(sp), map[string]any{"subject": "x"}).Expect(403)
		e.Patch(reader, changeRequestsPath(sp)+"/"+cr, map[string]any{"subject": "x"}).Expect(403)
		if e.Get(e.Admin, changeRequestsPath(sp)+"/"+cr).Expect(200).Str("subject") != "s" {
			t.Error("a refused patch changed the subject")
		}
	})
	t.Run("an editor creates", func(t *testing.T) {
		e.Post(editor, changeRequestsPath(sp), map[string]any{"subject": "x"}).Expect(201)
	})
	t.Run("an outsider gets 404", func(t *testing.T) {
		e.Get(outsider, changeRequestsPath(sp)).Expect(404)
		e.Get(outsider, changeRequestsPath(sp)+"/"+cr).Expect(404)
		e.Post(outsider, changeRequestsPath(sp), map[string]any{"subject": "x"}).Expect(404)
		e.Patch(outsider, changeRequestsPath(sp)+"/"+cr, map[string]any{"subject": "x"}).Expect(404)
	})
}

func TestChangeRequestPatch(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	cr := newChangeRequest(t, e, e.Admin, sp, "s")
	path := changeRequestsPath(sp) + "/" + cr

	t.Run("changes subject, description and status", func(t *testing.T) {
		e.Clock.Advance(1e9)
		r := e.Patch(e.Admin, path, map[string]any{"subject": "new", "status": "draft", "description": json.RawMessage(crDescription)}).Expect(200)
		if r.Str("subject") != "new" || r.Str("status") != "draft" || r.Str("updatedAt") == r.Str("createdAt") {
			t.Errorf("patched: %v", r.Map())
		}
		got := e.Get(e.Admin, path).Expect(200)
		if got.Str("subject") != "new" || got.Str("status") != "draft" || !got.Has("description.nodes") {
			t.Errorf("re-read: %v", got.Map())
		}
		e.Patch(e.Admin, path, map[string]any{"description": nil}).Expect(200)
		if e.Get(e.Admin, path).Expect(200).Has("description") {
			t.Error("null did not remove the description")
		}
	})
	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		field  string
	}{
		{"a subject of 100 characters is accepted", map[string]any{"subject": strings.Repeat("a", 100)}, 200, ""},
		{"a subject of 101 characters is refused", map[string]any{"subject": strings.Repeat("a", 101)}, 400, "subject"},
		{"a null subject is refused", map[string]any{"subject": nil}, 400, "subject"},
		{"status merged is refused", map[string]any{"status": "merged"}, 400, "status"},
		{"an unknown status is refused", map[string]any{"status": "closed"}, 400, "status"},
		{"archived is accepted", map[string]any{"status": "archived"}, 200, ""},
		{"an invalid description is refused", map[string]any{"description": map[string]any{"object": "x"}}, 400, "description"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.Get(e.Admin, path).Expect(200)
			r := e.Patch(e.Admin, path, tc.body).Expect(tc.status)
			if tc.field != "" {
				r.ExpectMessage(tc.field)
				after := e.Get(e.Admin, path).Expect(200)
				if after.Str("subject") != before.Str("subject") || after.Str("status") != before.Str("status") {
					t.Error("a refused patch changed the change request")
				}
			}
		})
	}
	t.Run("an absent change request is 404", func(t *testing.T) {
		e.Patch(e.Admin, changeRequestsPath(sp)+"/nope", map[string]any{"subject": "x"}).Expect(404)
	})
}

func TestChangeRequestList(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	editor := e.Member("editor", auth.Edit)
	grant(t, e, e.Admin, "/v1/spaces/"+sp, "edit", []string{editor.ID}, nil)
	a := newChangeRequest(t, e, e.Admin, sp, "a")
	e.Clock.Advance(1e6)
	b := newChangeRequest(t, e, editor, sp, "b")
	e.Clock.Advance(1e6)
	c := newChangeRequest(t, e, e.Admin, sp, "c")
	e.Patch(e.Admin, changeRequestsPath(sp)+"/"+c, map[string]any{"status": "draft"}).Expect(200)

	for _, tc := range []struct {
		name  string
		query string
		want  []string
	}{
		{"defaults to open, newest first", "", []string{b, a}},
		{"filters on status", "?status=draft", []string{c}},
		{"filters on creator", "?creator=" + editor.ID, []string{b}},
		{"filters on contributor", "?contributor=" + e.Admin.ID, []string{a}},
		{"a user nobody asked to review matches nothing", "?requestedReviewer=" + e.Admin.ID, []string{}},
		{"a conversations cluster matches nothing yet", "?conversationsIssuesCluster=x", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Get(e.Admin, changeRequestsPath(sp)+tc.query).Expect(200)
			if got := strings.Join(r.IDs(), ","); got != strings.Join(tc.want, ",") || int(r.Num("count")) != len(tc.want) {
				t.Errorf("got %s (count %v), want %v", got, r.Num("count"), tc.want)
			}
		})
	}
	t.Run("an edit makes its author a contributor", func(t *testing.T) {
		e.Post(editor, changeRequestsPath(sp)+"/"+a+"/pages", map[string]any{"title": "By the editor"}).Expect(201)
		r := e.Get(e.Admin, changeRequestsPath(sp)+"?contributor="+editor.ID).Expect(200)
		if got := strings.Join(r.IDs(), ","); got != b+","+a {
			t.Errorf("got %s, want %s,%s", got, b, a)
		}
		if got := strings.Join(e.Get(e.Admin, changeRequestsPath(sp)+"?creator="+editor.ID).Expect(200).IDs(), ","); got != b {
			t.Errorf("creator filter: got %s, want %s", got, b)
		}
	})
	t.Run("an unknown status is 400", func(t *testing.T) {
		e.Get(e.Admin, changeRequestsPath(sp)+"?status=closed").Expect(400).ExpectMessage("status")
	})
	t.Run("pages follow next", func(t *testing.T) {
		items := e.WalkList(e.Admin, changeRequestsPath(sp)+"?status=open", 1)
		if len(items) != 2 || items[0]["id"] != b || items[1]["id"] != a {
			t.Errorf("walked %v", items)
		}
	})
	t.Run("a change request goes outdated when the head moves", func(t *testing.T) {
		replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("p1", "", "One", "one", "text").tree)
		if !e.Get(e.Admin, changeRequestsPath(sp)+"/"+a).Expect(200).Bool("outdated") {
			t.Error("not outdated after the head moved")
		}
		fresh := e.Post(e.Admin, changeRequestsPath(sp), map[string]any{"subject": "f"}).Expect(201)
		if fresh.Bool("outdated") {
			t.Error("a new change request is outdated")
		}
	})
}

func TestChangeRequestOrganizationList(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	open := newSpace(t, e, e.Admin, e.Org, nil)
	hidden := newSpace(t, e, e.Admin, e.Org, nil)
	reader := e.Member("reader", auth.Read)
	grant(t, e, e.Admin, "/v1/spaces/"+open, "read", []string{reader.ID}, nil)
	// Without a default level, only those granted a role (and admins) reach the space.
	e.Patch(e.Admin, "/v1/spaces/"+hidden, map[string]any{"defaultLevel": nil}).Expect(200)
	e.Get(reader, "/v1/spaces/"+hidden).Expect(404)
	a := newChangeRequest(t, e, e.Admin, open, "a")
	e.Clock.Advance(1e6)
	b := newChangeRequest(t, e, e.Admin, hidden, "b")
	e.Clock.Advance(1e6)
	c := newChangeRequest(t, e, e.Admin, open, "c")
	e.Patch(e.Admin, changeRequestsPath(open)+"/"+c, map[string]any{"status": "archived"}).Expect(200)
	path := "/v1/orgs/" + e.Org + "/change-requests"

	t.Run("lists every space's change requests, newest first", func(t *testing.T) {
		if got := strings.Join(e.Get(e.Admin, path).Expect(200).IDs(), ","); got != b+","+a {
			t.Errorf("got %s, want %s,%s", got, b, a)
		}
	})
	t.Run("applies the filters", func(t *testing.T) {
		if got := strings.Join(e.Get(e.Admin, path+"?status=archived").Expect(200).IDs(), ","); got != c {
			t.Errorf("got %s, want %s", got, c)
		}
		if got := e.Get(e.Admin, path+"?creator="+reader.ID).Expect(200).IDs(); len(got) != 0 {
			t.Errorf("got %v", got)
		}
	})
	t.Run("leaves out spaces the caller cannot read", func(t *testing.T) {
		r := e.Get(reader, path).Expect(200)
		if got := strings.Join(r.IDs(), ","); got != a || r.Num("count") != 1 {
			t.Errorf("got %s (count %v), want only %s", got, r.Num("count"), a)
		}
	})
	t.Run("an outsider gets 404", func(t *testing.T) {
		e.Get(e.NewUser("outsider"), path).Expect(404)
	})
}
