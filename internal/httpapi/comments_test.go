package httpapi_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/comment"
)

// commentPage is the markdown of the page comments are posted on: a paragraph and a table.
const commentPage = "Intro paragraph.\n\n| Name | Value |\n| --- | --- |\n| a | 1 |\n| b | 2 |\n"

// commentFixture is a space with one page, a change request on it, and the block keys of the
// page's paragraph and table.
type commentFixture struct {
	e                  *apitest.Env
	space, cr          string
	paragraph, table   string
	spaceBase, crBase  string
	reader, commenter  apitest.Actor
	commenter2, outsid apitest.Actor
}

func newCommentFixture(t *testing.T) *commentFixture {
	t.Helper()
	e := apitest.New(t)
	f := &commentFixture{e: e}
	f.space = newSpace(t, e, e.Admin, e.Org, map[string]any{"visibility": "unlisted"}) // members read it by their org role
	replaceContent(t, e, e.Admin, f.space, newTreeBuilder().doc("p1", "", "Page One", "one", commentPage).
		doc("p2", "", "Page Two", "two", "Second page.\n").tree)
	f.cr = newChangeRequest(t, e, e.Admin, f.space, "Review me")
	doc := e.Get(e.Admin, "/v1/spaces/"+f.space+"/content/page/p1?format=document").Expect(200)
	f.paragraph, f.table = doc.Str("document.nodes.0.key"), doc.Str("document.nodes.1.key")
	if doc.Str("document.nodes.1.type") != "table" {
		t.Fatalf("second block is %s, want a table", doc.Str("document.nodes.1.type"))
	}
	f.spaceBase = "/v1/spaces/" + f.space + "/comments"
	f.crBase = crPath(f.space, f.cr) + "/comments"
	f.reader = e.Member("reader", auth.Read)
	f.commenter = e.Member("commenter", auth.Comment)
	f.commenter2 = e.Member("commenter2", auth.Comment)
	f.outsid = e.NewUser("outsider")
	return f
}

// bases are the two comment families, by name.
func (f *commentFixture) bases() map[string]string {
	return map[string]string{"space": f.spaceBase, "change request": f.crBase}
}

func md(s string) map[string]any { return map[string]any{"markdown": s} }

// post posts a comment and returns its id.
func (f *commentFixture) post(t *testing.T, a apitest.Actor, base string, body map[string]any) string {
	t.Helper()
	return f.e.Post(a, base, body).Expect(200).Str("id")
}

