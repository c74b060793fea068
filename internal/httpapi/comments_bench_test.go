package httpapi_test

import (
	"fmt"
	"testing"

	"docsd/internal/apitest"
)

// BenchmarkCommentList measures one page of 100 comments (each with a reply and a reaction)
// through the API, out of 1,000 in a space, with the answer cache bypassed by a fresh
// filter per request. Run: go test ./internal/httpapi -run '^$' -bench CommentList
func BenchmarkCommentList(b *testing.B) {
	e := apitest.New(b)
	sp := newSpace(b, e, e.Admin, e.Org, nil)
	base := "/v1/spaces/" + sp + "/comments"
	var last string
	for i := range 1000 {
		last = e.Post(e.Admin, base, map[string]any{"body": md(fmt.Sprintf("Comment %d with *some* text", i))}).Expect(200).Str("id")
		if i%10 == 0 {
			e.Post(e.Admin, base+"/"+last+"/replies", map[string]any{"body": md("a reply")}).Expect(200)
			e.Put(e.Admin, base+"/"+last, map[string]any{"addedReactions": []string{"👍"}}).Expect(200)
		}
	}
	for _, format := range []string{"markdown", "document"} {
		b.Run(format, func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				// A distinct, harmless query string per request so each one reaches the database.
				r := e.Get(e.Admin, fmt.Sprintf("%s?limit=100&format=%s&n=%d", base, format, i)).Expect(200)
				if len(r.IDs()) != 100 {
					b.Fatalf("%d items", len(r.IDs()))
				}
			}
		})
	}
	b.Run("get", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			e.Get(e.Admin, fmt.Sprintf("%s/%s?format=markdown&n=%d", base, last, i)).Expect(200)
		}
	})
}

// BenchmarkSpaceGetBaseline is the same request path for a space, the floor under a comment.
func BenchmarkSpaceGetBaseline(b *testing.B) {
	e := apitest.New(b)
	sp := newSpace(b, e, e.Admin, e.Org, nil)
	i := 0
	for b.Loop() {
		i++
		e.Get(e.Admin, fmt.Sprintf("/v1/spaces/%s?n=%d", sp, i)).Expect(200)
	}
}
