// Package contenttree models the content of one revision of a space (its page tree, files and
// variables) in memory, compares two revisions (Diff) and merges two revisions against their common
// ancestor by page id (Merge), as change requests do when they are updated or merged.
//
// Values are plain data: a Tree's maps and a Page's fields may be read freely, and the JSON held in
// json.RawMessage fields is treated as immutable (copies share it).
package contenttree

import (
	"encoding/json"
	"maps"
	"time"
)

// Kind is a page's type, as the API names it.
type Kind string

// Page kinds. Groups sit at the top level and hold documents and links; documents hold documents
// and links; links hold nothing.
const (
	KindDocument Kind = "document"
	KindGroup    Kind = "group"
	KindLink     Kind = "link"
)

// Page is one page of a revision.
type Page struct {
	ID       string
	ParentID string // "" for a page at the top level
	// Order places the page among its siblings: pages sort by Order, then by ID. Any string sorts;
	// OrderBetween makes keys that always leave room for another one in between.
	Order         string
	Kind          Kind
	Title         string
	Slug          string // the page's part of its path; unique among its siblings
	Emoji         string
	Icon          string
	Description   string
	Hidden        bool
	NoIndex       bool
	NoRobotsIndex bool
	Layout        json.RawMessage // the API's layout object, as JSON; nil when absent
	Cover         json.RawMessage // the API's cover object, as JSON; nil when absent
	Target        json.RawMessage // for links: the content reference they point to, as JSON
	Variables     map[string]json.RawMessage
	Markdown      string  // the page's source text
	Git           GitBlob // the file the page was imported from, if any
	// CreatedAt and UpdatedAt are when the page was first and last edited through the API;
	// zero for a page that was imported and never edited since. Like Git, they are metadata:
	// diffs ignore them, and a merge keeps the earliest creation and the latest edit.
	CreatedAt time.Time
	UpdatedAt time.Time
}

// GitBlob names the file a page or file was imported from: its Git blob id and its path from
// the top of the repository or archive. It is metadata of the import: merges and diffs
// ignore it, and an edit of the page drops it.
type GitBlob struct {
	OID  string `json:"oid"`
	Path string `json:"path"`
}

// File is one file of a revision; its bytes live elsewhere, under Hash.
type File struct {
	ID          string
	Name        string
	ContentType string
	Hash        string // content hash of the bytes
	Size        int64
	Dimensions  Dimensions // of an image whose size could be read; zero otherwise
	Git         GitBlob    // the file it was imported from, if any
}

// Dimensions are an image's width and height in pixels.
type Dimensions struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// ReusableContent is a block of content written once and included in many pages (GitBook's
// `.gitbook/includes/*.md`, shown where a page writes `{% include %}`).
type ReusableContent struct {
	ID       string
	Title    string
	Markdown string
	Git      GitBlob // the file it was imported from, if any
}

// Tree is the content of one revision. Pages, Files and ReusableContents are keyed by id;
// Variables are the space's variables, each value a JSON string, number or boolean.
type Tree struct {
	Pages            map[string]Page
	Files            map[string]File
	Variables        map[string]json.RawMessage
	ReusableContents map[string]ReusableContent
}

// New returns an empty tree.
func New() *Tree {
	return &Tree{Pages: map[string]Page{}, Files: map[string]File{}, Variables: map[string]json.RawMessage{},
		ReusableContents: map[string]ReusableContent{}}
}

// Clone returns a copy of t whose maps can be changed without touching t. A nil tree clones to an
// empty one.
func (t *Tree) Clone() *Tree {
	c := New()
	if t == nil {
		return c
	}
	for id, p := range t.Pages {
		p.Variables = maps.Clone(p.Variables)
		c.Pages[id] = p
	}
	maps.Copy(c.Files, t.Files)
	maps.Copy(c.Variables, t.Variables)
	maps.Copy(c.ReusableContents, t.ReusableContents)
	return c
}

// orEmpty lets every function accept a nil tree as an empty one.
func orEmpty(t *Tree) *Tree {
	if t == nil {
		return New()
	}
	return t
}

// Equal reports whether two trees hold the same content. JSON values compare by meaning (key order
// and spacing do not matter), and a nil map equals an empty one.
func (t *Tree) Equal(u *Tree) bool {
	t, u = orEmpty(t), orEmpty(u)
	if len(t.Pages) != len(u.Pages) || len(t.Files) != len(u.Files) || !valuesEqual(t.Variables, u.Variables) {
		return false
	}
	for id, p := range t.Pages {
		q, ok := u.Pages[id]
		if !ok || len(pageDiff(&p, &q)) > 0 {
			return false
		}
	}
	for id, f := range t.Files {
		g, ok := u.Files[id]
		if !ok || f != g {
			return false
		}
	}
	if len(t.ReusableContents) != len(u.ReusableContents) {
		return false
	}
	for id, r := range t.ReusableContents {
		if q, ok := u.ReusableContents[id]; !ok || q != r {
			return false
		}
	}
	return true
}
