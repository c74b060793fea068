package markdoc

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// UnknownTags lists, sorted and once each, the names of the block tags in markdown that docsd
// does not read: their lines are taken off the page and their content shown as it is, so an
// import warns about them.
func UnknownTags(md string) []string {
	var out []string
	walkTags(md, func(t *tagBlock) {
		name := t.Name
		if rest, ok := strings.CutPrefix(name, "end"); ok && rest != "" {
			name = rest
		}
		if !KnownTag(name) && !slices.Contains(out, name) {
			out = append(out, name)
		}
	})
	slices.Sort(out)
	return out
}

// Includes lists the paths of the includes of markdown, as written, in order.
func Includes(md string) []string {
	var out []string
	walkTags(md, func(t *tagBlock) {
		if t.Name == "include" && t.Arg != "" {
			out = append(out, t.Arg)
		}
	})
	return out
}

func walkTags(md string, fn func(*tagBlock)) {
	p := parse(md)
	_ = ast.Walk(p.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := n.(*tagBlock); ok && entering {
			fn(t)
		}
		return ast.WalkContinue, nil
	})
}

// maxIncludeDepth bounds how deep included content may include more: a reusable content that
// includes itself ends there.
const maxIncludeDepth = 4

// ExpandIncludes replaces each include line of markdown with the markdown of what it names,
// as resolve gives it (ok false leaves the line out), so a published page or a PDF shows a
// reusable content in place. Included markdown is expanded the same way, maxIncludeDepth deep.
// Front matter is dropped, as every reader of the page ignores it.
func ExpandIncludes(md string, resolve func(path string) (string, bool)) string {
	return expandIncludes(withoutFrontMatter(md), resolve, 0)
}

func expandIncludes(md string, resolve func(path string) (string, bool), depth int) string {
	p := parse(md)
	type splice struct {
		start, end int
		text       string
	}
	var splices []splice
	_ = ast.Walk(p.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		t, ok := n.(*tagBlock)
		if !ok || !entering || t.Name != "include" {
			return ast.WalkContinue, nil
		}
		text := ""
		if depth < maxIncludeDepth {
			if got, ok := resolve(t.Arg); ok {
				text = expandIncludes(withoutFrontMatter(got), resolve, depth+1)
			}
		}
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		// Blank lines around it keep the included blocks from joining the text next to it.
		splices = append(splices, splice{t.start, t.end, "\n" + text + "\n"})
		return ast.WalkContinue, nil
	})
	if len(splices) == 0 {
		return md
	}
	var b strings.Builder
	src := string(p.src)
	last := 0
	for _, s := range splices {
		if s.start < last || s.end > len(src) {
			continue
		}
		b.WriteString(src[last:s.start])
		b.WriteString(s.text)
		last = s.end
	}
	b.WriteString(src[last:])
	return b.String()
}