func TestCommentPostTargets(t *testing.T) {
	t.Parallel()
	f := newCommentFixture(t)
	e := f.e
	head := e.Get(e.Admin, "/v1/spaces/"+f.space).Expect(200).Str("revision")
	crRev := e.Get(e.Admin, crPath(f.space, f.cr)).Expect(200).Str("revision")
	for name, base := range f.bases() {
		t.Run(name, func(t *testing.T) {
			wantRev, wantCR := head, ""
			if base == f.crBase {
				wantRev, wantCR = crRev, f.cr
			}
			check := func(r *apitest.Resp, page, node string, cell bool) {
				t.Helper()
				if r.Str("object") != "comment" || r.Str("target.space") != f.space || r.Str("target.revision") != wantRev {
					t.Errorf("comment %v", r.Map())
				}
				if got, _ := r.Get("target.changeRequest"); wantCR != "" && got != wantCR || wantCR == "" && got != nil {
					t.Errorf("target.changeRequest = %v, want %q", got, wantCR)
				}
				if got, _ := r.Get("target.page.id"); page != "" && got != page || page == "" && r.Has("target.page") {
					t.Errorf("target.page = %v, want %q", got, page)
				}
				if got, _ := r.Get("target.node.id"); node != "" && got != node || node == "" && r.Has("target.node") {
					t.Errorf("target.node = %v, want %q", got, node)
				}
				if cell != r.Has("target.tableCell") {
					t.Errorf("target.tableCell present = %v, want %v", r.Has("target.tableCell"), cell)
				}
				if r.Str("status") != "open" || r.Num("replies") != 0 || r.Has("resolvedAt") || r.Has("resolvedBy") ||
					r.Has("editedAt") || r.Str("postedBy.id") != f.commenter.ID {
					t.Errorf("new comment %v", r.Map())
				}
				if r.Str("urls.location") != e.URL+base+"/"+r.Str("id") {
					t.Errorf("urls.location = %s", r.Str("urls.location"))
				}
			}
			check(e.Post(f.commenter, base, map[string]any{"body": md("On the whole thing")}).Expect(200), "", "", false)
			check(e.Post(f.commenter, base, map[string]any{"page": "p1", "body": md("On a page")}).Expect(200), "p1", "", false)
			check(e.Post(f.commenter, base, map[string]any{"page": "p1", "node": f.paragraph, "body": md("On a block")}).Expect(200),
				"p1", f.paragraph, false)
			r := e.Post(f.commenter, base, map[string]any{"page": "p1", "node": f.table,
				"tableCell": map[string]any{"record": "r1", "definition": "c0"}, "body": md("On a cell")}).Expect(200)
			check(r, "p1", f.table, true)
			if r.Str("target.tableCell.record") != "r1" || r.Str("target.tableCell.definition") != "c0" {
				t.Errorf("tableCell = %v", r.Map()["target"])
			}
		})
	}

	t.Run("targets that do not exist are 400s naming the field", func(t *testing.T) {
		for _, tc := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"page": "nope", "body": md("x")}, "page"},
			{map[string]any{"node": f.paragraph, "body": md("x")}, "node"},
			{map[string]any{"page": "p2", "node": f.paragraph, "body": md("x")}, "node"},
			{map[string]any{"page": "p1", "node": "zzz", "body": md("x")}, "node"},
			{map[string]any{"page": "p1", "tableCell": map[string]any{"record": "r0", "definition": "c0"}, "body": md("x")}, "tableCell"},
			{map[string]any{"page": "p1", "node": f.paragraph, "tableCell": map[string]any{"record": "r0", "definition": "c0"}, "body": md("x")}, "tableCell"},
			{map[string]any{"page": "p1", "node": f.table, "tableCell": map[string]any{"record": "r9", "definition": "c0"}, "body": md("x")}, "tableCell"},
			{map[string]any{"page": "p1", "node": f.table, "tableCell": map[string]any{"record": "r0"}, "body": md("x")}, "tableCell"},
			{map[string]any{"page": strings.Repeat("p", comment.IDMax+1), "body": md("x")}, "page"},
			{map[string]any{"page": "p1", "color": "red", "body": md("x")}, "color"},
		} {
			for _, base := range f.bases() {
				e.Post(f.commenter, base, tc.body).Expect(400).ExpectMessage(tc.field)
			}
		}
	})

	t.Run("a page added in the change request is a target there only", func(t *testing.T) {
		page := e.Post(e.Admin, crPath(f.space, f.cr)+"/pages", map[string]any{"title": "Draft", "markdown": "draft\n"}).
			Expect(201).Str("page")
		e.Post(f.commenter, f.crBase, map[string]any{"page": page, "body": md("x")}).Expect(200)
		e.Post(f.commenter, f.spaceBase, map[string]any{"page": page, "body": md("x")}).Expect(400).ExpectMessage("page")
	})
}

func TestCommentBodies(t *testing.T) {
	t.Parallel()
	f := newCommentFixture(t)
	e := f.e
	for name, base := range f.bases() {
		t.Run(name, func(t *testing.T) {
			id := f.post(t, f.commenter, base, map[string]any{"body": md("Hello **world**")})
			doc := e.Get(f.reader, base+"/"+id).Expect(200)
			if doc.Str("body.document.object") != "document" || doc.Str("body.document.nodes.0.type") != "paragraph" || doc.Has("body.markdown") {
				t.Errorf("default format: %v", doc.Map()["body"])
			}
			if got := e.Get(f.reader, base+"/"+id+"?format=markdown").Expect(200).Str("body.markdown"); got != "Hello **world**" {
				t.Errorf("markdown = %q", got)
			}
			e.Get(f.reader, base+"/"+id+"?format=html").Expect(400).ExpectMessage("format", "document", "markdown")

			for _, tc := range []struct {
				body  any
				field string
			}{
				{map[string]any{}, "body"},
				{map[string]any{"body": nil}, "body"},
				{map[string]any{"body": map[string]any{}}, "body.markdown"},
				{map[string]any{"body": md("")}, "body.markdown"},
				{map[string]any{"body": md("  \n ")}, "body.markdown"},
				{map[string]any{"body": md(strings.Repeat("x", comment.BodyMax+1))}, "20000"},
				{map[string]any{"body": map[string]any{"markdown": 3}}, "body.markdown"},
				{map[string]any{"body": map[string]any{"document": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}}}, "body.document"},
				{map[string]any{"body": map[string]any{"markdown": "x", "html": "y"}}, "body.html"},
				{map[string]any{"body": "text"}, "body"},
			} {
				e.Post(f.commenter, base, tc.body).Expect(400).ExpectMessage(tc.field)
				e.Put(f.commenter, base+"/"+id, tc.body).Expect(func() int {
					if m, ok := tc.body.(map[string]any); ok && len(m) == 0 {
						return 200 // an empty update changes nothing
					}
					return 400
				}())
				e.Post(f.commenter, base+"/"+id+"/replies", tc.body).Expect(400).ExpectMessage(tc.field)
			}
			long := strings.Repeat("é", comment.BodyMax)
			r := e.Post(f.commenter, base+"?format=markdown", map[string]any{"body": md(long)}).Expect(200)
			if r.Str("body.markdown") != long {
				t.Error("a body of exactly the maximum length was not kept whole")
			}

			e.Clock.Advance(time.Minute)
			u := e.Put(f.commenter, base+"/"+id+"?format=markdown", map[string]any{"body": md("Edited")}).Expect(200)
			if u.Str("body.markdown") != "Edited" || u.Str("editedAt") == "" || u.Str("editedAt") == u.Str("postedAt") {
				t.Errorf("after edit: %v", u.Map())
			}
		})
	}
}

