package gitbookimport

import (
	"path"
	"regexp"
	"strings"

	"docsd/internal/markdoc"
)

// Links between imported files are written relative to where the files sat in the tree
// ("../setup.md#install", "../.gitbook/assets/logo.png"). The tree's layout is not the
// space's: SUMMARY.md may place a file anywhere, and slugs may differ from file names. So the
// import rewrites every link that resolves to an imported page or file into the form GitBook's
// Git Sync writes for the space itself, which readers of the space resolve the same way:
//
//   - a page lives at its path in the space plus ".md" ("guides/setup.md"), or, when it has
//     pages under it, at its path plus "/README.md" ("guides/README.md");
//   - a file lives at ".gitbook/assets/" plus its name;
//   - a link is that location relative to the directory of the linking page's location,
//     with its anchor kept ("../guides/setup.md#install").
//
// Links that resolve to nothing imported (a missing page, a file outside the tree), URLs and
// anchors are left as written; so is a file link when two imported files share its name.

// SpaceLocation is where a page of a space lives in GitBook's file layout, given its path in
// the space and whether pages sit under it.
func SpaceLocation(spacePath string, hasChildren bool) string {
	if hasChildren {
		return spacePath + "/README.md"
	}
	return spacePath + ".md"
}

// AssetLocation is where a file of a space lives in GitBook's file layout.
func AssetLocation(name string) string { return ".gitbook/assets/" + name }

// linkDest matches the destinations of markdown links and images ("](dest"), of link reference
// definitions ("]: dest") and of the attributes that carry one in HTML and GitBook tags.
var linkDest = regexp.MustCompile(`(\]\(\s*<?|\]:[ \t]*<?|\b(?:url|src|href)\s*=\s*["'])([^\s)>"']+)`)

// rewriteLinks rewrites the links of every imported page (see above).
func rewriteLinks(res *Result) {
	n := len(res.Pages)
	spacePaths := make([]string, n)
	hasChildren := make([]bool, n)
	for i, p := range res.Pages {
		if p.Kind == KindLink {
			continue
		}
		spacePaths[i] = p.Slug
		if p.Parent >= 0 {
			spacePaths[i] = spacePaths[p.Parent] + "/" + p.Slug
			hasChildren[p.Parent] = true
		}
	}
	pageAt := map[string]int{} // tree path of a markdown file → page index
	for i, p := range res.Pages {
		if p.Path != "" {
			pageAt[p.Path] = i
		}
	}
	names := map[string]int{}
	for _, f := range res.Files {
		names[f.Name]++
	}
	fileAt := map[string]string{} // tree path of a file → its location in the space
	for _, f := range res.Files {
		if names[f.Name] == 1 {
			fileAt[f.Path] = AssetLocation(f.Name)
		}
	}
	includes := map[string]bool{}
	for _, rc := range res.ReusableContents {
		includes[rc.Path] = true
	}
	for i := range res.Pages {
		p := &res.Pages[i]
		if p.Kind != KindDocument || p.Path == "" || p.Markdown == "" {
			continue
		}
		from := path.Dir(SpaceLocation(spacePaths[i], hasChildren[i]))
		p.Markdown = rewriteIncludes(p.Markdown, p.Path, from, includes)
		replace := map[string]string{}
		for _, l := range markdoc.Links(p.Markdown) {
			target, ok := l.Resolve(p.Path)
			if !ok {
				continue
			}
			var loc string
			if j, found := pageAt[target]; found && res.Pages[j].Kind != KindLink {
				loc = SpaceLocation(spacePaths[j], hasChildren[j])
			} else if f, found := fileAt[target]; found {
				loc = f
			} else {
				continue
			}
			dest := relativePath(from, loc)
			if l.Anchor != "" {
				dest += "#" + l.Anchor
			}
			if dest != l.Dest {
				replace[l.Dest] = dest
			}
		}
		if len(replace) == 0 {
			continue
		}
		p.Markdown = linkDest.ReplaceAllStringFunc(p.Markdown, func(m string) string {
			sub := linkDest.FindStringSubmatch(m)
			if to, ok := replace[sub[2]]; ok {
				return sub[1] + to
			}
			return m
		})
	}
}

// relativePath is target (from the root) as seen from the directory dir (from the root; "."
// for the root itself).
func relativePath(dir, target string) string {
	var from []string
	if dir != "." && dir != "" {
		from = strings.Split(dir, "/")
	}
	to := strings.Split(target, "/")
	common := 0
	for common < len(from) && common < len(to)-1 && from[common] == to[common] {
		common++
	}
	parts := make([]string, 0, len(from)-common+len(to)-common)
	for range from[common:] {
		parts = append(parts, "..")
	}
	parts = append(parts, to[common:]...)
	return strings.Join(parts, "/")
}
