package httpapi_test

import (
	"sync"
	"testing"

	"docsd/internal/apitest"
)

// Concurrent changes to one tree are serialized: two collections moved into each other at the
// same moment never form a cycle, and spaces created at once all get places of their own.
func TestConcurrentTreeChanges(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	for round := 0; round < 10; round++ {
		a := newCollection(t, e, e.Admin, e.Org, nil)
		b := newCollection(t, e, e.Admin, e.Org, nil)
		var wg sync.WaitGroup
		statuses := make([]int, 2)
		for i, pair := range [][2]string{{a, b}, {b, a}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = e.Post(e.Admin, "/v1/collections/"+pair[0]+"/move", map[string]any{"parent": pair[1]}).Status
			}()
		}
		wg.Wait()
		pa, _ := e.Get(e.Admin, "/v1/collections/"+a).Expect(200).Get("parent")
		pb, _ := e.Get(e.Admin, "/v1/collections/"+b).Expect(200).Get("parent")
		if pa == b && pb == a {
			t.Fatalf("round %d: a cycle (statuses %v)", round, statuses)
		}
		if (statuses[0] == 200) == (statuses[1] == 200) || statuses[0]+statuses[1] != 600 {
			t.Fatalf("round %d: statuses %v, want one 200 and one 400", round, statuses)
		}
	}

	col := newCollection(t, e, e.Admin, e.Org, nil)
	const n = 12
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.Post(e.Admin, "/v1/orgs/"+e.Org+"/spaces", map[string]any{"parent": col}).Expect(201)
		}()
	}
	wg.Wait()
	ids := e.Get(e.Admin, "/v1/collections/"+col+"/spaces").Expect(200).IDs()
	if len(ids) != n {
		t.Fatalf("%d spaces listed, want %d", len(ids), n)
	}
	// Every space has a place of its own: each can be put right before the first one.
	for _, id := range ids[1:] {
		first := e.Get(e.Admin, "/v1/collections/"+col+"/spaces").Expect(200).IDs()[0]
		e.Post(e.Admin, "/v1/spaces/"+id+"/move", map[string]any{"position": map[string]any{"before": ptr("space", first)}}).Expect(200)
		if got := e.Get(e.Admin, "/v1/collections/"+col+"/spaces").Expect(200).IDs()[0]; got != id {
			t.Fatalf("moved %s before %s, but %s leads", id, first, got)
		}
	}
}
