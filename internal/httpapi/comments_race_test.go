package httpapi_test

import (
	"fmt"
	"sync"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// Concurrent replies, reactions, resolves and deletes through the API leave every count
// true: replies and repliers, reaction counts and users, and the open-comment counts of the
// space and the change request. The load is bounded: a fixed number of requests per user.
func TestCommentCountsUnderConcurrency(t *testing.T) {
	t.Parallel()
	f := newCommentFixture(t)
	e := f.e
	const users, repliesEach, commentsEach = 6, 4, 3
	actors := make([]apitest.Actor, users)
	for i := range actors {
		actors[i] = e.Member(fmt.Sprintf("racer%d", i), auth.Comment)
	}
	// do sends one request from a worker goroutine and reports a wrong status without
	// stopping the test from the wrong goroutine.
	do := func(a apitest.Actor, method, path string, body any, want int) *apitest.Resp {
		r := e.Do(a, method, path, body)
		if r.Status != want {
			t.Errorf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Body)
		}
		return r
	}

	for name, base := range f.bases() {
		t.Run(name, func(t *testing.T) {
			thread := f.post(t, f.commenter, base, map[string]any{"body": md("Thread")})
			path := base + "/" + thread
			var wg sync.WaitGroup
			var mu sync.Mutex
			posted := map[string][]string{} // user → their comments (each later resolved or deleted)
			for _, a := range actors {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var mine []string
					for i := range repliesEach {
						do(a, "POST", path+"/replies", map[string]any{"body": md(fmt.Sprintf("reply %d", i))}, 200)
						// The same reaction twice, and one added then removed.
						do(a, "PUT", path, map[string]any{"addedReactions": []string{"👍"}}, 200)
						do(a, "PUT", path, map[string]any{"addedReactions": []string{"🎉"}}, 200)
						do(a, "PUT", path, map[string]any{"removedReactions": []string{"🎉"}}, 200)
					}
					for i := range commentsEach {
						r := do(a, "POST", base, map[string]any{"body": md(fmt.Sprintf("comment %d", i))}, 200)
						if r.Status == 200 {
							mine = append(mine, r.Str("id"))
						}
					}
					// Resolve the first twice in parallel with others; delete the second.
					if len(mine) == commentsEach {
						do(a, "PUT", base+"/"+mine[0], map[string]any{"resolved": true}, 200)
						do(a, "PUT", base+"/"+mine[0], map[string]any{"resolved": true}, 200)
						do(a, "DELETE", base+"/"+mine[1], nil, 204)
						do(a, "DELETE", base+"/"+mine[1], nil, 204)
					}
					mu.Lock()
					posted[a.ID] = mine
					mu.Unlock()
				}()
			}
			wg.Wait()
			if t.Failed() {
				t.FailNow()
			}

			c := e.Get(f.reader, path).Expect(200)
			if n := c.Num("replies"); n != users*repliesEach {
				t.Errorf("replies = %v, want %d", n, users*repliesEach)
			}
			repliers := c.Map()["repliers"].([]any)
			if len(repliers) != users {
				t.Errorf("%d repliers, want %d", len(repliers), users)
			}
			for _, x := range repliers {
				if n := x.(map[string]any)["count"]; n != float64(repliesEach) {
					t.Errorf("replier count %v, want %d", n, repliesEach)
				}
			}
			reactions := c.Map()["reactions"].([]any)
			if len(reactions) != 1 {
				t.Fatalf("reactions = %v, want only 👍", reactions)
			}
			thumbs := reactions[0].(map[string]any)
			seen := map[string]bool{}
			for _, u := range thumbs["users"].([]any) {
				seen[u.(map[string]any)["user"].(map[string]any)["id"].(string)] = true
			}
			if thumbs["count"] != float64(users) || len(seen) != users || len(thumbs["users"].([]any)) != users {
				t.Errorf("👍 = %v, want %d distinct users", thumbs, users)
			}
			if n := e.Get(f.reader, path+"/replies?limit=0").Expect(200).Num("count"); n != users*repliesEach {
				t.Errorf("listed replies = %v", n)
			}

			// Everyone resolves the thread at once, then reopens it at once: it moves the count
			// once each way.
			for _, resolved := range []bool{true, false, true, false} {
				var rwg sync.WaitGroup
				for _, a := range actors {
					rwg.Add(1)
					go func() {
						defer rwg.Done()
						do(a, "PUT", path, map[string]any{"resolved": resolved}, 200)
					}()
				}
				rwg.Wait()
			}

			// Each user left one open comment; the thread is open too.
			open := e.Get(f.reader, base+"?status=open&limit=0").Expect(200).Num("count")
			if open != users+1 {
				t.Errorf("open comments listed = %v, want %d", open, users+1)
			}
			owner := "/v1/spaces/" + f.space
			if base == f.crBase {
				owner = crPath(f.space, f.cr)
			}
			if n := e.Get(f.reader, owner).Expect(200).Num("comments"); n != open {
				t.Errorf("comments count = %v, but %v are open", n, open)
			}

			// Concurrent deletes of replies keep the counts true as well.
			all := e.WalkList(f.reader, path+"/replies", 1000)
			var dwg sync.WaitGroup
			for _, it := range all[:len(all)/2] {
				byID := it["postedBy"].(map[string]any)["id"].(string)
				var author apitest.Actor
				for _, a := range actors {
					if a.ID == byID {
						author = a
					}
				}
				dwg.Add(1)
				go func() {
					defer dwg.Done()
					do(author, "DELETE", path+"/replies/"+it["id"].(string), nil, 204)
				}()
			}
			dwg.Wait()
			c = e.Get(f.reader, path).Expect(200)
			total := 0.0
			for _, x := range c.Map()["repliers"].([]any) {
				total += x.(map[string]any)["count"].(float64)
			}
			if want := float64(len(all) - len(all)/2); c.Num("replies") != want || total != want {
				t.Errorf("after deletes: replies %v, sum of repliers %v, want %v", c.Num("replies"), total, want)
			}
		})
	}
}
