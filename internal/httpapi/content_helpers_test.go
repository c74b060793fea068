package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/content"
	"docsd/internal/contenttree"
)

// treeBuilder makes page trees for tests, ordering siblings as they are added.
type treeBuilder struct {
	tree *contenttree.Tree
	last map[string]string // parent id → order key of its last child
}

func newTreeBuilder() *treeBuilder {
	return &treeBuilder{tree: contenttree.New(), last: map[string]string{}}
}

func (b *treeBuilder) page(id, parent string, kind contenttree.Kind, title, slug, markdown string) *treeBuilder {
	order, err := contenttree.OrderBetween(b.last[parent], "")
	if err != nil {
		panic(err)
	}
	b.last[parent] = order
	b.tree.Pages[id] = contenttree.Page{ID: id, ParentID: parent, Order: order, Kind: kind, Title: title, Slug: slug,
		Markdown: markdown}
	return b
}

func (b *treeBuilder) doc(id, parent, title, slug, markdown string) *treeBuilder {
	return b.page(id, parent, contenttree.KindDocument, title, slug, markdown)
}

// file stores bytes in the server's blob store and adds the file to the tree.
func (b *treeBuilder) file(t testing.TB, e *apitest.Env, id, name, contentType string, data []byte) *treeBuilder {
	t.Helper()
	ref, err := e.App.Blobs.Put(context.Background(), bytes.NewReader(data), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	b.tree.Files[id] = contenttree.File{ID: id, Name: name, ContentType: contentType, Hash: ref.Hash, Size: ref.Size}
	return b
}

// replaceContent makes tree the space's content as actor, through the content service (the
// import route's core), and returns the new revision.
func replaceContent(t testing.TB, e *apitest.Env, a apitest.Actor, spaceID string, tree *contenttree.Tree) (content.Revision, content.Stats) {
	t.Helper()
	rev, st, err := e.App.Content.Replace(context.Background(), auth.Caller{UserID: a.ID}, spaceID, tree)
	if err != nil {
		t.Fatal(err)
	}
	return rev, st
}

// countObjects counts stored content records of one kind.
func countObjects(t testing.TB, e *apitest.Env, kind string) int {
	t.Helper()
	var n int
	if err := e.App.DB.Read().QueryRow(context.Background(), `SELECT COUNT(*) FROM content_objects WHERE kind = ?`, kind).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// generatedTree is a space of n documents, 100 per group-less level-one parent.
func generatedTree(n int) *treeBuilder {
	b := newTreeBuilder()
	for i := 0; i < n; i++ {
		parent := ""
		if i%100 != 0 {
			parent = fmt.Sprintf("p%05d", i-i%100)
		}
		id := fmt.Sprintf("p%05d", i)
		b.doc(id, parent, "Page "+id, "page-"+id, fmt.Sprintf("# Page %d\n\nSome text of page %d.\n", i, i))
	}
	return b
}
