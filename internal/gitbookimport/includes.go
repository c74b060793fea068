package gitbookimport

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"docsd/internal/markdoc"
)

// ReusableContent is a reusable content of an imported space: a file under
// .gitbook/includes/, which pages show with {% include "../.gitbook/includes/name.md" %}.
type ReusableContent struct {
	// Path is relative to the root of the content (".gitbook/includes/note.md").
	Path  string `json:"path"`
	Title string `json:"title"`
	// Markdown is the content as written, without its front matter.
	Markdown string `json:"markdown"`
	GitOID   string `json:"gitOid,omitempty"`
}

// includesDir is where GitBook keeps reusable contents.
const includesDir = ".gitbook/includes"

// IncludeLocation is where a reusable content lives in GitBook's file layout, given its file name.
func IncludeLocation(name string) string { return includesDir + "/" + name }

// frontMatterTitle reads the title: line of a reusable content's front matter, GitBook's
// only field there.
var frontMatterTitle = regexp.MustCompile(`(?m)^title:[ \t]*(.*?)[ \t]*\r?$`)

// readIncludes reads .gitbook/includes/*.md, sorted by path.
func (im *importer) readIncludes() {
	entries, err := fs.ReadDir(im.fsys, includesDir)
	if err != nil {
		return // no reusable contents
	}
	for _, e := range entries {
		if e.IsDir() || !isMarkdown(e.Name()) {
			continue
		}
		p := IncludeLocation(e.Name())
		raw, err := fs.ReadFile(im.fsys, p)
		if err != nil {
			im.warnf("%s: cannot be read, not imported: %v", p, err)
			continue
		}
		if !utf8.Valid(raw) {
			im.warnf("%s: is not UTF-8 text; invalid bytes were replaced", p)
			raw = []byte(strings.ToValidUTF8(string(raw), "\uFFFD"))
		}
		meta, body := markdoc.ParseFrontMatter(string(raw))
		if meta.Problem != "" {
			im.warnf("%s: %s", p, meta.Problem)
		}
		title := ""
		if front := strings.TrimSuffix(string(raw), body); front != "" {
			if m := frontMatterTitle.FindStringSubmatch(front); m != nil {
				// The value is YAML (quoted when it holds a colon or quotes).
				if yaml.Unmarshal([]byte(m[1]), &title) != nil {
					title = m[1]
				}
			}
		}
		if title == "" {
			title = titleFromPath(p)
		}
		im.warnUnknownTags(p, body)
		im.result.ReusableContents = append(im.result.ReusableContents,
			ReusableContent{Path: p, Title: title, Markdown: strings.TrimLeft(body, "\r\n"), GitOID: GitBlobID(raw)})
	}
}

// warnUnknownTags warns about block tags docsd does not read: their content is kept, their
// lines are not shown.
func (im *importer) warnUnknownTags(p, md string) {
	if w := UnknownTagsWarning(p, md); w != "" {
		im.warnf("%s", w)
	}
}

// UnknownTagsWarning is the warning an import gives for the block tags of md (read from the
// file p) that docsd does not read, or "" when it has none: each importer of markdown
// (trees, single files) says it the same way.
func UnknownTagsWarning(p, md string) string {
	if !strings.Contains(md, "{%") {
		return ""
	}
	if names := markdoc.UnknownTags(md); len(names) > 0 {
		return fmt.Sprintf("%s: unknown block tag(s) %s: their content was kept and the tags are not shown", p, strings.Join(names, ", "))
	}
	return ""
}

// includeArg matches the path of an include tag as written, for rewriting.
var includeArg = regexp.MustCompile(`(\{%-?[ \t]*include[ \t]+["'])([^"']+)(["'])`)

// rewriteIncludes makes a page's includes point at .gitbook/includes/ from where the page
// sits in the space's layout (its directory from), as GitBook's Git Sync writes them.
func rewriteIncludes(md, pagePath, from string, includes map[string]bool) string {
	if !strings.Contains(md, "include") {
		return md
	}
	return includeArg.ReplaceAllStringFunc(md, func(m string) string {
		sub := includeArg.FindStringSubmatch(m)
		target := path.Clean(path.Join(path.Dir(pagePath), sub[2]))
		if !includes[target] {
			return m
		}
		return sub[1] + relativePath(from, target) + sub[3]
	})
}

// IncludeFile is the file of a reusable content in GitBook's layout: its title in front
// matter, then its markdown. Reading it back (Import) gives the same title and markdown.
func IncludeFile(title, markdown string) []byte {
	quoted, _ := json.Marshal(title) // a JSON string is a YAML string, on one line
	return []byte("---\ntitle: " + string(quoted) + "\n---\n\n" + markdown)
}
