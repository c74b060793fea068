package httpapi_test

import (
	"testing"

	"docsd/internal/apitest"
)

// TestChangeRequestUpdateTakesTheHeadsDelta brings an unedited change request up to a head
// that an import changed (pages, files and a removed page): the change request's revision
// must then hold exactly the head's content, which the update takes as a delta.
func TestChangeRequestUpdateTakesTheHeadsDelta(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	base := "/v1/spaces/" + sp
	tree := docsTree()
	delete(tree, ".gitbook/assets/logo.png")
	tree["start/install.md"] = "# Install\n\nRun the binary.\n"
	e.Upload(e.Admin, "POST", base+"/content/import", "application/zip", zipOf(t, tree)).Expect(201)
	cr := newChangeRequest(t, e, e.Admin, sp, "stale")

	// The head moves: a page edited, one removed, a file added.
	next := docsTree()
	next["README.md"] = "# Welcome\n\nHello again.\n"
	next["SUMMARY.md"] = "# Table of contents\n\n* [Welcome](README.md)\n* [Getting started](start/README.md)\n  * [Install](start/install.md)\n"
	delete(next, "guides/writing.md")
	e.Upload(e.Admin, "POST", base+"/content/import", "application/zip", zipOf(t, next)).Expect(201)
	head := headOf(e, sp)

	rev := e.Post(e.Admin, crPath(sp, cr)+"/update", nil).Expect(200).Str("revision")
	if rev == head {
		t.Fatal("the update made no revision of its own")
	}
	want := e.Get(e.Admin, base+"/revisions/"+head+"/pages").Expect(200)
	got := e.Get(e.Admin, base+"/revisions/"+rev+"/pages").Expect(200)
	if string(got.Body) != string(want.Body) {
		t.Fatalf("change request pages\n%s\nwant the head's\n%s", got.Body, want.Body)
	}
	wantFiles := e.Get(e.Admin, base+"/revisions/"+head+"/files").Expect(200)
	gotFiles := e.Get(e.Admin, base+"/revisions/"+rev+"/files").Expect(200)
	if gotFiles.Num("count") != 1 || gotFiles.Str("items.0.id") != wantFiles.Str("items.0.id") {
		t.Fatalf("change request files %s, want %s", gotFiles.Body, wantFiles.Body)
	}
	home := got.Str("pages.0.id")
	if md := pageAt(e, sp, rev, home).Expect(200).Str("markdown"); md != "Hello again.\n" && md != "# Welcome\n\nHello again.\n" {
		t.Fatalf("home markdown %q", md)
	}
	// Merging it now changes nothing but makes the merge revision.
	e.Post(e.Admin, crPath(sp, cr)+"/merge", nil).Expect(200)
	if after := e.Get(e.Admin, base+"/content/pages").Expect(200); string(after.Body) != string(want.Body) {
		t.Fatalf("after the merge\n%s\nwant\n%s", after.Body, want.Body)
	}
}

// TestChangeRequestMergesOnePageEditedOnBothSides merges line by line a page whose markdown
// both the head and the change request changed, in different paragraphs, while other pages
// changed on one side only keep their text.
func TestChangeRequestMergesOnePageEditedOnBothSides(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp, _ := crSpace(t, e)
	a := newChangeRequest(t, e, e.Admin, sp, "a")
	b := newChangeRequest(t, e, e.Admin, sp, "b")
	editPage(t, e, sp, a, "p1", map[string]any{"markdown": "First paragraph, by a.\n\nSecond paragraph.\n"})
	editPage(t, e, sp, a, "p2", map[string]any{"markdown": "Two, by a.\n"})
	editPage(t, e, sp, b, "p1", map[string]any{"markdown": "First paragraph.\n\nSecond paragraph, by b.\n"})
	e.Post(e.Admin, crPath(sp, a)+"/merge", nil).Expect(200)

	e.Post(e.Admin, crPath(sp, b)+"/merge", nil).Expect(200)
	if got := pageAt(e, sp, "", "p1").Expect(200).Str("markdown"); got != "First paragraph, by a.\n\nSecond paragraph, by b.\n" {
		t.Fatalf("merged p1: %q", got)
	}
	if got := pageAt(e, sp, "", "p2").Expect(200).Str("markdown"); got != "Two, by a.\n" {
		t.Fatalf("p2, changed on the head only: %q", got)
	}
}
