package textmerge

// Where a text repeats lines, a diff can often place the same change at several positions: inserting
// "b" into "a b c" may add the first "b" or the second. Which one the diff picks decides whether two
// changes touch, and so whether a merge conflicts. compact settles the choice the way git's xdiff
// does, so that merges here come out clean exactly when `git merge-file` finds them clean: each run
// of changed lines slides down as far as it can, unless it can line up with a change in the other
// text, in which case it stays at the lowest such position.

// run is a run of changed lines [start, end) in one text, between two unchanged lines. Unchanged
// lines pair up between the texts, so the k-th run of one text sits opposite the k-th run of the
// other; a run may be empty.
type run struct{ start, end int }

func firstRun(changed []bool) run {
	r := run{}
	for r.end < len(changed) && changed[r.end] {
		r.end++
	}
	return r
}

// next moves to the run after the next unchanged line; it reports false at the end of the text.
func (r *run) next(changed []bool) bool {
	if r.end >= len(changed) {
		return false
	}
	r.start = r.end + 1
	r.end = r.start
	for r.end < len(changed) && changed[r.end] {
		r.end++
	}
	return true
}

// previous moves to the run before the previous unchanged line; it reports false at the start.
func (r *run) previous(changed []bool) bool {
	if r.start == 0 {
		return false
	}
	r.end = r.start - 1
	r.start = r.end
	for r.start > 0 && changed[r.start-1] {
		r.start--
	}
	return true
}

// slideDown moves a non-empty run one line down when its first line equals the line after it,
// absorbing a run it comes to touch.
func (r *run) slideDown(lines []string, changed []bool) bool {
	if r.end >= len(lines) || lines[r.start] != lines[r.end] {
		return false
	}
	changed[r.start], changed[r.end] = false, true
	r.start++
	r.end++
	for r.end < len(changed) && changed[r.end] {
		r.end++
	}
	return true
}

// slideUp moves a non-empty run one line up when its last line equals the line before it,
// absorbing a run it comes to touch.
func (r *run) slideUp(lines []string, changed []bool) bool {
	if r.start == 0 || lines[r.start-1] != lines[r.end-1] {
		return false
	}
	r.start--
	r.end--
	changed[r.start], changed[r.end] = true, false
	for r.start > 0 && changed[r.start-1] {
		r.start--
	}
	return true
}

// compact moves the changed runs of lines (marked in changed) to their canonical places; other
// marks the changed lines of the text on the other side of the diff and is only read.
func compact(lines []string, changed, other []bool) {
	r, o := firstRun(changed), firstRun(other)
	for {
		if r.end > r.start {
			r.settle(lines, changed, &o, other)
		}
		if !r.next(changed) {
			return
		}
		o.next(other)
	}
}

// settle slides one run up as far as it goes, then down as far as it goes, repeating while sliding
// merges it with neighbours, and finally brings it back up to the last place where it faced a change
// of the other text, if it passed one. o follows the run, one run of other for each line slid.
func (r *run) settle(lines []string, changed []bool, o *run, other []bool) {
	var earliestEnd int
	lastFacingEnd := -1
	for {
		size := r.end - r.start
		lastFacingEnd = -1
		for r.slideUp(lines, changed) {
			o.previous(other)
		}
		earliestEnd = r.end
		if o.end > o.start {
			lastFacingEnd = r.end
		}
		for r.slideDown(lines, changed) {
			o.next(other)
			if o.end > o.start {
				lastFacingEnd = r.end
			}
		}
		if r.end-r.start == size {
			break
		}
	}
	if r.end == earliestEnd || lastFacingEnd < 0 {
		return
	}
	for o.end == o.start {
		r.slideUp(lines, changed)
		o.previous(other)
	}
}
