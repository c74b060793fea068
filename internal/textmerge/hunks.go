package textmerge

import "github.com/aymanbagabas/go-udiff/lcs"

// hunk is one change of a side against the base: base lines [baseStart, baseEnd) became side lines
// [sideStart, sideEnd).
type hunk struct {
	baseStart, baseEnd int
	sideStart, sideEnd int
}

// diffLines lists the changes from base to side in base order. Between two hunks there is always at
// least one unchanged base line.
func diffLines(base, side []string) []hunk {
	changedBase := make([]bool, len(base))
	changedSide := make([]bool, len(side))
	for _, d := range lcs.DiffLines(base, side) {
		for i := d.Start; i < d.End; i++ {
			changedBase[i] = true
		}
		for i := d.ReplStart; i < d.ReplEnd; i++ {
			changedSide[i] = true
		}
	}
	compact(base, changedBase, changedSide)
	compact(side, changedSide, changedBase)
	return hunksOf(changedBase, changedSide)
}

// hunksOf turns the changed-line marks of both texts back into hunks. Unchanged lines pair up one to
// one in order, so the two texts are walked together.
func hunksOf(changedBase, changedSide []bool) []hunk {
	var hunks []hunk
	i, j := 0, 0
	for i < len(changedBase) || j < len(changedSide) {
		if (i < len(changedBase) && changedBase[i]) || (j < len(changedSide) && changedSide[j]) {
			h := hunk{baseStart: i, sideStart: j}
			for i < len(changedBase) && changedBase[i] {
				i++
			}
			for j < len(changedSide) && changedSide[j] {
				j++
			}
			h.baseEnd, h.sideEnd = i, j
			hunks = append(hunks, h)
			continue
		}
		i++
		j++
	}
	return hunks
}

// group is a maximal run of hunks from both sides that overlap or touch, covering base lines
// [start, end).
type group struct {
	start, end   int
	ours, theirs []hunk
}

// nextGroup takes the group that starts with the earliest remaining hunk and returns what remains.
// A hunk joins the group when it starts at or before the group's end: like git, changes that merely
// touch are merged into one region (and so conflict when both sides are in it).
func nextGroup(ours, theirs []hunk) (group, []hunk, []hunk) {
	var g group
	if len(theirs) == 0 || (len(ours) > 0 && ours[0].baseStart <= theirs[0].baseStart) {
		g.start, g.end = ours[0].baseStart, ours[0].baseEnd
	} else {
		g.start, g.end = theirs[0].baseStart, theirs[0].baseEnd
	}
	for {
		switch {
		case len(ours) > 0 && ours[0].baseStart <= g.end:
			g.end = max(g.end, ours[0].baseEnd)
			g.ours = append(g.ours, ours[0])
			ours = ours[1:]
		case len(theirs) > 0 && theirs[0].baseStart <= g.end:
			g.end = max(g.end, theirs[0].baseEnd)
			g.theirs = append(g.theirs, theirs[0])
			theirs = theirs[1:]
		default:
			return g, ours, theirs
		}
	}
}

// sideRange maps the group's base range onto a side that has hunks in the group. Outside its hunks
// a side is unchanged, so the base lines before its first hunk and after its last one correspond
// one to one.
func (g group) sideRange(hunks []hunk) Range {
	first, last := hunks[0], hunks[len(hunks)-1]
	return Range{
		Start: first.sideStart - (first.baseStart - g.start),
		End:   last.sideEnd + (g.end - last.baseEnd),
	}
}