func TestCommentResolveAndReactions(t *testing.T) {
	t.Parallel()
	f := newCommentFixture(t)
	e := f.e
	for name, base := range f.bases() {
		t.Run(name, func(t *testing.T) {
			id := f.post(t, f.commenter, base, map[string]any{"body": md("Resolve me")})
			e.Clock.Advance(time.Second)
			r := e.Put(f.commenter2, base+"/"+id, map[string]any{"resolved": true}).Expect(200)
			if r.Str("status") != "resolved" || r.Str("resolvedBy.id") != f.commenter2.ID || r.Str("resolvedAt") == "" || r.Has("editedAt") {
				t.Errorf("resolved: %v", r.Map())
			}
			again := e.Put(f.commenter, base+"/"+id, map[string]any{"resolved": true}).Expect(200)
			if again.Str("resolvedBy.id") != f.commenter2.ID || again.Str("resolvedAt") != r.Str("resolvedAt") {
				t.Errorf("resolving a resolved comment changed who and when: %v", again.Map())
			}
			open := e.Put(f.commenter, base+"/"+id, map[string]any{"resolved": false}).Expect(200)
			if open.Str("status") != "open" || open.Has("resolvedAt") || open.Has("resolvedBy") {
				t.Errorf("reopened: %v", open.Map())
			}

			// Reactions: one per user and emoji, idempotent, counted and listed.
			e.Put(f.commenter, base+"/"+id, map[string]any{"addedReactions": []string{"👍", "🎉"}}).Expect(200)
			e.Put(f.commenter, base+"/"+id, map[string]any{"addedReactions": []string{"👍"}}).Expect(200)
			e.Clock.Advance(time.Second)
			r = e.Put(f.commenter2, base+"/"+id, map[string]any{"addedReactions": []string{"👍"}}).Expect(200)
			reactions := r.Map()["reactions"].([]any)
			if len(reactions) != 2 {
				t.Fatalf("reactions = %v", reactions)
			}
			var thumbs map[string]any
			for _, x := range reactions {
				if x.(map[string]any)["emoji"] == "👍" {
					thumbs = x.(map[string]any)
				}
			}
			if thumbs == nil {
				t.Fatalf("no 👍 in %v", reactions)
			}
			users := thumbs["users"].([]any)
			if thumbs["emoji"] != "👍" || thumbs["count"] != 2.0 || len(users) != 2 ||
				users[0].(map[string]any)["user"].(map[string]any)["id"] != f.commenter.ID ||
				users[1].(map[string]any)["user"].(map[string]any)["id"] != f.commenter2.ID ||
				users[0].(map[string]any)["reactedAt"] == nil {
				t.Errorf("👍 = %v", thumbs)
			}
			r = e.Put(f.commenter, base+"/"+id, map[string]any{"removedReactions": []string{"👍", "🎉", "🚀"}}).Expect(200)
			reactions = r.Map()["reactions"].([]any)
			if len(reactions) != 1 || reactions[0].(map[string]any)["count"] != 1.0 {
				t.Errorf("after removing: %v", reactions)
			}
			// Joined sequences are one emoji.
			e.Put(f.commenter, base+"/"+id, map[string]any{"addedReactions": []string{"👨‍👩‍👧", "👍🏽", "🇫🇷", "1️⃣", "❤️"}}).Expect(200)

			for _, tc := range []struct {
				body  map[string]any
				field string
			}{
				{map[string]any{"addedReactions": []string{"ok"}}, "addedReactions[0]"},
				{map[string]any{"addedReactions": []string{""}}, "addedReactions[0]"},
				{map[string]any{"addedReactions": []string{"👍", "1"}}, "addedReactions[1]"},
				{map[string]any{"removedReactions": []string{strings.Repeat("👍", comment.EmojiMax+1)}}, "removedReactions[0]"},
				{map[string]any{"addedReactions": []string{"👍"}, "removedReactions": []string{"👍"}}, "removedReactions"},
				{map[string]any{"addedReactions": strings.Split(strings.Repeat("👍,", comment.ReactionsMax+1), ",")[:comment.ReactionsMax+1]}, "20"},
				{map[string]any{"resolved": "yes"}, "resolved"},
			} {
				e.Put(f.commenter, base+"/"+id, tc.body).Expect(400).ExpectMessage(tc.field)
			}
			e.Put(f.commenter, base+"/"+id, map[string]any{"addedReactions": strings.Split(strings.Repeat("👍,", comment.ReactionsMax), ",")[:comment.ReactionsMax]}).Expect(200)
		})
	}
}

