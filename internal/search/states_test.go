package search_test

import (
	"context"
	"log/slog"
	"testing"

	"docsd/internal/clock"
	"docsd/internal/gencache"
	"docsd/internal/search"
)

// countingStates is a store whose spaces all went away: it counts the reads of their state.
type countingStates struct {
	search.Store
	reads int
}

func (c *countingStates) LiveSpaces(context.Context, []string) (map[string]search.IndexState, error) {
	c.reads++
	return map[string]search.IndexState{}, nil
}

func (c *countingStates) Terms() search.Terms { return nil }

// A search reads the spaces' index state once per database generation, and every time when
// its request carries none.
func TestSearchReadsIndexStateOncePerGeneration(t *testing.T) {
	t.Parallel()
	st := &countingStates{}
	svc := search.NewService(st, nil, clock.Real{}, slog.New(slog.DiscardHandler))
	search := func(ctx context.Context, spaces ...string) {
		t.Helper()
		if _, err := svc.Search(ctx, spaces, "install guide"); err != nil {
			t.Fatal(err)
		}
	}
	expect := func(want int, what string) {
		t.Helper()
		if st.reads != want {
			t.Fatalf("%s: %d reads of the index state, want %d", what, st.reads, want)
		}
	}
	bg := context.Background()
	search(bg, "a")
	search(bg, "a")
	expect(2, "no generation")
	at7, at8 := gencache.WithGeneration(bg, 7), gencache.WithGeneration(bg, 8)
	search(at7, "a")
	search(at7, "a")
	expect(3, "twice at one generation")
	search(at7, "a", "b")
	expect(4, "other spaces at that generation")
	search(at8, "a")
	expect(5, "a newer generation")
	search(at7, "a")
	expect(6, "back at the older generation, whose answer the newer one replaced")
}
