package gitbookimport

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"docsd/internal/markdoc"
)

// importer builds the page tree of one content root.
type importer struct {
	fsys   fs.FS
	cfg    config
	result *Result

	markdown []string // markdown files that may be pages, in pathLess order
	assets   []string // files under .gitbook/assets/
	readme   string   // path of README.md, "" if there is none
	summary  string   // path of SUMMARY.md, "" if there is none

	isPage   map[string]bool  // the markdown files, as a set
	used     map[string]bool  // markdown files already made pages
	byPath   map[string]*node // pages by markdown file
	readmeOf map[string]*node // pages of README.md files by directory
	roots    []*node
}

// node is a page and its children before the tree is flattened into Result.Pages.
type node struct {
	page     Page
	children []*node
}

func newImporter(fsys fs.FS, cfg config) *importer {
	return &importer{
		fsys: fsys, cfg: cfg,
		result: &Result{Warnings: slices.Clone(cfg.warnings)},
		isPage: map[string]bool{}, used: map[string]bool{}, byPath: map[string]*node{}, readmeOf: map[string]*node{},
	}
}

func (im *importer) warnf(format string, args ...any) {
	im.result.Warnings = append(im.result.Warnings, fmt.Sprintf(format, args...))
}

const assetsDir = ".gitbook/assets"

// scan lists the markdown files and assets of the tree.
func (im *importer) scan() error {
	err := fs.WalkDir(im.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && strings.HasPrefix(d.Name(), ".") && p != ".gitbook" && p != assetsDir {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		switch {
		case strings.HasPrefix(d.Name(), "."):
			// .DS_Store and the like, even among the assets.
		case strings.HasPrefix(p, assetsDir+"/"):
			im.assets = append(im.assets, p)
		case hiddenPath(p):
		case isMarkdown(p):
			im.markdown = append(im.markdown, p)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("import: reading the tree: %w", err)
	}
	im.readme = findFile(im.markdown, im.cfg.readme)
	im.summary = findFile(im.markdown, im.cfg.summary)
	if im.summary != "" {
		im.markdown = slices.DeleteFunc(im.markdown, func(p string) bool { return p == im.summary })
	}
	slices.SortFunc(im.markdown, pathCompare)
	for _, p := range im.markdown {
		im.isPage[p] = true
	}
	return nil
}

func hiddenPath(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

func isMarkdown(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext == ".md" || ext == ".markdown"
}

// findFile returns the path in paths equal to want, or equal to it but for case.
func findFile(paths []string, want string) string {
	found := ""
	for _, p := range paths {
		if p == want {
			return p
		}
		if found == "" && strings.EqualFold(p, want) {
			found = p
		}
	}
	return found
}

// pathCompare orders paths directory by directory, a directory's README.md before its other
// entries, then by name.
func pathCompare(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] == bs[i] {
			continue
		}
		aReadme := i == len(as)-1 && isReadme(as[i])
		bReadme := i == len(bs)-1 && isReadme(bs[i])
		switch {
		case aReadme && !bReadme:
			return -1
		case bReadme && !aReadme:
			return 1
		}
		if c := strings.Compare(strings.ToLower(as[i]), strings.ToLower(bs[i])); c != 0 {
			return c
		}
		return strings.Compare(as[i], bs[i])
	}
	return len(as) - len(bs)
}

func isReadme(name string) bool { return strings.EqualFold(name, "README.md") }

// buildTree makes the page tree: SUMMARY.md's entries, the home page first, then the pages
// SUMMARY.md does not list.
func (im *importer) buildTree() {
	if im.summary != "" {
		raw, err := fs.ReadFile(im.fsys, im.summary)
		if err != nil {
			im.warnf("%s: cannot be read: %v", im.summary, err)
		}
		for _, e := range parseSummary(raw) {
			im.roots = append(im.roots, im.fromEntry(e)...)
		}
	}
	if im.readme != "" {
		if !im.used[im.readme] {
			im.roots = append([]*node{im.document(im.readme, "")}, im.roots...)
		} else if i := slices.Index(im.roots, im.byPath[im.readme]); i > 0 {
			home := im.roots[i]
			im.roots = append([]*node{home}, slices.Delete(im.roots, i, i+1)...)
		}
	}
	im.addUnlisted()
}

// fromEntry makes the pages of one SUMMARY.md entry: usually one node; the children alone
// when the entry repeats a page already listed.
func (im *importer) fromEntry(e *summaryEntry) []*node {
	var n *node
	switch link, hasLink := markdoc.ParseLink(e.target); {
	case e.group:
		n = &node{page: Page{Kind: KindGroup, Title: e.title, Slug: slugOr(e.title, "group")}}
	case !hasLink:
		n = &node{page: Page{Kind: KindDocument, Title: e.title, Slug: slugOr(e.title, "page")}}
	case link.Kind == markdoc.LinkURL || link.Kind == markdoc.LinkFile:
		n = &node{page: Page{Kind: KindLink, Title: e.title, Href: e.target}}
	default:
		p, ok := link.Resolve(im.summary)
		switch {
		case !ok || !im.isPage[p]:
			im.warnf("%s:%d: %s: no such page; imported as an empty page", im.summary, e.line, e.target)
			n = &node{page: Page{Kind: KindDocument, Title: e.title, Slug: slugOr(e.title, "page")}}
		case im.used[p]:
			im.warnf("%s:%d: %s: listed again; only its first entry is kept", im.summary, e.line, e.target)
		default:
			n = im.document(p, e.title)
		}
	}
	var children []*node
	for _, c := range e.children {
		children = append(children, im.fromEntry(c)...)
	}
	if n == nil {
		return children
	}
	n.children = append(n.children, children...)
	return []*node{n}
}

// addUnlisted adds the markdown files SUMMARY.md does not list, each under the page of the
// nearest README.md above it, else at the top level. With a SUMMARY.md they are hidden.
func (im *importer) addUnlisted() {
	var unlisted []string
	for _, p := range im.markdown {
		if im.used[p] {
			continue
		}
		n := im.document(p, "")
		if im.summary != "" {
			n.page.Hidden = true
			unlisted = append(unlisted, p)
		}
		if parent := im.readmeAbove(p); parent != nil {
			parent.children = append(parent.children, n)
		} else {
			im.roots = append(im.roots, n)
		}
	}
	if len(unlisted) > 0 {
		shown := unlisted[:min(len(unlisted), 10)]
		more := ""
		if len(unlisted) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(unlisted)-len(shown))
		}
		im.warnf("%s: does not list %d pages, imported hidden: %s%s", im.summary, len(unlisted), strings.Join(shown, ", "), more)
	}
}

// readmeAbove returns the page of the README.md of the nearest directory above p (the root's
// README.md is the home page, a sibling, not a parent).
func (im *importer) readmeAbove(p string) *node {
	dir := path.Dir(p)
	if isReadme(path.Base(p)) {
		dir = path.Dir(dir)
	}
	for ; dir != "." && dir != "/"; dir = path.Dir(dir) {
		if n := im.readmeOf[dir]; n != nil {
			return n
		}
	}
	return nil
}
