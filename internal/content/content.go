// Package content keeps the content of spaces: immutable revisions built from
// content-addressed records (page records, file records, markdown, trie nodes) that
// revisions and spaces share, and the head of each space, which moves only by
// compare-and-swap. It loads a revision as a contenttree.Tree (for merges), reads one page,
// and writes a new revision from a base revision plus a set of changes (Service.Commit),
// which imports, change requests and merges build on.
//
// Costs follow the size of a change: a revision maps page ids to page records through a
// persistent hash trie (trie.go), so editing one page of a 10,000-page space writes that
// page's record, its markdown if new, and the few trie nodes on its path. Decoded revisions
// are cached in memory by id, which is safe across processes because revisions never change.
package content

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Revision types, as the API names them.
const (
	TypeEdits = "edits"
	TypeMerge = "merge"
	// TypeUpdate is a change request's revision that brings in the space's head (the
	// change request's update), as the API names it; TypeMerge is a merge into the space.
	TypeUpdate = "update"
)

// Revision is one immutable state of a space's content.
type Revision struct {
	ID        string
	SpaceID   string // the space it was made in
	Parents   []string
	Type      string
	PagesRoot string // trie of page id → page record hash; "" when there are no pages
	FilesRoot string // trie of file id → file record hash; "" when there are no files
	Variables map[string]json.RawMessage
	AuthorID  string // "" when made by the system (a new space's empty revision)
	CreatedAt time.Time
	Git       *GitCommit // the commit an import read, if any

	// A change request's working revision may instead be stored as what it changes in the
	// revision under it (see stored.go): then Base names that revision, Depth counts the
	// revisions stored this way down to one stored whole, the roots are empty, and
	// PageChanges and FileChanges map ids to record hashes ("" for removed).
	Base        string
	Depth       int
	PageChanges map[string]string
	FileChanges map[string]string
}

// GitCommit is the Git commit a revision was imported from.
type GitCommit struct {
	OID              string `json:"oid"`
	Message          string `json:"message"`
	CreatedByGitBook bool   `json:"createdByGitBook"`
	URL              string `json:"url,omitempty"`
	Ref              string `json:"ref,omitempty"`
}

// Object kinds in the store.
const (
	KindNode = "node"
	KindPage = "page"
	KindFile = "file"
)

// Object is one content-addressed record to store.
type Object struct {
	Kind string
	Body []byte
}

// ErrNotFound is returned by a Tx when a revision does not exist.
var ErrNotFound = errors.New("content: not found")

// Store runs reads and write transactions over content.
type Store interface {
	Read() Tx
	Write(ctx context.Context, now time.Time, fn func(Tx) error) error
}

// Tx is every storage operation of content.
type Tx interface {
	// Revision returns a revision, or ErrNotFound.
	Revision(ctx context.Context, id string) (Revision, error)
	// RevisionChain returns the revision id and those down its chain of Base revisions, in
	// order, following at most max bases; an unknown id gives none.
	RevisionChain(ctx context.Context, id string, max int) ([]Revision, error)
	InsertRevision(ctx context.Context, r Revision) error
	// Objects returns the bodies of the records stored under hashes; absent ones are left out.
	Objects(ctx context.Context, hashes []string) (map[string][]byte, error)
	// PutObjects stores records that are not stored yet and returns how many bytes it wrote.
	PutObjects(ctx context.Context, objects map[string]Object) (int64, error)
	// Markdown returns the texts stored under hashes; absent ones are left out.
	Markdown(ctx context.Context, hashes []string) (map[string]string, error)
	// PutMarkdown stores texts that are not stored yet and returns how many bytes it wrote.
	PutMarkdown(ctx context.Context, texts map[string]string) (int64, error)
	// RecordDocuments records that a revision of the space brought in documents (markdown
	// hashes, the keys of documents), unless an earlier revision of the space did.
	RecordDocuments(ctx context.Context, spaceID, revisionID string, documents map[string]string) error
	// DocumentRevision returns the first revision of the space that had the document, or
	// ErrNotFound.
	DocumentRevision(ctx context.Context, spaceID, document string) (string, error)
	// MoveHead sets the space's head to to if it is still from; ok is false when it is not
	// (someone else moved it first) or when the space does not exist.
	MoveHead(ctx context.Context, spaceID, from, to string) (ok bool, err error)
}
