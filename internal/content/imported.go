package content

import (
	"encoding/json"
	"time"

	"docsd/internal/blob"
	"docsd/internal/contenttree"
	"docsd/internal/gitbookimport"
	"docsd/internal/ids"
)

// importedTree turns an imported markdown tree into a revision's tree. Pages keep the ids of
// the pages at the same place in the current content (same parent, same slug, or for links
// the same title), so re-importing an edited tree keeps page ids, and every unchanged page
// keeps its record. Files are identified by their path in the tree, the same way. Sibling
// order keys are made the same way every time, for the same reason. A kept page that was
// edited through the API keeps its creation time, and its edit time unless the import (at
// now) changes it; pages never edited have neither (see keepTimes).
func importedTree(head *Snapshot, res *gitbookimport.Result, stored map[string]blob.Ref, now time.Time) (*contenttree.Tree, error) {
	headKeys := map[string]string{} // place → page id in the current content
	var placeOf func(id string) string
	placeOf = func(id string) string {
		p := head.Tree.Pages[id]
		parent := ""
		if p.ParentID != "" {
			parent = placeOf(p.ParentID)
		}
		return place(parent, string(p.Kind), p.Slug, p.Title)
	}
	for id := range head.Tree.Pages {
		headKeys[placeOf(id)] = id
	}
	fileIDs := map[string]string{} // path → file id

	t := contenttree.New()
	for k, v := range res.Variables {
		t.Variables[k], _ = json.Marshal(v) // strings, numbers and booleans
	}
	for _, f := range res.Files {
		ref := stored[f.Path]
		id := fileID(f.Path)
		t.Files[id] = contenttree.File{ID: id, Name: f.Name, ContentType: f.ContentType, Hash: ref.Hash, Size: ref.Size,
			Dimensions: contenttree.Dimensions{Width: f.Width, Height: f.Height},
			Git:        contenttree.GitBlob{OID: gitbookimport.GitBlobID(f.Data), Path: res.GitPath(f.Path)}}
		fileIDs[f.Path] = id
	}

	for _, rc := range res.ReusableContents {
		id := reusableContentID(rc.Path)
		t.ReusableContents[id] = contenttree.ReusableContent{ID: id, Title: rc.Title, Markdown: rc.Markdown,
			Git: contenttree.GitBlob{OID: rc.GitOID, Path: res.GitPath(rc.Path)}}
	}

	pageIDs := make([]string, len(res.Pages))
	places := make([]string, len(res.Pages))
	lastOrder := map[string]string{}
	taken := map[string]bool{}
	for i, ip := range res.Pages {
		parentID, parentPlace := "", ""
		if ip.Parent >= 0 {
			parentID, parentPlace = pageIDs[ip.Parent], places[ip.Parent]
		}
		places[i] = place(parentPlace, ip.Kind, ip.Slug, ip.Title)
		id, ok := headKeys[places[i]]
		if !ok || taken[id] {
			id = ids.New()
		}
		taken[id] = true
		pageIDs[i] = id
		order, err := contenttree.OrderBetween(lastOrder[parentID], "")
		if err != nil {
			return nil, err
		}
		lastOrder[parentID] = order
		p := contenttree.Page{ID: id, ParentID: parentID, Order: order, Kind: contenttree.Kind(ip.Kind), Title: ip.Title,
			Slug: ip.Slug, Emoji: ip.Emoji, Icon: ip.Icon, Description: ip.Description, Hidden: ip.Hidden,
			NoIndex: ip.NoIndex, NoRobotsIndex: ip.NoRobots, Markdown: ip.Markdown}
		if ip.Path != "" {
			p.Git = contenttree.GitBlob{OID: ip.GitOID, Path: res.GitPath(ip.Path)}
		}
		for k, v := range ip.Variables {
			if p.Variables == nil {
				p.Variables = map[string]json.RawMessage{}
			}
			p.Variables[k], _ = json.Marshal(v)
		}
		if layout, _ := json.Marshal(ip.Layout); string(layout) != "{}" {
			p.Layout = layout
		}
		if ip.Cover != "" {
			p.Cover = coverJSON(ip.Cover, ip.CoverY, fileIDs)
		}
		if ip.Kind == gitbookimport.KindLink {
			p.Target, _ = json.Marshal(map[string]string{"kind": "url", "url": ip.Href})
		}
		t.Pages[id] = keepTimes(head, p, now)
	}
	return t, nil
}

// keepTimes gives an imported page the times of the head's page with its id: the same times
// when the import leaves its content as it was (the Git metadata, which only says where it
// was read from, aside), else the import as its last edit.
func keepTimes(head *Snapshot, p contenttree.Page, now time.Time) contenttree.Page {
	hp, ok := head.Tree.Pages[p.ID]
	if !ok || hp.CreatedAt.IsZero() {
		return p
	}
	p.CreatedAt, p.UpdatedAt = hp.CreatedAt, hp.UpdatedAt
	same := p
	same.Git = hp.Git
	if h, _, _ := encodePage(same); h != head.pageHashes[p.ID] {
		p.UpdatedAt = now.UTC().Truncate(time.Millisecond)
	}
	return p
}

// place names where a page sits, for matching pages across imports.
func place(parent, kind, slug, title string) string {
	if kind == string(contenttree.KindLink) {
		return parent + "/link:" + title
	}
	return parent + "/" + slug
}

// fileID is a file's id from its path in the tree: stable across imports of the same tree.
func fileID(path string) string { return "f" + digest([]byte(path))[:19] }

// reusableContentID is a reusable content's id from its path in the tree, stable across
// imports of the same tree as fileID is.
func reusableContentID(path string) string { return "r" + digest([]byte("include:" + path))[:19] }

// coverJSON is the API's cover object for an image in the tree, or at a URL.
func coverJSON(cover string, y float64, fileIDs map[string]string) json.RawMessage {
	c := map[string]any{}
	if id, ok := fileIDs[cover]; ok {
		c["ref"] = map[string]string{"kind": "file", "file": id}
	} else {
		c["ref"] = map[string]string{"kind": "url", "url": cover}
	}
	if y != 0 {
		c["yPos"] = y
	}
	b, _ := json.Marshal(c)
	return b
}
