// Package gitbookimport reads a GitBook-style markdown tree (README.md, SUMMARY.md, pages,
// .gitbook/assets/) into the pages and files of a space, and unpacks uploaded zip and tar
// archives into such a tree within limits.
package gitbookimport

import (
	"io/fs"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/markdoc"
)

// Page kinds.
const (
	KindDocument = "document"
	KindGroup    = "group"
	KindLink     = "link"
)

// Result is an imported space: its pages and its files.
type Result struct {
	// Pages in navigation order, depth first: every page comes after its parent and before
	// its next sibling. The home page (README.md) is the first.
	Pages []Page `json:"pages"`
	// Files sorted by path.
	Files []File `json:"files"`
	// Root is the content root's path inside what was imported ("" at its root; "docs" when
	// .gitbook.yaml moves it), so that a page's Git path can be given from the top.
	Root string `json:"root,omitempty"`
	// ReusableContents are the files of .gitbook/includes/, sorted by path.
	ReusableContents []ReusableContent `json:"reusableContents,omitempty"`
	// Variables are the space's variables, from .gitbook/vars.yaml.
	Variables map[string]any `json:"variables,omitempty"`
	// Commit is the Git commit the tree was read from; nil for an uploaded archive. The
	// caller that fetched the tree sets it.
	Commit *Commit `json:"commit,omitempty"`
	// Warnings say what was imported differently from how the tree asked, or not at all:
	// a SUMMARY.md entry pointing at a missing file, front matter that is not valid YAML,
	// pages missing from SUMMARY.md.
	Warnings []string `json:"warnings,omitempty"`
}

// Page is one page of an imported space.
type Page struct {
	// Path is the markdown file the page was read from, relative to the root of the content
	// ("guides/setup.md"), so that links between pages, written as relative paths, can be
	// resolved later. It is empty for groups, links, and SUMMARY.md items without a file.
	Path string `json:"path,omitempty"`
	// Parent is the index in Result.Pages of the page's parent, -1 at the top level.
	Parent int `json:"parent"`
	// Order is the page's position among its parent's children, from 0.
	Order int    `json:"order"`
	Kind  string `json:"kind"`
	Title string `json:"title"`
	// Slug is the page's segment of its URL path, unique among its siblings; empty for links.
	Slug        string         `json:"slug,omitempty"`
	Description string         `json:"description,omitempty"`
	Emoji       string         `json:"emoji,omitempty"`
	Icon        string         `json:"icon,omitempty"`
	Hidden      bool           `json:"hidden,omitempty"`
	NoIndex     bool           `json:"noIndex,omitempty"`
	NoRobots    bool           `json:"noRobotsIndex,omitempty"`
	Variables   map[string]any `json:"variables,omitempty"`
	// GitOID is the Git blob id of the page's file as read (front matter included): what
	// Git would name it, for archives as for repositories.
	GitOID string         `json:"gitOid,omitempty"`
	Layout markdoc.Layout `json:"layout,omitzero"`
	// Cover is the path (relative to the root, like Path) or the URL of the cover image.
	Cover  string  `json:"cover,omitempty"`
	CoverY float64 `json:"coverY,omitempty"`
	// Markdown is the page's content as written, without its front matter and without the
	// "# Title" line GitBook starts a page with (the title is Title). Links to other imported
	// pages and files are rewritten to the space's layout (see links.go).
	Markdown string `json:"markdown,omitempty"`
	// Href is where a link page points.
	Href string `json:"href,omitempty"`
}

// Commit describes the Git commit an import was read from.
type Commit struct {
	OID     string `json:"oid"`
	Message string `json:"message"`
	Ref     string `json:"ref,omitempty"` // the ref fetched ("refs/heads/main"); "" for a commit id
	URL     string `json:"url,omitempty"` // the commit's web page, when known
}

// GitPath is where a page or file at p (relative to the content root) sits in what was
// imported.
func (r *Result) GitPath(p string) string {
	if r.Root == "" {
		return p
	}
	return r.Root + "/" + p
}

// File is a file of an imported space: an asset under .gitbook/assets/, or another file the
// pages link to or show.
type File struct {
	// Path is relative to the root of the content (".gitbook/assets/logo.png").
	Path        string `json:"path"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	// Width and Height are an image's size in pixels, for PNG, JPEG and GIF; 0 otherwise.
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	Data   []byte `json:"-"`
}

// Import reads a GitBook-style tree.
//
// The content root is the root of fsys or, when fsys holds a single directory and nothing
// else (as archives of a repository do), that directory; a .gitbook.yaml there may move it
// (`root: ./docs/`) and rename README.md and SUMMARY.md (`structure: {readme, summary}`).
//
// Pages come from SUMMARY.md: its items in order, nested as its lists nest, each `##` heading
// a group. README.md is the home page and the first page, listed or not. A markdown file that
// SUMMARY.md does not list is still imported, after the listed pages, hidden from the
// navigation (its author did not put it there) and with a warning: files are taken in path
// order, each under the page of the nearest README.md of a directory above it, or at the top
// level. Without a SUMMARY.md every page is imported that way, visible. Files and directories
// whose names start with "." are not pages.
//
// A page's title is its SUMMARY.md link text, else its "# Title" line, else its file name; its
// slug comes from its file name (a README.md's from its directory's). Front matter gives the
// description, icon or emoji, hidden, noIndex and noRobotsIndex flags, variables (`vars:`),
// layout and cover; .gitbook/vars.yaml gives the space's variables.
//
// Import fails with an apperr Invalid error when the tree has no markdown page at all.
func Import(fsys fs.FS) (*Result, error) {
	root, prefix, cfg, err := findRoot(fsys)
	if err != nil {
		return nil, err
	}
	im := newImporter(root, cfg)
	im.result.Root = prefix
	im.readVariables()
	if err := im.scan(); err != nil {
		return nil, err
	}
	if len(im.markdown) == 0 {
		return nil, apperr.Invalidf("import: no markdown page found (a GitBook space has a README.md and .md pages)")
	}
	im.readIncludes()
	im.buildTree()
	im.result.Pages = flatten(im.roots)
	// Checked here, where the tree is read within the request, so that a large import is
	// refused before it is queued rather than failing in its job (commit refuses the same).
	for _, p := range im.result.Pages {
		for _, f := range []struct{ name, value string }{{"markdown", p.Markdown}, {"title", p.Title},
			{"description", p.Description}, {"emoji", p.Emoji}, {"icon", p.Icon}, {"slug", p.Slug}} {
			if strings.IndexByte(f.value, 0) >= 0 {
				where := p.Path
				if where == "" {
					where = "SUMMARY.md"
				}
				return nil, apperr.Invalidf("markdown: %s: the page's %s must be UTF-8 text without NUL characters", where, f.name)
			}
		}
	}
	im.collectFiles()
	rewriteLinks(im.result)
	return im.result, nil
}
