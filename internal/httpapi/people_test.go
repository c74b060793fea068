package httpapi_test

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func TestChangeRequestContributors(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"visibility": "unlisted"})
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("p1", "", "One", "one", "First.\n").tree)
	editor := e.Member("editor", auth.Edit)
	cr := newChangeRequest(t, e, e.Admin, sp, "Two hands")
	path := crPath(sp, cr) + "/contributors"

	if r := e.Get(e.Admin, path).Expect(200); r.Num("count") != 0 || len(r.Items()) != 0 {
		t.Fatalf("before any edit, creating the change request is no contribution: %s", r.Body)
	}
	e.Patch(e.Admin, crPath(sp, cr)+"/pages/p1", map[string]any{"markdown": "Admin's edit.\n"}).Expect(200)
	e.Clock.Advance(time.Minute)
	e.Patch(editor, crPath(sp, cr)+"/pages/p1", map[string]any{"markdown": "Editor's edit.\n"}).Expect(200)
	e.Clock.Advance(time.Minute)
	lastEdit := e.Clock.Now()
	e.Patch(editor, crPath(sp, cr)+"/pages/p1", map[string]any{"markdown": "Editor's second edit.\n"}).Expect(200)

	t.Run("everyone who changed the content, latest first, with their counts", func(t *testing.T) {
		r := e.Get(e.Admin, path).Expect(200)
		items := r.Items()
		if r.Num("count") != 2 || len(items) != 2 {
			t.Fatalf("%s", r.Body)
		}
		first, second := items[0], items[1]
		schemaChecker(t, loadOpenAPI(t))("ChangeRequestContributor", first)
		if first["user"].(map[string]any)["id"] != editor.ID || first["count"].(float64) != 2 || first["actionType"] != "edit" {
			t.Errorf("first %v", first)
		}
		if second["user"].(map[string]any)["id"] != e.Admin.ID || second["count"].(float64) != 1 {
			t.Errorf("second %v", second)
		}
		at, err := time.Parse(time.RFC3339Nano, first["updatedAt"].(string))
		if err != nil || at.Before(lastEdit.Truncate(time.Microsecond)) || at.After(e.Clock.Now()) {
			t.Errorf("updatedAt %v (%v), want the last edit's time %v", first["updatedAt"], err, lastEdit)
		}
	})
	t.Run("paginated with the list envelope", func(t *testing.T) {
		all := e.WalkList(e.Admin, path, 1)
		if len(all) != 2 {
			t.Fatalf("walked %d", len(all))
		}
	})
	t.Run("by number; hidden from outsiders", func(t *testing.T) {
		num := e.Get(e.Admin, crPath(sp, cr)).Expect(200).Num("number")
		e.Get(e.Admin, crPath(sp, strconv.Itoa(int(num)))+"/contributors").Expect(200)
		e.Get(e.NewUser("outsider"), path).ExpectError(404)
		e.Get(e.Admin, crPath(sp, "999")+"/contributors").ExpectError(404)
		e.Get(e.Admin, path+"?limit=1001").ExpectError(400).ExpectMessage("limit")
	})
}

func TestCommenters(t *testing.T) {
	t.Parallel()
	f := newCommentFixture(t)
	e := f.e
	ids := func(r *apitest.Resp) []string {
		var out []string
		for _, it := range r.Items() {
			if it["object"] != "member" {
				t.Errorf("item %v", it)
			}
			out = append(out, it["user"].(map[string]any)["id"].(string))
		}
		slices.Sort(out)
		return out
	}
	want := func(as ...apitest.Actor) []string {
		var out []string
		for _, a := range as {
			out = append(out, a.ID)
		}
		slices.Sort(out)
		return out
	}
	spacePath, crPathC := "/v1/spaces/"+f.space+"/commenters", crPath(f.space, f.cr)+"/commenters"

	if r := e.Get(f.reader, spacePath).Expect(200); r.Num("count") != 0 {
		t.Fatalf("no comments yet: %s", r.Body)
	}
	c1 := f.post(t, f.commenter, f.spaceBase, map[string]any{"body": md("On the space")})
	e.Post(f.commenter2, f.spaceBase+"/"+c1+"/replies", map[string]any{"body": md("A reply")}).Expect(200)
	f.post(t, e.Admin, f.crBase, map[string]any{"body": md("On the change request")})

	t.Run("a space's commenters are those of its own comments and replies", func(t *testing.T) {
		r := e.Get(f.reader, spacePath).Expect(200)
		if got := ids(r); !slices.Equal(got, want(f.commenter, f.commenter2)) || r.Num("count") != 2 {
			t.Errorf("got %v: %s", got, r.Body)
		}
	})
	t.Run("a change request's are those of its comments", func(t *testing.T) {
		if got := ids(e.Get(f.reader, crPathC).Expect(200)); !slices.Equal(got, want(e.Admin)) {
			t.Errorf("got %v", got)
		}
	})
	t.Run("paginated", func(t *testing.T) {
		if all := e.WalkList(f.reader, spacePath, 1); len(all) != 2 {
			t.Errorf("walked %d", len(all))
		}
	})
	t.Run("who cannot see the space gets 404", func(t *testing.T) {
		e.Get(f.outsid, spacePath).ExpectError(404)
		e.Get(f.outsid, crPathC).ExpectError(404)
		e.Get(e.Admin, crPath(f.space, "999")+"/commenters").ExpectError(404)
		e.Get(apitest.Anonymous, spacePath).ExpectError(401)
	})
}
