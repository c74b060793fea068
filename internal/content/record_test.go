package content

import (
	"encoding/json"
	"testing"
	"time"

	"docsd/internal/contenttree"
)

// A page never edited through the API keeps the record it had before pages carried edit
// times: same bytes, same hash, so existing revisions and imports share records as before.
func TestPageRecordWithoutTimesIsUnchanged(t *testing.T) {
	t.Parallel()
	p := contenttree.Page{ID: "p1", ParentID: "top", Order: "a0", Kind: contenttree.KindDocument, Title: "Install",
		Slug: "install", Description: "How", Layout: json.RawMessage(`{ "cover": true }`), Markdown: "# Install\n",
		Git: contenttree.GitBlob{OID: "abc", Path: "install.md"}}
	hash, body, md := encodePage(p)
	want := `{"id":"p1","parent":"top","order":"a0","type":"document","title":"Install","slug":"install",` +
		`"description":"How","layout":{"cover":true},"markdown":"` + md + `","git":{"oid":"abc","path":"install.md"}}`
	if string(body) != want {
		t.Fatalf("record\n%s\nwant\n%s", body, want)
	}
	if hash != digest([]byte(want)) {
		t.Fatal("the hash is not the record's")
	}
}

func TestPageRecordKeepsTimesToTheMillisecond(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 3, 1, 10, 0, 0, 123_000_000, time.UTC)
	updated := created.Add(36*time.Hour + 456*time.Millisecond)
	p := contenttree.Page{ID: "p1", Kind: contenttree.KindDocument, Title: "T", CreatedAt: created, UpdatedAt: updated}
	_, body, _ := encodePage(p)
	got, _, err := decodePage(body)
	if err != nil {
		t.Fatal(err)
	}
	if !got.CreatedAt.Equal(created) || !got.UpdatedAt.Equal(updated) || got.CreatedAt.Location() != time.UTC {
		t.Fatalf("decoded %v, %v; want %v, %v", got.CreatedAt, got.UpdatedAt, created, updated)
	}
	untimed, _, _ := encodePage(contenttree.Page{ID: "p1", Kind: contenttree.KindDocument, Title: "T"})
	if h, _, _ := encodePage(p); h == untimed {
		t.Fatal("edit times do not change the record's hash")
	}
}
