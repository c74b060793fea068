package sitepub

import (
	"regexp"
	"strings"
)

// Adaptive content inside a page is written as GitBook writes its conditional blocks in
// markdown: a line `{% if <expression> %}`, the content, and a line `{% endif %}` (an
// optional `{% else %}` line between them). Blocks nest; lines inside fenced code are text.
var (
	ifLine    = regexp.MustCompile(`^\s*\{%\s*if\s+(.+?)\s*%\}\s*$`)
	elseLine  = regexp.MustCompile(`^\s*\{%\s*else\s*%\}\s*$`)
	endifLine = regexp.MustCompile(`^\s*\{%\s*endif\s*%\}\s*$`)
	fenceLine = regexp.MustCompile("^\\s{0,3}(`{3,}|~{3,})")
)

// maxIfDepth bounds nesting; deeper `if` lines are left as text.
const maxIfDepth = 32

// Conditional keeps the parts of a page's markdown whose `{% if %}` conditions hold for the
// reader and drops the others, with the tag lines themselves. An `if` without its `endif`
// runs to the end of the page; a stray `else` or `endif` stays as text.
func (s *Service) Conditional(markdown string, c Claims) string {
	if !strings.Contains(markdown, "{%") {
		return markdown
	}
	type frame struct{ parentShown, cond, inElse bool }
	var stack []frame
	shown := func() bool {
		if len(stack) == 0 {
			return true
		}
		f := stack[len(stack)-1]
		return f.parentShown && f.cond != f.inElse
	}
	var out strings.Builder
	fence := ""
	for _, line := range strings.SplitAfter(markdown, "\n") {
		trimmed := strings.TrimRight(line, "\r\n")
		if fence == "" {
			if m := fenceLine.FindStringSubmatch(trimmed); m != nil {
				fence = m[1][:3]
			} else if m := ifLine.FindStringSubmatch(trimmed); m != nil && len(stack) < maxIfDepth {
				parent := shown()
				stack = append(stack, frame{parentShown: parent, cond: parent && s.eval.Visible(m[1], c)})
				continue
			} else if elseLine.MatchString(trimmed) && len(stack) > 0 && !stack[len(stack)-1].inElse {
				stack[len(stack)-1].inElse = true
				continue
			} else if endifLine.MatchString(trimmed) && len(stack) > 0 {
				stack = stack[:len(stack)-1]
				continue
			}
		} else if strings.HasPrefix(strings.TrimSpace(trimmed), fence) {
			fence = ""
		}
		if shown() {
			out.WriteString(line)
		}
	}
	return out.String()
}