// The API's Emoji is a "Unicode codepoint or character": both name the same reaction.
func TestCommentReactionCodepoints(t *testing.T) {
	t.Parallel()
	f := newCommentFixture(t)
	e := f.e
	for name, base := range f.bases() {
		t.Run(name, func(t *testing.T) {
			id := f.post(t, f.commenter, base, map[string]any{"body": md("React to me")})
			path := base + "/" + id
			reactions := func(r *apitest.Resp) map[string]float64 {
				out := map[string]float64{}
				for _, x := range r.Map()["reactions"].([]any) {
					x := x.(map[string]any)
					if _, dup := out[x["emoji"].(string)]; dup {
						t.Errorf("%v listed twice", x["emoji"])
					}
					out[x["emoji"].(string)] = x["count"].(float64)
				}
				return out
			}
			e.Put(f.commenter, path, map[string]any{"addedReactions": []string{"1f44d"}}).Expect(200)
			r := e.Put(f.commenter, path, map[string]any{"addedReactions": []string{"👍"}}).Expect(200)
			if got := reactions(r); len(got) != 1 || got["👍"] != 1 {
				t.Errorf("1f44d then 👍 by one user: %v, want one 👍", got)
			}
			r = e.Put(f.commenter2, path, map[string]any{"addedReactions": []string{"1F44D", "1f44d-1f3fd", "1f468-200d-1f469-200d-1f467"}}).Expect(200)
			if got := reactions(r); len(got) != 3 || got["👍"] != 2 || got["👍🏽"] != 1 || got["👨\u200d👩\u200d👧"] != 1 {
				t.Errorf("codepoint sequences: %v", got)
			}
			if got := reactions(e.Get(f.reader, path).Expect(200)); got["👍"] != 2 || len(got) != 3 {
				t.Errorf("read back: %v", got)
			}
			// Removing by either form removes it.
			e.Put(f.commenter, path, map[string]any{"removedReactions": []string{"1f44d"}}).Expect(200)
			r = e.Put(f.commenter2, path, map[string]any{"removedReactions": []string{"👍", "👍🏽", "1f468-200d-1f469-200d-1f467"}}).Expect(200)
			if got := reactions(r); len(got) != 0 {
				t.Errorf("after removing: %v", got)
			}
			for _, tc := range []struct {
				body  map[string]any
				field string
			}{
				{map[string]any{"addedReactions": []string{"👍", "41"}}, "addedReactions[1]"},      // "A"
				{map[string]any{"addedReactions": []string{"d800"}}, "addedReactions[0]"},         // a surrogate
				{map[string]any{"removedReactions": []string{"110000"}}, "removedReactions[0]"},   // beyond Unicode
				{map[string]any{"removedReactions": []string{"1f44d-zz"}}, "removedReactions[0]"}, // not hex
				{map[string]any{"addedReactions": []string{"1f44d"}, "removedReactions": []string{"👍"}}, "removedReactions"},
			} {
				e.Put(f.commenter, path, tc.body).Expect(400).ExpectMessage(tc.field)
			}
		})
	}
}

