package wire

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"

	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/pagelayout"
)

// Revision is the `revision` object.
type Revision struct {
	Object           string                     `json:"object"`
	ID               string                     `json:"id"`
	Parents          []string                   `json:"parents"`
	Type             string                     `json:"type"`
	Pages            []Page                     `json:"pages"`
	Files            []File                     `json:"files"`
	ReusableContents []RevisionReusableContent  `json:"reusableContents"`
	Variables        map[string]json.RawMessage `json:"variables"`
	CreatedAt        Time                       `json:"createdAt"`
	URLs             RevisionURLs               `json:"urls"`
	Git              *content.GitCommit         `json:"git,omitempty"`
	// Tags: docsd has no revision tags, so the list is empty.
	Tags []struct{} `json:"tags"`
	// MergedFrom is the change request a merge revision merged (set by the handler).
	MergedFrom *ChangeRequest `json:"mergedFrom,omitempty"`
}

// RevisionURLs are a revision's URLs; published ones belong to sites, which serve a space's
// current revision only.
type RevisionURLs struct {
	App       string `json:"app"`
	Published string `json:"published,omitempty"`
	Public    string `json:"public,omitempty"`
}

// SetPublished fills the revision's published URLs.
func (r *Revision) SetPublished(p ContentPublished) {
	r.URLs.Published, r.URLs.Public = p.Published, p.Public
}

// Page is a page of a revision: a document, a group or a link. Documents carry their
// markdown only when one page is asked for in the markdown format.
type Page struct {
	ID            string                     `json:"id"`
	Title         string                     `json:"title"`
	Emoji         string                     `json:"emoji,omitempty"`
	Icon          string                     `json:"icon,omitempty"`
	CreatedAt     *Time                      `json:"createdAt,omitempty"` // absent until the page is edited
	UpdatedAt     *Time                      `json:"updatedAt,omitempty"`
	Kind          string                     `json:"kind"` // deprecated in the API, still sent
	Type          string                     `json:"type"`
	URLs          *PageURLs                  `json:"urls,omitempty"`
	Slug          string                     `json:"slug,omitempty"`
	Path          *string                    `json:"path,omitempty"`
	Description   string                     `json:"description,omitempty"`
	Markdown      *string                    `json:"markdown,omitempty"`
	DocumentID    string                     `json:"documentId,omitempty"` // a document's, when it is not empty (getDocumentById)
	Document      json.RawMessage            `json:"document,omitempty"`
	Pages         *[]Page                    `json:"pages,omitempty"`  // documents and groups always have it
	Layout        *pagelayout.Options        `json:"layout,omitempty"` // documents: every option, defaults filled in
	Cover         json.RawMessage            `json:"cover,omitempty"`
	Target        json.RawMessage            `json:"target,omitempty"`
	Href          string                     `json:"href,omitempty"` // a link page's URL, when it points at one
	Variables     map[string]json.RawMessage `json:"variables,omitempty"`
	Hidden        bool                       `json:"hidden"`
	NoIndex       *bool                      `json:"noIndex,omitempty"`
	NoRobotsIndex *bool                      `json:"noRobotsIndex,omitempty"`
	Git           *contenttree.GitBlob       `json:"git,omitempty"`
	// Tags are a document's tags: docsd has none, so documents have an empty list.
	Tags *[]struct{} `json:"tags,omitempty"`
}

// PageURLs are a page's URLs.
type PageURLs struct {
	App string `json:"app"`
}

// File is a file of a revision.
type File struct {
	ID          string                  `json:"id"`
	Name        string                  `json:"name"`
	ContentType string                  `json:"contentType"`
	DownloadURL string                  `json:"downloadURL"`
	Size        int64                   `json:"size"`
	Dimensions  *contenttree.Dimensions `json:"dimensions,omitempty"`
	Git         *contenttree.GitBlob    `json:"git,omitempty"`
}

// PageList is the answer of the pages endpoints.
type PageList struct {
	Pages []Page `json:"pages"`
}

// FromRevision converts a whole revision.
func (u URLs) FromRevision(spaceID string, snap *content.Snapshot) Revision {
	r := snap.Revision
	files := make([]File, 0, len(snap.Tree.Files))
	for _, id := range snap.FileIDs() {
		files = append(files, u.FromFile(spaceID, r.ID, snap.Tree.Files[id]))
	}
	vars := r.Variables
	if vars == nil {
		vars = map[string]json.RawMessage{}
	}
	return Revision{Object: "revision", ID: r.ID, Parents: r.Parents, Type: r.Type, Pages: u.PageTree(spaceID, snap, ""),
		Files: files, ReusableContents: reusableContents(snap), Tags: []struct{}{}, Variables: vars, CreatedAt: Time(r.CreatedAt),
		URLs: RevisionURLs{App: u.App("/s/" + Esc(spaceID) + "/~/revisions/" + Esc(r.ID))}, Git: r.Git}
}

