package httpapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/store"
)

// Page reads keep what never changes (decoded revisions, markdown by hash, what a token
// names) in memory, and nothing that does: a change made through another server sharing the
// database is seen by the very next read on this one.
func TestPageReadsSeeChangesMadeByAnotherServer(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	peer := e.Peer()
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"visibility": "private"})
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("p1", "", "One", "one", "# One\n\nFirst.\n").tree)
	page := "/v1/spaces/" + sp + "/content/page/p1?format=markdown"
	reader := e.Member("reader", auth.Read)
	grant(t, e, e.Admin, "/v1/spaces/"+sp, "read", []string{reader.ID}, nil)
	// Each read is made twice: the first may fill this server's caches, the second must not
	// be served from them.
	readTwice := func(a apitest.Actor, want int) *apitest.Resp {
		t.Helper()
		e.Get(a, page)
		return e.Get(a, page).Expect(want)
	}
	readTwice(reader, 200)

	t.Run("a head moved through another server is read at once", func(t *testing.T) {
		for i, text := range []string{"Second.", "Third."} {
			cr := newChangeRequest(t, peer, peer.Admin, sp, "edit")
			peer.Patch(peer.Admin, crPath(sp, cr)+"/pages/p1", map[string]any{"markdown": "# One\n\n" + text + "\n"}).Expect(200)
			peer.Post(peer.Admin, crPath(sp, cr)+"/merge", nil).Expect(200)
			if got := e.Get(reader, page).Expect(200).Str("markdown"); !strings.Contains(got, text) {
				t.Fatalf("edit %d: the next read answered %q, want the merged %q", i, got, text)
			}
			readTwice(reader, 200)
		}
	})
	t.Run("a grant removed through another server is refused at once", func(t *testing.T) {
		peer.Delete(peer.Admin, "/v1/spaces/"+sp+"/permissions/users/"+reader.ID).Expect(204)
		e.Get(reader, page).ExpectError(404)
		grant(t, peer, peer.Admin, "/v1/spaces/"+sp, "read", []string{reader.ID}, nil)
		readTwice(reader, 200)
	})
	t.Run("a member removed through another server is refused at once", func(t *testing.T) {
		peer.Delete(peer.Admin, "/v1/orgs/"+e.Org+"/members/"+reader.ID).Expect(204)
		e.Get(reader, page).ExpectError(404)
		e.Get(reader, page).ExpectError(404)
	})
	t.Run("a space deleted through another server is gone at once", func(t *testing.T) {
		readTwice(e.Admin, 200)
		peer.Delete(peer.Admin, "/v1/spaces/"+sp).Expect(204)
		e.Get(e.Admin, page).ExpectError(404)
		peer.Post(peer.Admin, "/v1/spaces/"+sp+"/restore", nil).Expect(200)
		readTwice(e.Admin, 200)
	})
	t.Run("a token deleted by another process is refused at once", func(t *testing.T) {
		holder := e.Member("holder", auth.Read)
		grant(t, e, e.Admin, "/v1/spaces/"+sp, "read", []string{holder.ID}, nil)
		readTwice(holder, 200)
		e.Get(holder, "/v1/user").Expect(200)
		deleteTokensElsewhere(t, e, holder.ID)
		e.Get(holder, page).ExpectError(401)
		e.Get(holder, "/v1/spaces/"+sp+"/content/page/absent").ExpectError(401)
		e.Get(holder, "/v1/spaces/absent/content/page/p1").ExpectError(401)
		e.Get(holder, "/v1/user").ExpectError(401)
		e.Post(holder, "/v1/orgs/"+e.Org+"/spaces", map[string]any{}).ExpectError(401)
		readTwice(e.Admin, 200)
	})
}

// A page read costs two statements (one round trip each on PostgreSQL): the space with the
// caller's role and token, and the page's markdown; one once the markdown is in memory.
func TestPageReadStatements(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	replaceContent(t, e, e.Admin, sp, generatedTree(8).tree)
	e.Get(e.Admin, "/v1/user").Expect(200) // this server has seen the token
	// The import's consequences (the search index, the other outbox consumers) are done
	// before counting, so that their statements do not land in a read's count.
	e.RunDue()
	db := e.App.DB
	// Background work (the search index's job) may run statements meanwhile, so the fewest
	// over several reads is what a read costs.
	fewest := func(pages []string) uint64 {
		t.Helper()
		least := ^uint64(0)
		for _, p := range pages {
			before := db.Statements()
			e.Get(e.Admin, "/v1/spaces/"+sp+"/content/page/"+p).Expect(200)
			least = min(least, db.Statements()-before)
		}
		return least
	}
	pages := []string{"p00001", "p00002", "p00003", "p00004", "p00005", "p00006", "p00007", "p00000"}
	if n := fewest(pages); n > 2 {
		t.Errorf("a first read of a page ran %d statements, want at most 2", n)
	}
	if n := fewest(pages); n > 1 {
		t.Errorf("a second read of a page ran %d statements, want at most 1", n)
	}
}

// deleteTokensElsewhere deletes a user's API tokens through a database handle of its own, as
// another process would (there is no route that deletes a token yet; this stands for the admin
// command or the other server that would), so this server learns of it only from the database.
func deleteTokensElsewhere(t *testing.T, e *apitest.Env, userID string) {
	t.Helper()
	other, err := store.Open(context.Background(), e.App.Config.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	err = other.Write(context.Background(), time.Now(), func(q *store.Q) error {
		_, err := q.Exec(context.Background(), `DELETE FROM api_tokens WHERE user_id = ?`, userID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