func TestCommentPermissions(t *testing.T) {
	t.Parallel()
	f := newCommentFixture(t)
	e := f.e
	for name, base := range f.bases() {
		t.Run(name, func(t *testing.T) {
			id := f.post(t, f.commenter, base, map[string]any{"body": md("Mine")})
			path := base + "/" + id
			perms := func(a apitest.Actor) string {
				r := e.Get(a, path).Expect(200)
				return fmt.Sprintf("%v %v %v %v", r.Bool("permissions.view"), r.Bool("permissions.edit"),
					r.Bool("permissions.reply"), r.Bool("permissions.delete"))
			}
			for a, want := range map[*apitest.Actor]string{
				&f.commenter: "true true true true", &f.commenter2: "true false true false",
				&f.reader: "true false false false", &e.Admin: "true false true true",
			} {
				if got := perms(*a); got != want {
					t.Errorf("%s: permissions (view edit reply delete) = %s, want %s", a.Name, got, want)
				}
			}
			if got := e.Get(f.reader, base).Expect(200).Items()[0]["permissions"].(map[string]any)["reply"]; got != false {
				t.Errorf("listed permissions.reply for a reader = %v", got)
			}

			// Readers read but cannot post, reply, react or resolve.
			e.Post(f.reader, base, map[string]any{"body": md("x")}).Expect(403).ExpectMessage("comment")
			e.Post(f.reader, path+"/replies", map[string]any{"body": md("x")}).Expect(403)
			e.Put(f.reader, path, map[string]any{"addedReactions": []string{"👍"}}).Expect(403)
			e.Put(f.reader, path, map[string]any{"resolved": true}).Expect(403)
			e.Delete(f.reader, path).Expect(403)
			// Another commenter may resolve and react, not edit or delete.
			e.Put(f.commenter2, path, map[string]any{"body": md("theirs")}).Expect(403).ExpectMessage("body")
			e.Delete(f.commenter2, path).Expect(403)
			e.Put(f.commenter2, path, map[string]any{"resolved": true, "addedReactions": []string{"👀"}}).Expect(200)
			// Outsiders see nothing.
			for _, rq := range []struct{ method, path string }{{"GET", base}, {"POST", base}, {"GET", path}, {"PUT", path},
				{"DELETE", path}, {"GET", path + "/replies"}, {"POST", path + "/replies"}} {
				e.Do(f.outsid, rq.method, rq.path, map[string]any{"body": md("x")}).Expect(404)
			}
			if got := e.Get(e.Admin, path+"?format=markdown").Expect(200).Str("body.markdown"); got != "Mine" {
				t.Errorf("body changed by refused edits: %q", got)
			}
			// Space admins delete anyone's comment; deleting again is 204 too.
			e.Delete(e.Admin, path).Expect(204)
			e.Delete(e.Admin, path).Expect(204)
			e.Delete(f.commenter, path).Expect(204)
			e.Get(e.Admin, path).Expect(404)
			e.Put(f.commenter, path, map[string]any{"resolved": true}).Expect(404)
			// Authors delete their own.
			own := f.post(t, f.commenter2, base, map[string]any{"body": md("bye")})
			e.Delete(f.commenter2, base+"/"+own).Expect(204)
		})
	}

	t.Run("comments stay in their container", func(t *testing.T) {
		sc := f.post(t, f.commenter, f.spaceBase, map[string]any{"body": md("space")})
		cc := f.post(t, f.commenter, f.crBase, map[string]any{"body": md("cr")})
		other := newChangeRequest(t, e, e.Admin, f.space, "Other")
		e.Get(e.Admin, f.crBase+"/"+sc).Expect(404)
		e.Get(e.Admin, f.spaceBase+"/"+cc).Expect(404)
		e.Get(e.Admin, crPath(f.space, other)+"/comments/"+cc).Expect(404)
		e.Delete(e.Admin, f.spaceBase+"/"+cc).Expect(204)
		e.Get(e.Admin, f.crBase+"/"+cc).Expect(200)
		number := fmt.Sprint(e.Get(e.Admin, crPath(f.space, f.cr)).Expect(200).Num("number"))
		if got := e.Get(e.Admin, crPath(f.space, number)+"/comments/"+cc).Expect(200).Str("id"); got != cc {
			t.Errorf("by number: %s", got)
		}
		e.Get(e.Admin, crPath(f.space, "999")+"/comments").Expect(404)
		e.Get(e.Admin, "/v1/spaces/nope/comments").Expect(404)
	})
}

