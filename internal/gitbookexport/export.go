// Package gitbookexport writes a space's content as the markdown tree GitBook's Git Sync
// writes, the layout gitbookimport reads: .gitbook.yaml, README.md (the first page),
// SUMMARY.md (the table of contents), one markdown file per page at its location in the space
// (gitbookimport.SpaceLocation), the files under .gitbook/assets and the reusable contents
// under .gitbook/includes. Importing the tree back gives the same pages, titles, order,
// slugs, files and reusable contents.
package gitbookexport

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"docsd/internal/contenttree"
	"docsd/internal/gitbookimport"
	"docsd/internal/markdoc"
)

// Input is the content to write. Children lists each page's children in order ("" for the top
// level); Paths holds each page's path in the space; Markdown each document's text; Files
// each file's bytes by file id.
type Input struct {
	Tree     *contenttree.Tree
	Children func(parentID string) []string
	Paths    map[string]string
	Markdown map[string]string
	Files    map[string][]byte
	// Includes are the reusable contents, with their markdown, by id; each is written under
	// .gitbook/includes/ at the file name pages include it by (content.ReusableFileName).
	Includes map[string]contenttree.ReusableContent
	FileName func(contenttree.ReusableContent) string
}

// Tree returns the files of the tree, by path.
func Tree(in Input) map[string][]byte {
	out := map[string][]byte{}
	loc := map[string]string{} // page id → file location
	var readme string          // the page written as README.md
	var walk func(parent string)
	walk = func(parent string) {
		for _, id := range in.Children(parent) {
			p := in.Tree.Pages[id]
			if p.Kind == contenttree.KindDocument {
				kids := len(in.Children(id)) > 0
				loc[id] = gitbookimport.SpaceLocation(in.Paths[id], kids)
				if readme == "" && parent == "" && !kids {
					readme = id
				}
			}
			walk(id)
		}
	}
	walk("")
	moved := map[string]string{} // old location → new, for links
	if readme != "" {
		moved[loc[readme]] = "README.md"
		loc[readme] = "README.md"
	}
	var summary strings.Builder
	summary.WriteString("# Table of contents\n\n")
	var list func(parent string, depth int)
	list = func(parent string, depth int) {
		for _, id := range in.Children(parent) {
			p := in.Tree.Pages[id]
			indent := strings.Repeat("  ", depth)
			switch p.Kind {
			case contenttree.KindGroup:
				// Groups are the sections of the top level; below it they cannot be written.
				fmt.Fprintf(&summary, "\n## %s\n\n", oneLine(p.Title))
				list(id, 0)
				continue
			case contenttree.KindLink:
				fmt.Fprintf(&summary, "%s* [%s](%s)\n", indent, escapeText(p.Title), linkTarget(p))
			default:
				fmt.Fprintf(&summary, "%s* [%s](%s)\n", indent, escapeText(p.Title), escapeDest(loc[id]))
				out[loc[id]] = []byte(page(p, relink(in.Markdown[id], path.Dir(loc[id]), moved)))
			}
			list(id, depth+1)
		}
	}
	list("", 0)
	out["SUMMARY.md"] = []byte(summary.String())
	out[".gitbook.yaml"] = []byte("root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n")
	includeIDs := make([]string, 0, len(in.Includes))
	for id := range in.Includes {
		includeIDs = append(includeIDs, id)
	}
	sort.Strings(includeIDs)
	for _, id := range includeIDs {
		r := in.Includes[id]
		name := gitbookimport.IncludeLocation(in.FileName(r))
		if _, taken := out[name]; taken {
			// Includes resolve to the smallest id of a name (written first); keep the others.
			name = gitbookimport.IncludeLocation(id + "-" + in.FileName(r))
		}
		y, _ := yaml.Marshal(map[string]string{"title": r.Title})
		out[name] = []byte("---\n" + string(y) + "---\n\n" + strings.TrimLeft(r.Markdown, "\n"))
	}
	ids := make([]string, 0, len(in.Tree.Files))
	for id := range in.Tree.Files {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		f := in.Tree.Files[id]
		name := gitbookimport.AssetLocation(f.Name)
		if _, taken := out[name]; taken {
			// Two files of one name: the second keeps its id beside it, as links to it
			// could not tell them apart anyway.
			name = gitbookimport.AssetLocation(id + "-" + f.Name)
		}
		out[name] = in.Files[id]
	}
	return out
}

// frontMatter is what a page's file says about it beyond its title and text.
type frontMatter struct {
	Description string `yaml:"description,omitempty"`
	Icon        string `yaml:"icon,omitempty"`
	Hidden      bool   `yaml:"hidden,omitempty"`
	NoIndex     bool   `yaml:"noIndex,omitempty"`
}

// page is a document's file: its front matter when it has any, its title as a heading, then
// its text. The emoji is written as the icon, which the import reads back as the emoji.
func page(p contenttree.Page, body string) string {
	fm := frontMatter{Description: p.Description, Icon: p.Emoji, Hidden: p.Hidden, NoIndex: p.NoIndex}
	if fm.Icon == "" {
		fm.Icon = p.Icon
	}
	var b strings.Builder
	if fm != (frontMatter{}) {
		y, _ := yaml.Marshal(fm) // strings and booleans only
		b.WriteString("---\n")
		b.Write(y)
		b.WriteString("---\n\n")
	}
	fmt.Fprintf(&b, "# %s\n\n", oneLine(p.Title))
	b.WriteString(strings.TrimLeft(body, "\n"))
	return b.String()
}

// relink rewrites the relative links of a page written in dir that point at a page written
// elsewhere than its space location (the README), keeping their anchors.
func relink(md, dir string, moved map[string]string) string {
	if len(moved) == 0 {
		return md
	}
	for _, l := range markdoc.Links(md) {
		dest, anchor, _ := strings.Cut(l.Dest, "#")
		if dest == "" || strings.Contains(dest, ":") || strings.HasPrefix(dest, "/") {
			continue
		}
		to, ok := moved[path.Clean(path.Join(dir, dest))]
		if !ok {
			continue
		}
		rel := relative(dir, to)
		if anchor != "" {
			rel += "#" + anchor
		}
		md = strings.ReplaceAll(md, "]("+l.Dest, "]("+rel)
	}
	return md
}

// relative is the path of target from directory dir, both relative to the tree's root.
func relative(dir, target string) string {
	if dir == "." || dir == "" {
		return target
	}
	return strings.Repeat("../", strings.Count(dir, "/")+1) + target
}

func linkTarget(p contenttree.Page) string {
	var t struct {
		URL string `json:"url"`
	}
	if len(p.Target) > 0 {
		_ = json.Unmarshal(p.Target, &t)
	}
	if t.URL == "" {
		return "#"
	}
	return escapeDest(t.URL)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func escapeText(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(oneLine(s))
}

func escapeDest(s string) string {
	if strings.ContainsAny(s, " ()<>") {
		return "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(s) + ">"
	}
	return s
}
