package content

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"testing"
)

// memNodes is a node store in memory, for testing the trie alone.
type memNodes map[string][]byte

func (m memNodes) source(ctx context.Context, hashes []string) (map[string]*node, error) {
	out := map[string]*node{}
	for _, h := range hashes {
		if b, ok := m[h]; ok {
			n := new(node)
			if err := json.Unmarshal(b, n); err != nil {
				return nil, err
			}
			out[h] = n
		}
	}
	return out, nil
}

func (m memNodes) apply(t *testing.T, root string, changes map[string]string) (string, int) {
	t.Helper()
	w := newTrieWriter(m.source)
	next, err := w.apply(context.Background(), root, 0, changes)
	if err != nil {
		t.Fatal(err)
	}
	written := 0
	for h, b := range w.created {
		if _, ok := m[h]; !ok {
			written++
		}
		m[h] = b
	}
	return next, written
}

func TestTrieMatchesAMapAndIsCanonical(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	store := memNodes{}
	want := map[string]string{}
	root := ""
	for round := 0; round < 60; round++ {
		changes := map[string]string{}
		for i := 0; i < rng.Intn(200)+1; i++ {
			k := fmt.Sprintf("page-%d", rng.Intn(3000))
			if rng.Intn(3) == 0 {
				changes[k] = ""
				delete(want, k)
			} else {
				v := fmt.Sprintf("v%d", rng.Int())
				changes[k] = v
				want[k] = v
			}
		}
		root, _ = store.apply(t, root, changes)
		got, err := trieAll(context.Background(), store.source, root)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: %d entries, want %d", round, len(got), len(want))
		}
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("round %d: %s = %q, want %q", round, k, got[k], v)
			}
			if one, ok, _ := trieGet(context.Background(), store.source, root, k); !ok || one != v {
				t.Fatalf("round %d: get %s = %q, want %q", round, k, one, v)
			}
		}
		// The same entries built from nothing give the same root: the shape has no history.
		fresh, _ := memNodes{}.apply(t, "", want)
		if fresh != root {
			t.Fatalf("round %d: root %s differs from a fresh build %s", round, root, fresh)
		}
	}
	// Removing everything leaves the empty trie.
	all := map[string]string{}
	for k := range want {
		all[k] = ""
	}
	if root, _ = store.apply(t, root, all); root != "" {
		t.Fatalf("emptied trie has root %q", root)
	}
}

func TestTrieEditRewritesOnlyOnePath(t *testing.T) {
	t.Parallel()
	store := memNodes{}
	entries := map[string]string{}
	for i := 0; i < 10000; i++ {
		entries[fmt.Sprintf("page-%d", i)] = fmt.Sprintf("h%d", i)
	}
	root, _ := store.apply(t, "", entries)
	_, written := store.apply(t, root, map[string]string{"page-5000": "changed"})
	if written > 5 {
		t.Fatalf("one change wrote %d nodes, want at most 5 (one per level)", written)
	}
}
