package httpapi_test

import (
	"sync"
	"testing"

	"docsd/internal/apitest"
)

// TestSiteConcurrentChanges adds site spaces and sorts the structure from several clients at
// once: every request succeeds, paths stay unique and exactly one site space is the default.
func TestSiteConcurrentChanges(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := titledSpace(t, e, "Same")
	path := newSite(t, e, map[string]any{"spaces": []string{sp}})
	first := e.Get(e.Admin, path+"/site-spaces").IDs()[0]
	const n = 8
	var wg sync.WaitGroup
	statuses := make(chan int, 2*n)
	for i := 0; i < n; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			statuses <- e.Post(e.Admin, path+"/site-spaces", map[string]any{"spaceId": sp}).Status
		}()
		go func() {
			defer wg.Done()
			statuses <- e.Patch(e.Admin, path+"/structure/sort", map[string]any{
				"item": map[string]any{"type": "site-space", "id": first}, "position": map[string]any{}}).Status
		}()
	}
	wg.Wait()
	close(statuses)
	for s := range statuses {
		if s != 201 && s != 200 {
			t.Errorf("a concurrent change answered %d", s)
		}
	}
	items := e.Get(e.Admin, path+"/site-spaces").Expect(200).Items()
	paths, defaults := map[string]bool{}, 0
	for _, it := range items {
		p := it["path"].(string)
		if paths[p] {
			t.Errorf("path %s used twice", p)
		}
		paths[p] = true
		if it["default"] == true {
			defaults++
		}
	}
	if len(items) != n+1 || defaults != 1 {
		t.Errorf("%d site spaces, %d defaults", len(items), defaults)
	}
}

// TestSiteConcurrentCreations creates sites with one title from several clients at once: each
// gets its own basename.
func TestSiteConcurrentCreations(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	const n = 6
	var wg sync.WaitGroup
	bases := make(chan string, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.Post(e.Admin, sitesPath(e), map[string]any{"title": "Docs"})
			if r.Status != 201 {
				t.Errorf("concurrent creation: %d %s", r.Status, r.Body)
				return
			}
			bases <- r.Str("basename")
		}()
	}
	wg.Wait()
	close(bases)
	seen := map[string]bool{}
	for b := range bases {
		if seen[b] {
			t.Errorf("basename %s given twice", b)
		}
		seen[b] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct basenames for %d sites", len(seen), n)
	}
}