func TestCommentReplies(t *testing.T) {
	t.Parallel()
	f := newCommentFixture(t)
	e := f.e
	for name, base := range f.bases() {
		t.Run(name, func(t *testing.T) {
			id := f.post(t, f.commenter, base, map[string]any{"body": md("Thread")})
			path := base + "/" + id
			reply := func(a apitest.Actor, text string) string {
				t.Helper()
				e.Clock.Advance(time.Second)
				r := e.Post(a, path+"/replies?format=markdown", map[string]any{"body": md(text)}).Expect(200)
				if r.Str("object") != "comment-reply" || r.Str("body.markdown") != text || r.Str("postedBy.id") != a.ID ||
					r.Has("replies") || r.Has("target") || r.Has("status") {
					t.Errorf("reply %v", r.Map())
				}
				if r.Str("urls.location") != e.URL+path+"/replies/"+r.Str("id") {
					t.Errorf("reply location %s", r.Str("urls.location"))
				}
				return r.Str("id")
			}
			r1 := reply(f.commenter2, "one")
			r2 := reply(f.commenter2, "two")
			r3 := reply(e.Admin, "three")
			c := e.Get(f.reader, path).Expect(200)
			if c.Num("replies") != 3 {
				t.Errorf("replies = %v", c.Num("replies"))
			}
			repliers := c.Map()["repliers"].([]any)
			counts := map[string]float64{}
			for _, x := range repliers {
				m := x.(map[string]any)
				counts[m["user"].(map[string]any)["id"].(string)] = m["count"].(float64)
				if m["updatedAt"] == nil {
					t.Errorf("replier without updatedAt: %v", m)
				}
			}
			if len(counts) != 2 || counts[f.commenter2.ID] != 2 || counts[e.Admin.ID] != 1 {
				t.Errorf("repliers = %v", repliers)
			}

			if ids := e.Get(f.reader, path+"/replies").Expect(200).IDs(); strings.Join(ids, ",") != r1+","+r2+","+r3 {
				t.Errorf("replies in order %v", ids)
			}
			walked := e.WalkList(f.reader, path+"/replies", 1)
			if len(walked) != 3 {
				t.Errorf("walked %d replies", len(walked))
			}
			g := e.Get(f.reader, path+"/replies/"+r1).Expect(200)
			if g.Str("body.document.object") != "document" || g.Bool("permissions.edit") || g.Bool("permissions.reply") {
				t.Errorf("reply as reader %v", g.Map())
			}
			if g := e.Get(f.commenter2, path+"/replies/"+r1).Expect(200); !g.Bool("permissions.edit") || !g.Bool("permissions.delete") {
				t.Errorf("reply as its author %v", g.Map())
			}

			// Update: the author edits, commenters react, nobody resolves a reply.
			e.Put(f.commenter, path+"/replies/"+r1, map[string]any{"body": md("nope")}).Expect(403)
			u := e.Put(f.commenter2, path+"/replies/"+r1+"?format=markdown", map[string]any{"body": md("one, edited")}).Expect(200)
			if u.Str("body.markdown") != "one, edited" || !u.Has("editedAt") {
				t.Errorf("edited reply %v", u.Map())
			}
			rr := e.Put(f.commenter, path+"/replies/"+r1, map[string]any{"addedReactions": []string{"👍"}}).Expect(200)
			if rr.Num("reactions.0.count") != 1 || rr.Str("reactions.0.users.0.user.id") != f.commenter.ID {
				t.Errorf("reply reactions %v", rr.Map()["reactions"])
			}
			if n := len(e.Get(f.reader, path).Expect(200).Map()["reactions"].([]any)); n != 0 {
				t.Errorf("a reaction to a reply shows on its comment: %d", n)
			}
			e.Put(f.reader, path+"/replies/"+r1, map[string]any{"addedReactions": []string{"👍"}}).Expect(403)
			e.Put(f.commenter2, path+"/replies/"+r1, map[string]any{"resolved": true}).Expect(400).ExpectMessage("resolved")

			// Delete: the author or an admin; counts follow; deleting again is 204.
			e.Delete(f.commenter, path+"/replies/"+r2).Expect(403)
			e.Delete(f.commenter2, path+"/replies/"+r2).Expect(204)
			e.Delete(e.Admin, path+"/replies/"+r1).Expect(204)
			e.Delete(e.Admin, path+"/replies/"+r1).Expect(204)
			e.Get(e.Admin, path+"/replies/"+r1).Expect(404)
			c = e.Get(f.reader, path).Expect(200)
			repliers = c.Map()["repliers"].([]any)
			if c.Num("replies") != 1 || len(repliers) != 1 || c.Str("repliers.0.user.id") != e.Admin.ID || c.Num("repliers.0.count") != 1 {
				t.Errorf("after deleting replies: replies %v repliers %v", c.Num("replies"), repliers)
			}
			if n := e.Get(f.reader, path+"/replies").Expect(200).Num("count"); n != 1 {
				t.Errorf("reply list count %v", n)
			}

			// Replies of a resolved comment are allowed; of a missing comment, 404.
			e.Put(f.commenter, path, map[string]any{"resolved": true}).Expect(200)
			reply(f.commenter, "after resolving")
			e.Post(f.commenter, base+"/missing/replies", map[string]any{"body": md("x")}).Expect(404)
			e.Get(f.reader, base+"/missing/replies").Expect(404)
			e.Delete(e.Admin, base+"/missing/replies/"+r3).Expect(404)
			// A reply is found only under its own comment.
			other := f.post(t, f.commenter, base, map[string]any{"body": md("other")})
			e.Get(f.reader, base+"/"+other+"/replies/"+r3).Expect(404)
			e.Delete(e.Admin, base+"/"+other+"/replies/"+r3).Expect(204)
			e.Get(f.reader, path+"/replies/"+r3).Expect(200)
			// Deleting the comment takes its replies.
			e.Delete(f.commenter, path).Expect(204)
			e.Get(f.reader, path+"/replies/"+r3).Expect(404)
		})
	}
}

