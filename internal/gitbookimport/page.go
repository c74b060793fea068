package gitbookimport

import (
	"io/fs"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"docsd/internal/markdoc"
)

// document makes the page of a markdown file; title, when not empty, is its SUMMARY.md title.
func (im *importer) document(p, title string) *node {
	im.used[p] = true
	raw, err := fs.ReadFile(im.fsys, p)
	if err != nil {
		im.warnf("%s: cannot be read, imported as an empty page: %v", p, err)
	}
	if !utf8.Valid(raw) {
		im.warnf("%s: is not UTF-8 text; invalid bytes were replaced", p)
		raw = []byte(strings.ToValidUTF8(string(raw), "\uFFFD"))
	}
	meta, body := markdoc.ParseFrontMatter(string(raw))
	if meta.Problem != "" {
		im.warnf("%s: %s", p, meta.Problem)
	}
	im.warnUnknownTags(p, body)
	heading, body := markdoc.SplitTitle(body)
	if title == "" {
		title = heading
	}
	if title == "" {
		title = titleFromPath(p)
	}
	page := Page{
		Path:        p,
		Kind:        KindDocument,
		Title:       title,
		Slug:        slugFromPath(p, title),
		Description: meta.Description,
		Emoji:       meta.Emoji,
		Icon:        meta.Icon,
		Hidden:      meta.Hidden,
		NoIndex:     meta.NoIndex,
		NoRobots:    meta.NoRobotsIndex,
		Variables:   meta.Variables,
		GitOID:      GitBlobID(raw),
		Layout:      meta.Layout,
		CoverY:      meta.CoverY,
		Markdown:    body,
	}
	if link, ok := markdoc.ParseLink(meta.Cover); ok {
		if link.Kind == markdoc.LinkURL {
			page.Cover = meta.Cover
		} else if resolved, ok := link.Resolve(p); ok {
			page.Cover = resolved
		}
	}
	n := &node{page: page}
	im.byPath[p] = n
	if dir := path.Dir(p); isReadme(path.Base(p)) && im.readmeOf[dir] == nil {
		im.readmeOf[dir] = n
	}
	return n
}

// titleFromPath makes a title of a file name: "getting-started.md" → "Getting started"; a
// README.md is named after its directory, the root one "Introduction" as GitBook names it.
func titleFromPath(p string) string {
	name := strings.TrimSuffix(path.Base(p), path.Ext(p))
	if isReadme(path.Base(p)) {
		name = path.Base(path.Dir(p))
		if name == "." {
			return "Introduction"
		}
	}
	name = strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || unicode.IsSpace(r) }), " ")
	if name == "" {
		return "Untitled"
	}
	r, size := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[size:]
}

// slugFromPath makes a page's slug of its file name ("install.md" → "install"), a README.md's
// of its directory's, the root README.md's of its title.
func slugFromPath(p, title string) string {
	name := strings.TrimSuffix(path.Base(p), path.Ext(p))
	if isReadme(path.Base(p)) {
		name = path.Base(path.Dir(p))
		if name == "." {
			return slugOr(title, "home")
		}
	}
	return slugOr(name, slugOr(title, "page"))
}

// slugOr slugifies s, or returns fallback when s has nothing to make a slug of.
func slugOr(s, fallback string) string {
	if slug := markdoc.Slugify(s); slug != "" {
		return slug
	}
	return fallback
}
