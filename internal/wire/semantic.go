package wire

import (
	"bytes"
	"encoding/json"

	"docsd/internal/content"
	"docsd/internal/contenttree"
)

// SemanticChanges is the `RevisionSemanticChanges` object.
type SemanticChanges struct {
	MergedFrom *ChangeRequest    `json:"mergedFrom,omitempty"`
	Changes    []json.RawMessage `json:"changes"`
	More       int               `json:"more,omitempty"`
}

// ChangedPage is the `ChangedRevisionPage` object.
type ChangedPage struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
	Path  string `json:"path,omitempty"`
}

// ChangedFile is the `ChangedRevisionFile` object.
type ChangedFile struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	DownloadURL string `json:"downloadURL"`
}

// AttributeChange is a `ChangeAttribute*` object: a value before and after.
type AttributeChange struct {
	Before any `json:"before,omitempty"`
	After  any `json:"after,omitempty"`
}

type pageChange struct {
	Type       string                     `json:"type"`
	Page       ChangedPage                `json:"page"`
	Attributes map[string]AttributeChange `json:"attributes,omitempty"`
	Parent     *parentChange              `json:"parent,omitempty"`
}

type parentChange struct {
	Before *ChangedPage `json:"before,omitempty"`
	After  *ChangedPage `json:"after,omitempty"`
}

type fileChange struct {
	Type       string                     `json:"type"`
	File       ChangedFile                `json:"file"`
	Attributes map[string]AttributeChange `json:"attributes,omitempty"`
}

// DiffRange names what a list of changes compares: revisions From and To of a space.
type DiffRange struct {
	SpaceID, From, To string
}

// FromDiff converts the differences between two revisions into semantic changes, in this
// order: pages created, edited, moved, deleted, then files created, edited, deleted. A page
// edited and moved is listed twice, once as each. At most limit changes are listed; More
// counts the others.
func (u URLs) FromDiff(r DiffRange, pages []content.PageDiff, files []content.FileDiff, limit int) SemanticChanges {
	var buckets [7][]any
	for _, d := range pages {
		switch {
		case d.Before == nil:
			buckets[0] = append(buckets[0], pageChange{Type: "page_created", Page: changedPage(d.After, d.AfterPath)})
		case d.After == nil:
			buckets[3] = append(buckets[3], pageChange{Type: "page_deleted", Page: changedPage(d.Before, d.BeforePath)})
		default:
			if attrs := pageAttributes(d); len(attrs) > 0 {
				buckets[1] = append(buckets[1], pageChange{Type: "page_edited", Page: changedPage(d.After, d.AfterPath), Attributes: attrs})
			}
			if d.Before.ParentID != d.After.ParentID || d.Before.Order != d.After.Order {
				pc := &parentChange{}
				if d.Before.ParentID == d.After.ParentID {
					// Moved among its siblings: the parent is the same on both sides, and is
					// looked up only when the page changed parents.
					if d.After.ParentID != "" {
						same := ChangedPage{ID: d.After.ParentID}
						pc.Before, pc.After = &same, &same
					}
				} else {
					pc.Before, pc.After = changedParent(d.ParentBefore), changedParent(d.ParentAfter)
				}
				buckets[2] = append(buckets[2], pageChange{Type: "page_moved", Page: changedPage(d.After, d.AfterPath), Parent: pc})
			}
		}
	}
	for _, d := range files {
		switch {
		case d.Before == nil:
			buckets[4] = append(buckets[4], fileChange{Type: "file_created", File: u.changedFile(r.SpaceID, r.To, d.After)})
		case d.After == nil:
			buckets[6] = append(buckets[6], fileChange{Type: "file_deleted", File: u.changedFile(r.SpaceID, r.From, d.Before)})
		default:
			before, after := u.changedFile(r.SpaceID, r.From, d.Before), u.changedFile(r.SpaceID, r.To, d.After)
			attrs := map[string]AttributeChange{}
			diffAttr(attrs, "name", before.Name, after.Name)
			diffAttr(attrs, "contentType", before.ContentType, after.ContentType)
			if d.Before.Hash != d.After.Hash {
				attrs["downloadURL"] = AttributeChange{Before: before.DownloadURL, After: after.DownloadURL}
			}
			if d.Before.Size != d.After.Size {
				attrs["size"] = AttributeChange{Before: d.Before.Size, After: d.After.Size}
			}
			if d.Before.Dimensions != d.After.Dimensions {
				attrs["dimensions"] = AttributeChange{Before: d.Before.Dimensions, After: d.After.Dimensions}
			}
			if len(attrs) > 0 {
				buckets[5] = append(buckets[5], fileChange{Type: "file_edited", File: after, Attributes: attrs})
			}
		}
	}
	out := SemanticChanges{Changes: []json.RawMessage{}}
	for _, b := range buckets {
		for _, c := range b {
			if len(out.Changes) >= limit {
				out.More++
				continue
			}
			raw, _ := json.Marshal(c) // strings, numbers and raw JSON only
			out.Changes = append(out.Changes, raw)
		}
	}
	return out
}

func changedPage(p *contenttree.Page, path string) ChangedPage {
	return ChangedPage{ID: p.ID, Type: string(p.Kind), Title: p.Title, Path: path}
}

func changedParent(p *contenttree.Page) *ChangedPage {
	if p == nil {
		return nil
	}
	c := changedPage(p, "")
	return &c
}

func (u URLs) changedFile(spaceID, revisionID string, f *contenttree.File) ChangedFile {
	return ChangedFile{ID: f.ID, Name: f.Name, ContentType: f.ContentType,
		DownloadURL: u.API("/spaces/" + Esc(spaceID) + "/revisions/" + Esc(revisionID) + "/files/" + Esc(f.ID) + "/download")}
}

// pageAttributes lists what an edit changed, among the attributes the spec names for the
// page's kind. The document is compared by the hash of its markdown, which the change gives
// as its before and after values.
func pageAttributes(d content.PageDiff) map[string]AttributeChange {
	a, b := d.Before, d.After
	out := map[string]AttributeChange{}
	diffAttr(out, "title", a.Title, b.Title)
	diffAttr(out, "emoji", a.Emoji, b.Emoji)
	switch b.Kind {
	case contenttree.KindLink:
		if !bytes.Equal(a.Target, b.Target) {
			out["target"] = AttributeChange{Before: rawOrNil(a.Target), After: rawOrNil(b.Target)}
		}
	case contenttree.KindGroup:
		diffAttr(out, "slug", a.Slug, b.Slug)
	default:
		diffAttr(out, "slug", a.Slug, b.Slug)
		diffAttr(out, "description", a.Description, b.Description)
		diffAttr(out, "document", d.BeforeMD, d.AfterMD)
		if !bytes.Equal(a.Cover, b.Cover) {
			out["cover"] = AttributeChange{Before: rawOrNil(a.Cover), After: rawOrNil(b.Cover)}
		}
		if !bytes.Equal(a.Layout, b.Layout) {
			out["layout"] = AttributeChange{Before: rawOrNil(a.Layout), After: rawOrNil(b.Layout)}
		}
	}
	return out
}

func diffAttr(out map[string]AttributeChange, name, before, after string) {
	if before != after {
		out[name] = AttributeChange{Before: before, After: after}
	}
}

func rawOrNil(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return json.RawMessage(b)
}
