package httpapi_test

import (
	"fmt"
	"sync"
	"testing"

	"docsd/internal/apitest"
)

// Concurrent merges of change requests that touch different pages must all succeed, even when
// they arrive at two servers sharing one database: the server redoes a merge on the head that
// moved under it instead of asking the client to retry. Only a real conflict is a 409.
func TestChangeRequestConcurrentMergesOnTwoServers(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	peer := e.Peer()
	const n = 16

	tb := newTreeBuilder()
	for i := range n {
		id := fmt.Sprintf("p%02d", i)
		tb.doc(id, "", "Page "+id, id, "Text of "+id+".\n")
	}
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	replaceContent(t, e, e.Admin, sp, tb.tree)

	crs := make([]string, n)
	for i := range n {
		crs[i] = newChangeRequest(t, e, e.Admin, sp, fmt.Sprintf("edit %d", i))
		editPage(t, e, sp, crs[i], fmt.Sprintf("p%02d", i), map[string]any{"markdown": fmt.Sprintf("Edited by change request %d.\n", i)})
	}

	statuses := make([]int, n)
	messages := make([]string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			srv := e
			if i%2 == 1 {
				srv = peer
			}
			<-start
			r := srv.Post(srv.Admin, crPath(sp, crs[i])+"/merge", nil)
			statuses[i] = r.Status
			if r.Status != 200 {
				messages[i] = string(r.Body)
			}
		}()
	}
	close(start)
	wg.Wait()
	ok := 0
	for i, s := range statuses {
		if s == 200 {
			ok++
		} else {
			t.Errorf("merge %d answered %d: %s", i, s, messages[i])
		}
	}
	t.Logf("%s: %d of %d concurrent merges over 2 servers succeeded", apitest.Engine(), ok, n)
	for i := range n {
		want := fmt.Sprintf("Edited by change request %d.\n", i)
		if md := pageAt(e, sp, "", fmt.Sprintf("p%02d", i)).Expect(200).Str("markdown"); md != want && statuses[i] == 200 {
			t.Errorf("p%02d at the head: %q, want %q", i, md, want)
		}
		if st := e.Get(e.Admin, crPath(sp, crs[i])).Expect(200).Str("status"); statuses[i] == 200 && st != "merged" {
			t.Errorf("change request %d is %q after its merge answered 200", i, st)
		}
	}

	t.Run("a real conflict is still 409", func(t *testing.T) {
		a := newChangeRequest(t, e, e.Admin, sp, "a")
		b := newChangeRequest(t, e, e.Admin, sp, "b")
		editPage(t, e, sp, a, "p00", map[string]any{"markdown": "Written by a.\n"})
		editPage(t, e, sp, b, "p00", map[string]any{"markdown": "Written by b.\n"})
		head := headOf(e, sp)
		var wg sync.WaitGroup
		got := make([]int, 2)
		for i, srv := range []*apitest.Env{e, peer} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i] = srv.Post(srv.Admin, crPath(sp, []string{a, b}[i])+"/merge", nil).Status
			}()
		}
		wg.Wait()
		if !(got[0] == 200 && got[1] == 409 || got[0] == 409 && got[1] == 200) {
			t.Fatalf("merges of two change requests writing the same line answered %v, want one 200 and one 409", got)
		}
		loser := []string{a, b}[0]
		if got[0] == 200 {
			loser = []string{a, b}[1]
		}
		e.Post(e.Admin, crPath(sp, loser)+"/merge", nil).Expect(409).ExpectMessage("p00")
		if headOf(e, sp) == head {
			t.Error("the head did not move for the merge that succeeded")
		}
		if st := e.Get(e.Admin, crPath(sp, loser)).Expect(200).Str("status"); st != "open" {
			t.Errorf("the conflicting change request is %q", st)
		}
	})
}
