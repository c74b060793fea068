package content

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// TestTrieDiffMatchesMapDiff checks the trie walk against a plain comparison of the maps, over
// random rounds of edits that grow, shrink and rewrite a trie, with each side either stored
// whole or as changes over an earlier round's trie (as change requests' revisions are), and
// counts the nodes a small edit makes it read.
func TestTrieDiffMatchesMapDiff(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(2))
	store := memNodes{}
	cur := map[string]string{}
	root := ""
	var maps_ []map[string]string // every round's content, and its trie
	var roots []string
	// asChanges stores m as changes over a random earlier round's trie, with a few changes
	// that change nothing (upserting what the trie holds, removing what it lacks).
	asChanges := func(m map[string]string, fallback string) storedRevision {
		if len(roots) == 0 || rng.Intn(3) == 0 {
			return storedRevision{pagesRoot: fallback}
		}
		i := rng.Intn(len(roots))
		under := maps_[i]
		ch := map[string]string{}
		for k, v := range m {
			if under[k] != v || rng.Intn(50) == 0 {
				ch[k] = v
			}
		}
		for k := range under {
			if _, ok := m[k]; !ok {
				ch[k] = ""
			}
		}
		ch[fmt.Sprintf("absent-%d", rng.Intn(5))] = ""
		return storedRevision{pagesRoot: roots[i], pages: ch}
	}
	for round := 0; round < 40; round++ {
		changes := map[string]string{}
		for i := 0; i < rng.Intn(300)+1; i++ {
			k := fmt.Sprintf("page-%d", rng.Intn(2000))
			if rng.Intn(3) == 0 {
				changes[k] = ""
			} else {
				changes[k] = fmt.Sprintf("v%d", rng.Int())
			}
		}
		next := map[string]string{}
		for k, v := range cur {
			next[k] = v
		}
		for k, v := range changes {
			if v == "" {
				delete(next, k)
			} else {
				next[k] = v
			}
		}
		nextRoot, _ := store.apply(t, root, changes)

		var wantChanged, wantRemoved []string
		for k, v := range next {
			if cur[k] != v {
				wantChanged = append(wantChanged, k)
			}
		}
		for k := range cur {
			if _, ok := next[k]; !ok {
				wantRemoved = append(wantRemoved, k)
			}
		}
		slices.Sort(wantChanged)
		slices.Sort(wantRemoved)
		a, b := asChanges(cur, root), asChanges(next, nextRoot)
		changed, removed, err := changedKeys(context.Background(), store.source, a, b)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(changed, wantChanged) || !slices.Equal(removed, wantRemoved) {
			t.Fatalf("round %d (changes %d and %d): changed %d/%d, removed %d/%d", round, len(a.pages), len(b.pages),
				len(changed), len(wantChanged), len(removed), len(wantRemoved))
		}
		maps_, roots = append(maps_, next), append(roots, nextRoot)
		cur, root = next, nextRoot
	}

	// One edit in a trie of 2,000 entries reads only the nodes on its path.
	reads := 0
	counting := func(ctx context.Context, hs []string) (map[string]*node, error) {
		reads += len(hs)
		return store.source(ctx, hs)
	}
	edited, _ := store.apply(t, root, map[string]string{"page-1": "edited"})
	changed, removed, err := changedKeys(context.Background(), counting, storedRevision{pagesRoot: root}, storedRevision{pagesRoot: edited})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(changed, []string{"page-1"}) || len(removed) != 0 || reads > 8 {
		t.Errorf("one edit: changed %v, removed %v, %d nodes read", changed, removed, reads)
	}
}
