package content

import (
	"encoding/json"
	"time"

	"docsd/internal/contenttree"
)

// pageRecord is a page as stored: every field of contenttree.Page, with the markdown replaced
// by the hash of its text. Its own hash is the sha256 of its JSON, so an unchanged page keeps
// its record from revision to revision and from space to space.
type pageRecord struct {
	ID            string                     `json:"id"`
	Parent        string                     `json:"parent,omitempty"`
	Order         string                     `json:"order,omitempty"`
	Kind          contenttree.Kind           `json:"type"`
	Title         string                     `json:"title"`
	Slug          string                     `json:"slug,omitempty"`
	Emoji         string                     `json:"emoji,omitempty"`
	Icon          string                     `json:"icon,omitempty"`
	Description   string                     `json:"description,omitempty"`
	Hidden        bool                       `json:"hidden,omitempty"`
	NoIndex       bool                       `json:"noIndex,omitempty"`
	NoRobotsIndex bool                       `json:"noRobotsIndex,omitempty"`
	Layout        json.RawMessage            `json:"layout,omitempty"`
	Cover         json.RawMessage            `json:"cover,omitempty"`
	Target        json.RawMessage            `json:"target,omitempty"`
	Variables     map[string]json.RawMessage `json:"variables,omitempty"` // encoding/json sorts map keys
	Markdown      string                     `json:"markdown"`            // hash in content_markdown
	Git           contenttree.GitBlob        `json:"git,omitzero"`        // absent, so hashes stay, when empty
	// When the page was first and last edited, in Unix milliseconds (the API's precision);
	// absent for a page never edited, so imported pages keep the records they always had.
	CreatedAt int64 `json:"createdAt,omitempty"`
	UpdatedAt int64 `json:"updatedAt,omitempty"`
}

// unixMilli is a time as a record keeps it; 0 for the zero time.
func unixMilli(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// fromUnixMilli reads a time a record keeps, in UTC; the zero time for 0.
func fromUnixMilli(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

func compactJSON(m json.RawMessage) json.RawMessage {
	if len(m) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(m, &v) != nil {
		return m
	}
	b, _ := json.Marshal(v) // canonical: sorted keys, no spacing
	return b
}

// encodePage returns the page's record, its hash, and the hash of its markdown.
func encodePage(p contenttree.Page) (hash string, body []byte, markdownHash string) {
	markdownHash = digest([]byte(p.Markdown))
	r := pageRecord{ID: p.ID, Parent: p.ParentID, Order: p.Order, Kind: p.Kind, Title: p.Title, Slug: p.Slug,
		Emoji: p.Emoji, Icon: p.Icon, Description: p.Description, Hidden: p.Hidden, NoIndex: p.NoIndex,
		NoRobotsIndex: p.NoRobotsIndex, Layout: compactJSON(p.Layout), Cover: compactJSON(p.Cover),
		Target: compactJSON(p.Target), Markdown: markdownHash, Git: p.Git,
		CreatedAt: unixMilli(p.CreatedAt), UpdatedAt: unixMilli(p.UpdatedAt)}
	if len(p.Variables) > 0 {
		r.Variables = map[string]json.RawMessage{}
		for k, v := range p.Variables {
			r.Variables[k] = compactJSON(v)
		}
	}
	body, _ = json.Marshal(r) // only strings, bools and valid JSON
	return digest(body), body, markdownHash
}

// decodePage returns the page without its markdown, and the markdown's hash.
func decodePage(body []byte) (contenttree.Page, string, error) {
	var r pageRecord
	if err := json.Unmarshal(body, &r); err != nil {
		return contenttree.Page{}, "", err
	}
	return contenttree.Page{ID: r.ID, ParentID: r.Parent, Order: r.Order, Kind: r.Kind, Title: r.Title, Slug: r.Slug,
		Emoji: r.Emoji, Icon: r.Icon, Description: r.Description, Hidden: r.Hidden, NoIndex: r.NoIndex,
		NoRobotsIndex: r.NoRobotsIndex, Layout: r.Layout, Cover: r.Cover, Target: r.Target, Variables: r.Variables, Git: r.Git,
		CreatedAt: fromUnixMilli(r.CreatedAt), UpdatedAt: fromUnixMilli(r.UpdatedAt)}, r.Markdown, nil
}

// fileRecord is a file as stored; its bytes are in the blob store under Hash.
type fileRecord struct {
	ID          string                 `json:"id"`
	Name        string                 `json:"name"`
	ContentType string                 `json:"contentType"`
	Hash        string                 `json:"hash"`
	Size        int64                  `json:"size"`
	Dimensions  contenttree.Dimensions `json:"dimensions,omitzero"`
	Git         contenttree.GitBlob    `json:"git,omitzero"`
}

func encodeFile(f contenttree.File) (string, []byte) {
	body, _ := json.Marshal(fileRecord(f))
	return digest(body), body
}

func decodeFile(body []byte) (contenttree.File, error) {
	var r fileRecord
	err := json.Unmarshal(body, &r)
	return contenttree.File(r), err
}
