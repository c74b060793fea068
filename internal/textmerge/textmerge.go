// Package textmerge merges two edited versions of a text against their common ancestor, line by line
// (a diff3 merge), the way `git merge-file` does: what only one side changed is taken, what both sides
// changed identically is taken once, and what both sides changed differently is a conflict.
//
// Lines keep their terminators: "\r\n" stays as it is, and a last line without "\n" is a different
// line from the same text with one, as in git.
package textmerge

import (
	"fmt"
	"slices"
	"strings"
)

// Range is a half-open range [Start, End) of 0-based line indexes in one version of the text.
// An empty range (Start == End) marks the point where lines were inserted.
type Range struct {
	Start, End int
}

// String renders the range as 1-based line numbers for messages ("lines 3-5", "line 3",
// "before line 3" for an empty range).
func (r Range) String() string {
	switch r.End - r.Start {
	case 0:
		return fmt.Sprintf("before line %d", r.Start+1)
	case 1:
		return fmt.Sprintf("line %d", r.Start+1)
	default:
		return fmt.Sprintf("lines %d-%d", r.Start+1, r.End)
	}
}

// Conflict is one region that both sides changed differently: the lines of the base version and
// what each side made of them.
type Conflict struct {
	Base, Ours, Theirs             Range
	BaseText, OursText, TheirsText string
}

// String describes the conflict by base line numbers.
func (c Conflict) String() string {
	return "both sides changed " + c.Base.String()
}

// Conflict markers written into the merged text around each conflict, as git writes them.
const (
	MarkerOurs   = "<<<<<<< ours\n"
	MarkerBase   = "=======\n"
	MarkerTheirs = ">>>>>>> theirs\n"
)

// Merge merges ours and theirs, both derived from base. With no conflicts, merged holds both sides'
// changes. With conflicts, merged shows each conflicting region between git-style markers
// (MarkerOurs, MarkerBase, MarkerTheirs); it is meant for display, not for saving.
//
// Changes merge cleanly when at least one unchanged line separates them; changes that overlap or
// touch each other are a conflict unless both sides made exactly the same change, as with git.
func Merge(base, ours, theirs string) (merged string, conflicts []Conflict) {
	switch {
	case ours == theirs, base == theirs:
		return ours, nil
	case base == ours:
		return theirs, nil
	}
	b, o, t := splitLines(base), splitLines(ours), splitLines(theirs)
	m := merger{base: b, ours: o, theirs: t}
	m.run(diffLines(b, o), diffLines(b, t))
	return m.out.String(), m.conflicts
}

// merger walks the base once, copying unchanged lines and resolving each group of changes.
type merger struct {
	base, ours, theirs []string
	out                strings.Builder
	conflicts          []Conflict
}

func (m *merger) run(oursHunks, theirsHunks []hunk) {
	copied := 0 // base lines before this index are in out already
	for len(oursHunks) > 0 || len(theirsHunks) > 0 {
		var g group
		g, oursHunks, theirsHunks = nextGroup(oursHunks, theirsHunks)
		m.writeLines(m.base[copied:g.start])
		m.resolve(g)
		copied = g.end
	}
	m.writeLines(m.base[copied:])
}

// resolve writes the outcome of one group of overlapping changes.
func (m *merger) resolve(g group) {
	if len(g.theirs) == 0 {
		r := g.sideRange(g.ours)
		m.writeLines(m.ours[r.Start:r.End])
		return
	}
	theirsRange := g.sideRange(g.theirs)
	theirsLines := m.theirs[theirsRange.Start:theirsRange.End]
	if len(g.ours) == 0 {
		m.writeLines(theirsLines)
		return
	}
	oursRange := g.sideRange(g.ours)
	oursLines := m.ours[oursRange.Start:oursRange.End]
	if slices.Equal(oursLines, theirsLines) {
		m.writeLines(oursLines)
		return
	}
	m.conflicts = append(m.conflicts, Conflict{
		Base: Range{g.start, g.end}, Ours: oursRange, Theirs: theirsRange,
		BaseText:   strings.Join(m.base[g.start:g.end], ""),
		OursText:   strings.Join(oursLines, ""),
		TheirsText: strings.Join(theirsLines, ""),
	})
	m.out.WriteString(MarkerOurs)
	m.writeTerminated(oursLines)
	m.out.WriteString(MarkerBase)
	m.writeTerminated(theirsLines)
	m.out.WriteString(MarkerTheirs)
}

func (m *merger) writeLines(lines []string) {
	for _, l := range lines {
		m.out.WriteString(l)
	}
}

// writeTerminated writes lines and ends the last one with "\n" when it has none, so that the next
// conflict marker starts a line of its own.
func (m *merger) writeTerminated(lines []string) {
	m.writeLines(lines)
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		m.out.WriteByte('\n')
	}
}

// splitLines cuts s after each "\n"; a last line without one is kept as it is.
func splitLines(s string) []string {
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}
