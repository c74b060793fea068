package httpapi_test

import (
	"context"
	"testing"

	"docsd/internal/access"
	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/space"
	"docsd/internal/store"
)

// BenchmarkRoleOn measures one access decision on a space three collections deep, with the
// facts cached at the current access generation (the space read by primary key with the
// generation) and without (the recursive climb of the collection tree with the grants, as
// every request made before the access component's cache).
func BenchmarkRoleOn(b *testing.B) {
	e := apitest.New(b)
	u := e.Member("reader", auth.Read)
	parent := ""
	for _, title := range []string{"A", "B", "C"} {
		body := map[string]any{"title": title}
		if parent != "" {
			body["parent"] = parent
		}
		parent = newCollection(b, e, e.Admin, e.Org, body)
	}
	sp := newSpace(b, e, e.Admin, e.Org, map[string]any{"parent": parent, "visibility": "in-collection"})
	grant(b, e, e.Admin, "/v1/collections/"+parent, "edit", []string{u.ID}, nil)
	ctx, c := context.Background(), auth.Caller{UserID: u.ID}
	check := func(b *testing.B, s *space.Service) {
		v, err := s.RoleOn(ctx, c, sp)
		if err != nil || v.Role != auth.Edit {
			b.Fatalf("role %q, %v", v.Role, err)
		}
	}
	b.Run("cached", func(b *testing.B) {
		s := space.NewService(store.Spaces{DB: e.App.DB}, access.NewChecker(), e.App.Clock)
		check(b, s)
		b.ResetTimer()
		for range b.N {
			check(b, s)
		}
	})
	b.Run("uncached", func(b *testing.B) {
		for range b.N {
			check(b, space.NewService(store.Spaces{DB: e.App.DB}, access.NewChecker(), e.App.Clock))
		}
	})
}