func TestCommentListFilters(t *testing.T) {
	t.Parallel()
	f := newCommentFixture(t)
	e := f.e
	for name, base := range f.bases() {
		t.Run(name, func(t *testing.T) {
			var ids []string // in posting order
			authors := []apitest.Actor{f.commenter, f.commenter2, e.Admin}
			for i := 0; i < 9; i++ {
				e.Clock.Advance(time.Second)
				body := map[string]any{"body": md(fmt.Sprintf("c%d", i))}
				if i%3 == 0 {
					body["page"] = "p1"
				} else if i%3 == 1 {
					body["page"] = "p2"
				}
				ids = append(ids, f.post(t, authors[i%3], base, body))
			}
			for _, i := range []int{1, 4, 5} {
				e.Put(e.Admin, base+"/"+ids[i], map[string]any{"resolved": true}).Expect(200)
			}
			pick := func(is ...int) string {
				out := []string{}
				for _, i := range is {
					out = append(out, ids[i])
				}
				return strings.Join(out, ",")
			}
			for _, tc := range []struct {
				query string
				want  string
			}{
				{"", pick(8, 7, 6, 5, 4, 3, 2, 1, 0)},
				{"?order=desc", pick(8, 7, 6, 5, 4, 3, 2, 1, 0)},
				{"?order=asc", pick(0, 1, 2, 3, 4, 5, 6, 7, 8)},
				{"?status=all", pick(8, 7, 6, 5, 4, 3, 2, 1, 0)},
				{"?status=open&order=asc", pick(0, 2, 3, 6, 7, 8)},
				{"?status=resolved", pick(5, 4, 1)},
				{"?targetPage=p1&order=asc", pick(0, 3, 6)},
				{"?targetPage=p2&status=open", pick(7)},
				{"?targetPage=nope", ""},
				{"?authors=" + f.commenter2.ID + "&order=asc", pick(1, 4, 7)},
				{"?authors=" + f.commenter2.ID + "&authors=" + e.Admin.ID + "&order=asc", pick(1, 2, 4, 5, 7, 8)},
				{"?authors=" + f.commenter.ID + "," + e.Admin.ID + "&status=open&order=asc", pick(0, 2, 3, 6, 8)},
				{"?authors[]=" + f.commenter.ID + "&targetPage=p1", pick(6, 3, 0)},
			} {
				r := e.Get(f.reader, base+tc.query).Expect(200)
				if got := strings.Join(r.IDs(), ","); got != tc.want {
					t.Errorf("%s: got %s, want %s", tc.query, got, tc.want)
				}
				if n := int(r.Num("count")); n != len(r.IDs()) {
					t.Errorf("%s: count %d for %d items", tc.query, n, len(r.IDs()))
				}
				// Walking in pages of 2 visits the same items in the same order.
				sep := "?"
				if tc.query != "" {
					sep = ""
				}
				var walked []string
				for _, it := range e.WalkList(f.reader, base+tc.query+sep, 2) {
					walked = append(walked, it["id"].(string))
				}
				if strings.Join(walked, ",") != tc.want {
					t.Errorf("%s: walked %v", tc.query, walked)
				}
			}
			md := e.Get(f.reader, base+"?format=markdown&order=asc&limit=1").Expect(200)
			if md.Str("items.0.body.markdown") != "c0" || md.Num("count") != 9 || !md.Has("next.page") {
				t.Errorf("markdown list %v", md.Map())
			}

			for _, tc := range []struct{ query, field string }{
				{"?order=up", "order"}, {"?status=closed", "status"}, {"?format=text", "format"},
				{"?limit=1001", "1000"}, {"?limit=-1", "limit"},
				{"?targetPage=" + strings.Repeat("p", comment.IDMax+1), "targetPage"},
				{"?authors=" + strings.Repeat("u", comment.IDMax+1), "authors"},
				{"?authors=" + strings.TrimSuffix(strings.Repeat("u,", comment.AuthorsMax+1), ","), "authors"},
				{"?page=garbage", "page"},
			} {
				e.Get(f.reader, base+tc.query).Expect(400).ExpectMessage(tc.field)
			}
			e.Get(f.reader, base+"?authors="+strings.TrimSuffix(strings.Repeat("u,", comment.AuthorsMax), ",")).Expect(200)
			e.Get(f.reader, base+"?limit=1000").Expect(200)
			// A cursor belongs to its filters.
			next := e.Get(f.reader, base+"?status=open&limit=1").Expect(200).Str("next.page")
			e.Get(f.reader, base+"?status=resolved&limit=1&page="+url.QueryEscape(next)).Expect(400).ExpectMessage("page")
			e.Get(f.reader, base+"?status=open&limit=1&page="+url.QueryEscape(next)).Expect(200)
		})
	}
}