// reusableContents lists a revision's reusable contents, sorted by title then id.
func reusableContents(snap *content.Snapshot) []RevisionReusableContent {
	out := make([]RevisionReusableContent, 0, len(snap.Tree.ReusableContents))
	for id, r := range snap.Tree.ReusableContents {
		out = append(out, FromReusableContent(r, snap.ReusableDocumentID(id)))
	}
	slices.SortFunc(out, func(a, b RevisionReusableContent) int {
		return cmp.Or(cmp.Compare(a.Title, b.Title), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// PageTree converts the pages under parentID ("" for the top level), recursively.
func (u URLs) PageTree(spaceID string, snap *content.Snapshot, parentID string) []Page {
	ids := snap.Children(parentID)
	out := make([]Page, 0, len(ids))
	for _, id := range ids {
		out = append(out, u.FromPage(spaceID, snap, snap.Tree.Pages[id]))
	}
	return out
}

// FromPage converts one page with its subtree; the caller adds markdown or document.
func (u URLs) FromPage(spaceID string, snap *content.Snapshot, p contenttree.Page) Page {
	w := u.PageAlone(spaceID, snap, p)
	if w.Pages != nil {
		children := u.PageTree(spaceID, snap, p.ID)
		w.Pages = &children
	}
	return w
}

// PageAlone converts one page without its subtree: documents and groups have empty `pages`.
func (u URLs) PageAlone(spaceID string, snap *content.Snapshot, p contenttree.Page) Page {
	w := Page{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Icon: p.Icon, Kind: string(p.Kind), Type: string(p.Kind),
		Hidden: p.Hidden, Git: gitBlob(p.Git), CreatedAt: optionalTime(p.CreatedAt), UpdatedAt: optionalTime(p.UpdatedAt)}
	if p.Kind == contenttree.KindLink {
		w.Target = p.Target
		var ref struct {
			Kind, URL string
		}
		if json.Unmarshal(p.Target, &ref) == nil && ref.Kind == "url" {
			w.Href = ref.URL
		}
		return w
	}
	path := snap.Paths[p.ID]
	no, noRobots := p.NoIndex, p.NoRobotsIndex
	w.Slug, w.Path, w.NoIndex, w.NoRobotsIndex = p.Slug, &path, &no, &noRobots
	w.Pages = &[]Page{}
	if p.Kind == contenttree.KindDocument {
		w.Kind = "sheet" // the API's deprecated kind of a document
		w.URLs = &PageURLs{App: u.App("/s/" + Esc(spaceID) + "/" + path)}
		w.Description, w.Cover, w.Variables = p.Description, p.Cover, p.Variables
		w.Tags = &[]struct{}{}
		w.DocumentID = snap.PageDocumentID(p.ID)
		layout := pagelayout.Resolve(p.Layout)
		w.Layout = &layout
	}
	return w
}

// FromFile converts a file; its download URL is the API route that streams its bytes.
func (u URLs) FromFile(spaceID, revisionID string, f contenttree.File) File {
	out := File{ID: f.ID, Name: f.Name, ContentType: f.ContentType, Size: f.Size, Git: gitBlob(f.Git),
		DownloadURL: u.API("/spaces/" + Esc(spaceID) + "/revisions/" + Esc(revisionID) + "/files/" + Esc(f.ID) + "/download")}
	if f.Dimensions != (contenttree.Dimensions{}) {
		d := f.Dimensions
		out.Dimensions = &d
	}
	return out
}

// optionalTime renders a time that may be unknown (zero) as absent.
func optionalTime(t time.Time) *Time {
	if t.IsZero() {
		return nil
	}
	return TimePtr(&t)
}

func gitBlob(g contenttree.GitBlob) *contenttree.GitBlob {
	if g == (contenttree.GitBlob{}) {
		return nil
	}
	return &g
}

// DropGit leaves out the mutable Git metadata of the revision, its pages and its files, as
// reads with metadata=false ask.
func (r *Revision) DropGit() {
	r.Git = nil
	DropPagesGit(r.Pages)
	for i := range r.Files {
		r.Files[i].Git = nil
	}
	for i := range r.ReusableContents {
		r.ReusableContents[i].Git = nil
	}
}

// DropGit leaves out the Git metadata of the page and its subtree.
func (p *Page) DropGit() {
	p.Git = nil
	if p.Pages != nil {
		DropPagesGit(*p.Pages)
	}
}

// DropPagesGit leaves out the Git metadata of pages and their subtrees.
func DropPagesGit(pages []Page) {
	for i := range pages {
		pages[i].DropGit()
	}
}
