package httpapi_test

import (
	"math/rand"
	"slices"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func TestSpaceMove(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	colA := newCollection(t, e, e.Admin, e.Org, map[string]any{"title": "A"})
	colB := newCollection(t, e, e.Admin, e.Org, map[string]any{"title": "B"})
	s1 := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": colA})
	s2 := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": colA})
	s3 := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": colA, "visibility": "unlisted"})
	move := func(a apitest.Actor, id string, body any) *apitest.Resp {
		t.Helper()
		return e.Post(a, "/v1/spaces/"+id+"/move", body)
	}
	inA := func() []string { return e.Get(e.Admin, "/v1/collections/"+colA+"/spaces").Expect(200).IDs() }

	move(e.Admin, s3, map[string]any{"position": map[string]any{"before": ptr("space", s1)}}).Expect(200)
	expectIDs(t, inA(), s3, s1, s2)
	move(e.Admin, s3, map[string]any{"position": map[string]any{"after": ptr("space", s1), "before": ptr("space", s2)}}).Expect(200)
	expectIDs(t, inA(), s1, s3, s2)

	r := move(e.Admin, s2, map[string]any{"parent": colB}).Expect(200)
	if r.Str("parent") != colB || r.Str("visibility") != "in-collection" {
		t.Errorf("moved space wrong: %s", r.Body)
	}
	expectIDs(t, inA(), s1, s3)
	expectIDs(t, e.Get(e.Admin, "/v1/collections/"+colB+"/spaces").Expect(200).IDs(), s2)

	t.Run("leaving collections ends in-collection", func(t *testing.T) {
		r := move(e.Admin, s2, map[string]any{"parent": nil}).Expect(200)
		if r.Has("parent") || r.Str("visibility") != "private" {
			t.Errorf("top-level space wrong: %s", r.Body)
		}
		if e.Get(e.Admin, "/v1/spaces/"+s2).Expect(200).Str("visibility") != "private" {
			t.Error("visibility not stored")
		}
		r = move(e.Admin, s3, map[string]any{"parent": nil}).Expect(200)
		if r.Str("visibility") != "unlisted" {
			t.Errorf("other visibilities stay: %s", r.Body)
		}
		move(e.Admin, s3, map[string]any{"parent": colA, "position": map[string]any{"after": ptr("space", s1)}}).Expect(200)
		expectIDs(t, inA(), s1, s3)
	})
	t.Run("next to collections at the top level", func(t *testing.T) {
		move(e.Admin, s2, map[string]any{"position": map[string]any{"before": ptr("collection", colA)}}).Expect(200)
		ids := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/spaces").Expect(200).IDs()
		expectIDs(t, ids, s2, s1, s3) // s2 at the top, then colA's spaces in order
	})
	t.Run("operation that changes nothing is 409", func(t *testing.T) {
		move(e.Admin, s3, map[string]any{"parent": colA}).Expect(409)
		move(e.Admin, s3, map[string]any{"position": map[string]any{"after": ptr("space", s1)}}).Expect(409)
		move(e.Admin, s1, map[string]any{"position": map[string]any{"before": ptr("space", s3)}}).Expect(409)
		move(e.Admin, s2, map[string]any{"parent": nil}).Expect(409)
	})
	t.Run("invalid position or collection is 400", func(t *testing.T) {
		other := newCollection(t, e, e.Admin, e.NewOrg(e.Admin, "Other"), nil)
		cases := []struct {
			name string
			body any
			msg  []string
		}{
			{"empty body", map[string]any{}, []string{"parent", "position"}},
			{"empty position", map[string]any{"position": map[string]any{}}, []string{"position"}},
			{"unknown parent", map[string]any{"parent": "nope"}, []string{"parent", "nope"}},
			{"empty parent", map[string]any{"parent": ""}, []string{"parent"}},
			{"parent of another organization", map[string]any{"parent": other}, []string{"parent"}},
			{"position at another level", map[string]any{"position": map[string]any{"after": ptr("space", s2)}}, []string{"position.after", s2}},
			{"position on itself", map[string]any{"position": map[string]any{"before": ptr("space", s1)}}, []string{"position.before"}},
			{"unknown position space", map[string]any{"position": map[string]any{"before": ptr("space", "nope")}}, []string{"position.before", "nope"}},
			{"before ahead of after", map[string]any{"position": map[string]any{"after": ptr("space", s3), "before": ptr("space", s3)}}, []string{"position"}},
			{"pointer type", map[string]any{"position": map[string]any{"after": map[string]any{"type": "page"}}}, []string{"position.after.type"}},
			{"pointer id", map[string]any{"position": map[string]any{"after": map[string]any{"type": "space"}}}, []string{"position.after"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				move(e.Admin, s1, c.body).Expect(400).ExpectMessage(c.msg...)
			})
		}
	})
	t.Run("no matching space is 404", func(t *testing.T) {
		move(e.Admin, "nope", map[string]any{"parent": nil}).Expect(404)
		move(e.NewUser("outsider"), s1, map[string]any{"parent": nil}).Expect(404)
	})
	t.Run("needs admin on the space and create where it lands", func(t *testing.T) {
		u := e.Member("mover", auth.Read)
		grant(t, e, e.Admin, "/v1/spaces/"+s1, "admin", []string{u.ID}, nil)
		// A reader of the organization cannot create at the top level, nor in colB.
		move(u, s1, map[string]any{"parent": nil}).Expect(403)
		move(u, s1, map[string]any{"parent": colB}).Expect(403)
		move(u, s1, map[string]any{"position": map[string]any{"after": ptr("space", s3)}}).Expect(200)
		grant(t, e, e.Admin, "/v1/collections/"+colB, "create", []string{u.ID}, nil)
		move(u, s1, map[string]any{"parent": colB}).Expect(200)
		editor := e.Member("editor", auth.Read)
		grant(t, e, e.Admin, "/v1/spaces/"+s3, "edit", []string{editor.ID}, nil)
		move(editor, s3, map[string]any{"parent": nil}).Expect(403)
	})
}

// Thousands of moves through the API: each one places a space before or after a random
// sibling, and the list always shows the order the moves asked for.
func TestSpaceThousandsOfMoves(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	col := newCollection(t, e, e.Admin, e.Org, nil)
	var order []string
	for i := 0; i < 12; i++ {
		order = append(order, newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": col}))
	}
	rng := rand.New(rand.NewSource(42))
	const moves = 2000
	done := 0
	for done < moves {
		i, j := rng.Intn(len(order)), rng.Intn(len(order))
		if i == j {
			continue
		}
		moving, anchor := order[i], order[j]
		rest := append(append([]string{}, order[:i]...), order[i+1:]...)
		k := indexOfID(rest, anchor)
		side := "before"
		if rng.Intn(2) == 0 {
			side, k = "after", k+1
		}
		body := map[string]any{"position": map[string]any{side: ptr("space", anchor)}}
		next := append(append(append([]string{}, rest[:k]...), moving), rest[k:]...)
		if slices.Equal(next, order) {
			e.Post(e.Admin, "/v1/spaces/"+moving+"/move", body).Expect(409)
			continue
		}
		e.Post(e.Admin, "/v1/spaces/"+moving+"/move", body).Expect(200)
		order = next
		done++
		if done%250 == 0 {
			expectIDs(t, e.Get(e.Admin, "/v1/collections/"+col+"/spaces").Expect(200).IDs(), order...)
		}
	}
	expectIDs(t, e.Get(e.Admin, "/v1/collections/"+col+"/spaces").Expect(200).IDs(), order...)
	var walked []string
	for _, it := range e.WalkList(e.Admin, "/v1/collections/"+col+"/spaces", 5) {
		walked = append(walked, it["id"].(string))
	}
	expectIDs(t, walked, order...)
	t.Logf("%d moves through the API, order kept", moves)
}

func indexOfID(ids []string, id string) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}