func TestCommentCounts(t *testing.T) {
	t.Parallel()
	f := newCommentFixture(t)
	e := f.e
	counts := func() (sp, cr float64) {
		t.Helper()
		sp = e.Get(f.reader, "/v1/spaces/"+f.space).Expect(200).Num("comments")
		cr = e.Get(f.reader, crPath(f.space, f.cr)).Expect(200).Num("comments")
		return
	}
	expect := func(wantSpace, wantCR float64) {
		t.Helper()
		if sp, cr := counts(); sp != wantSpace || cr != wantCR {
			t.Errorf("comments: space %v, change request %v; want %v, %v", sp, cr, wantSpace, wantCR)
		}
	}
	expect(0, 0)
	a := f.post(t, f.commenter, f.spaceBase, map[string]any{"body": md("a")})
	b := f.post(t, f.commenter, f.spaceBase, map[string]any{"body": md("b")})
	c := f.post(t, f.commenter, f.crBase, map[string]any{"body": md("c")})
	expect(2, 1)
	e.Put(f.commenter, f.spaceBase+"/"+a, map[string]any{"resolved": true}).Expect(200)
	e.Put(f.commenter, f.spaceBase+"/"+a, map[string]any{"resolved": true}).Expect(200)
	expect(1, 1)
	e.Put(f.commenter, f.spaceBase+"/"+a, map[string]any{"resolved": false}).Expect(200)
	e.Put(f.commenter, f.spaceBase+"/"+a, map[string]any{"resolved": false}).Expect(200)
	expect(2, 1)
	e.Put(f.commenter, f.crBase+"/"+c, map[string]any{"resolved": true}).Expect(200)
	expect(2, 0)
	e.Delete(f.commenter, f.crBase+"/"+c).Expect(204) // resolved: the count stays
	expect(2, 0)
	e.Post(f.commenter, f.spaceBase+"/"+b+"/replies", map[string]any{"body": md("replies are not comments")}).Expect(200)
	expect(2, 0)
	e.Delete(f.commenter, f.spaceBase+"/"+b).Expect(204)
	expect(1, 0)
	listed := e.Get(f.reader, changeRequestsPath(f.space)).Expect(200).Items()[0]["comments"]
	if listed != 0.0 {
		t.Errorf("listed change request comments = %v", listed)
	}
	f.post(t, f.commenter, f.crBase, map[string]any{"body": md("d")})
	if n := e.Get(f.reader, changeRequestsPath(f.space)).Expect(200).Items()[0]["comments"]; n != 1.0 {
		t.Errorf("listed change request comments = %v, want 1", n)
	}
	var listedSpace float64
	for _, it := range e.WalkList(f.reader, "/v1/orgs/"+e.Org+"/spaces", 100) {
		if it["id"] == f.space {
			listedSpace = it["comments"].(float64)
		}
	}
	if listedSpace != 1 {
		t.Errorf("listed space comments = %v, want 1", listedSpace)
	}
	// A duplicate's content comes along, not its discussions.
	dup := e.Post(e.Admin, "/v1/spaces/"+f.space+"/duplicate", nil).Expect(201)
	if dup.Num("comments") != 0 || e.Get(e.Admin, "/v1/spaces/"+dup.Str("id")+"/comments").Expect(200).Num("count") != 0 {
		t.Errorf("duplicate has comments: %v", dup.Map())
	}
	// Locking a space locks its content, not its discussions.
	e.Patch(e.Admin, "/v1/spaces/"+f.space, map[string]any{"editMode": "locked"}).Expect(200)
	f.post(t, f.commenter, f.spaceBase, map[string]any{"body": md("still open for discussion")})
	expect(2, 1)
}
