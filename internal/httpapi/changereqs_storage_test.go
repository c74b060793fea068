package httpapi_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"docsd/internal/apitest"
)

// storedRevision is how the database holds one revision.
type storedRevision struct {
	base  sql.NullString
	depth int
	root  string
}

func revisionRow(t *testing.T, e *apitest.Env, id string) storedRevision {
	t.Helper()
	var r storedRevision
	err := e.App.DB.Read().QueryRow(context.Background(), `SELECT base_id, depth, pages_root FROM revisions WHERE id = ?`, id).
		Scan(&r.base, &r.depth, &r.root)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestChangeRequestRevisionsStoredAsChanges checks how a change request's working revisions
// are stored: an edit writes no trie node (only its page, its markdown and the revision's
// list of changes over the one before), chains stay bounded (every 32nd revision is stored
// whole again), and another process that has read nothing yet rebuilds each revision of the
// chain exactly, and merges it.
func TestChangeRequestRevisionsStoredAsChanges(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	head, _ := replaceContent(t, e, e.Admin, sp, generatedTree(300).tree) // a trie several levels deep
	cr := newChangeRequest(t, e, e.Admin, sp, "many edits")

	nodes := countObjects(t, e, "node")
	first := editPage(t, e, sp, cr, "p00150", map[string]any{"markdown": "Edited once.\n"})
	if got := countObjects(t, e, "node"); got != nodes {
		t.Fatalf("a one-page edit wrote %d trie nodes", got-nodes)
	}
	if r := revisionRow(t, e, first); r.base.String != head.ID || r.depth != 1 || r.root != "" {
		t.Fatalf("first edit stored as %+v, want changes over the head %s at depth 1", r, head.ID)
	}

	// Forty more revisions: edits, a new page, a move and a removal. The chain is stored
	// whole again when it would pass 32, then grows anew.
	revs := []string{first}
	created := e.Post(e.Admin, crPath(sp, cr)+"/pages", map[string]any{"title": "Added", "markdown": "Added page.\n"}).Expect(201)
	revs = append(revs, created.Str("revision"))
	addedID := created.Str("page")
	for i := range 38 {
		body := map[string]any{"markdown": fmt.Sprintf("Edit %d.\n", i)}
		if i == 20 {
			body = map[string]any{"title": "Moved", "parent": "p00200"}
		}
		revs = append(revs, editPage(t, e, sp, cr, fmt.Sprintf("p%05d", 100+i%7), body))
	}
	e.Delete(e.Admin, crPath(sp, cr)+"/pages/p00299").Expect(204)
	revs = append(revs, e.Get(e.Admin, crPath(sp, cr)).Expect(200).Str("revision"))
	deepest, whole := 0, 0
	for i, id := range revs {
		r := revisionRow(t, e, id)
		deepest = max(deepest, r.depth)
		if r.depth == 0 {
			whole++
			if r.base.Valid || r.root == "" {
				t.Fatalf("revision %d stored whole without its trie: %+v", i, r)
			}
		} else if r.base.String != cmpOr(revs, i-1, head.ID) {
			t.Fatalf("revision %d is stored over %s, want the one before", i, r.base.String)
		}
	}
	if deepest != 32 || whole != 1 {
		t.Fatalf("deepest chain %d, revisions stored whole %d: want 32 and 1", deepest, whole)
	}

	// A process with cold caches reads every revision as this one does.
	peer := e.Peer()
	for _, i := range []int{0, 1, 20, 31, 32, 33, len(revs) - 1} {
		path := "/v1/spaces/" + sp + "/revisions/" + revs[i] + "/pages"
		// The same body but for the server's own address in the pages' links.
		got := []byte(strings.ReplaceAll(string(peer.Get(peer.Admin, path).Expect(200).Body), peer.URL, e.URL))
		if want := e.Get(e.Admin, path).Expect(200).Body; string(got) != string(want) {
			t.Fatalf("revision %d's pages differ in the other process:\n%s\nwant\n%s", i, firstDiff(got, want), firstDiff(want, got))
		}
	}
	last := revs[len(revs)-1]
	if md := pageAt(peer, sp, last, "p00101").Expect(200).Str("markdown"); md != "Edit 36.\n" {
		t.Fatalf("p00101 at the last revision, read cold: %q", md)
	}
	pageAt(peer, sp, last, "p00299").ExpectError(404)
	if md := pageAt(peer, sp, revs[0], "p00150").Expect(200).Str("markdown"); md != "Edited once.\n" {
		t.Fatalf("p00150 at the first revision, read cold: %q", md)
	}

	// The other process merges the change request; this one sees the head as it made it.
	peer.Post(peer.Admin, crPath(sp, cr)+"/merge", nil).Expect(200)
	checks := map[string]string{"p00150": "Edited once.\n", "p00101": "Edit 36.\n", addedID: "Added page.\n", "p00000": "# Page 0\n\nSome text of page 0.\n"}
	for id, want := range checks {
		if md := pageAt(e, sp, "", id).Expect(200).Str("markdown"); md != want {
			t.Fatalf("%s after the merge: %q, want %q", id, md, want)
		}
	}
	pageAt(e, sp, "", "p00299").ExpectError(404)
	merged := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200)
	if want := e.Get(e.Admin, "/v1/spaces/"+sp+"/revisions/"+last+"/pages").Expect(200); string(merged.Body) != string(want.Body) {
		t.Fatal("the merged head's pages differ from the change request's last revision")
	}
	if r := revisionRow(t, e, headOf(e, sp)); r.depth != 0 || r.root == "" {
		t.Fatalf("the merged head is not stored whole: %+v", r)
	}
}

// cmpOr is revs[i], or fallback before the first.
func cmpOr(revs []string, i int, fallback string) string {
	if i < 0 {
		return fallback
	}
	return revs[i]
}

// firstDiff is a's text around where it first differs from b.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return string(a[max(i-200, 0):min(i+200, len(a))])
}
