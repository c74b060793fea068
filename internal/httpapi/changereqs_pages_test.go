package httpapi_test

import (
	"testing"

	"docsd/internal/apitest"
)

// A page edit's markdown that starts with "# Title" is read as an import reads a page: the
// heading is the page's title, not also the first line of its body.
func TestChangeRequestPageEditTitleHeading(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp, _ := crSpace(t, e)
	cr := newChangeRequest(t, e, e.Admin, sp, "headings")

	t.Run("a new page without a title takes the heading's", func(t *testing.T) {
		r := e.Post(e.Admin, crPath(sp, cr)+"/pages", map[string]any{"markdown": "# Getting *started*\n\nInstall it.\n"}).Expect(201)
		p := pageAt(e, sp, r.Str("revision"), r.Str("page")).Expect(200)
		if p.Str("title") != "Getting started" || p.Str("slug") != "getting-started" || p.Str("markdown") != "Install it.\n" {
			t.Errorf("page %s", p.Body)
		}
	})
	t.Run("an explicit title wins; the heading still leaves the body", func(t *testing.T) {
		r := e.Post(e.Admin, crPath(sp, cr)+"/pages", map[string]any{"title": "Setup", "markdown": "\n# Install\n\nRun it.\n"}).Expect(201)
		p := pageAt(e, sp, r.Str("revision"), r.Str("page")).Expect(200)
		if p.Str("title") != "Setup" || p.Str("markdown") != "Run it.\n" {
			t.Errorf("page %s", p.Body)
		}
	})
	t.Run("an update's heading renames the page", func(t *testing.T) {
		next := editPage(t, e, sp, cr, "p1", map[string]any{"markdown": "# Uno\n\nChanged.\n\n# Another heading\n"})
		p := pageAt(e, sp, next, "p1").Expect(200)
		if p.Str("title") != "Uno" || p.Str("markdown") != "Changed.\n\n# Another heading\n" {
			t.Errorf("page %s", p.Body)
		}
	})
	t.Run("markdown that does not start with a level-1 heading is kept whole", func(t *testing.T) {
		next := editPage(t, e, sp, cr, "p2", map[string]any{"markdown": "## Section\n\nText.\n"})
		p := pageAt(e, sp, next, "p2").Expect(200)
		if p.Str("title") != "Two" || p.Str("markdown") != "## Section\n\nText.\n" {
			t.Errorf("page %s", p.Body)
		}
	})
	t.Run("a heading too long for a title is refused like a title", func(t *testing.T) {
		long := make([]byte, 256)
		for i := range long {
			long[i] = 'a'
		}
		e.Post(e.Admin, crPath(sp, cr)+"/pages", map[string]any{"markdown": "# " + string(long) + "\n"}).Expect(400).ExpectMessage("title")
	})
}
