package httpapi_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/site"
)

// TestSitesServeReadersDuringEdits reads a published page from several readers while the
// space's content is replaced: every answer is a whole page, the old one or a new one.
func TestSitesServeReadersDuringEdits(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := docSpace(t, e, "Guide", "Rho")
	f := newSiteFixture(t, e, site.Public)
	f.siteSpace("", sp, "guide", true, nil)
	path := f.path("")

	const readers, reads, edits = 4, 25, 10
	var wg sync.WaitGroup
	errs := make(chan string, readers*reads)
	for range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rd := newReader(t, e)
			rd.raw = true
			for range reads {
				p := rd.get(path)
				if p.Status != 200 || !strings.Contains(p.Body, "</html>") ||
					!(strings.Contains(p.Body, "<h1>Rho home</h1>") || strings.Contains(p.Body, "<h1>Edition ")) {
					errs <- fmt.Sprintf("status %d: %.300s", p.Status, p.Body)
				}
			}
		}()
	}
	for i := range edits {
		b := newTreeBuilder().doc("home", "", fmt.Sprintf("Edition %d", i), "home", fmt.Sprintf("Text of edition %d.\n", i))
		replaceContent(t, e, e.Admin, sp, b.tree)
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Fatal(msg)
	}
	if got := newReader(t, e).get(path).expect(t, 200).heading(); got != fmt.Sprintf("Edition %d", edits-1) {
		t.Fatalf("after the edits the page shows %q", got)
	}
}
