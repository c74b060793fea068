package textmerge

import (
	"math/rand/v2"
	"testing"
)

type randChoices struct{ r *rand.Rand }

func (c randChoices) next(n int) int { return c.r.IntN(max(n, 1)) }

// compareWithGit merges generated cases here and with `git merge-file` and returns how many came out
// differently: one side clean and the other not, or both clean with different texts.
func compareWithGit(t *testing.T, cases int, line func() lineSource) (mismatches int) {
	c := randChoices{rand.New(rand.NewPCG(1, 2))}
	for i := range cases {
		base, ours, theirs := genCase(c, line())
		got, conflicts := Merge(base, ours, theirs)
		gitOut, gitClean := gitMergeFile(t, base, ours, theirs)
		clean := len(conflicts) == 0
		if clean != gitClean || (clean && got != gitOut) {
			mismatches++
			t.Logf("case %d: base %q ours %q theirs %q:\n  clean=%v merged %q\n  git clean=%v merged %q",
				i, base, ours, theirs, clean, got, gitClean, gitOut)
		}
	}
	return mismatches
}

// With lines that never repeat, every diff has one answer, and the merge must be git's exactly.
func TestMergeMatchesGitOnDistinctLines(t *testing.T) {
	t.Parallel()
	if n := compareWithGit(t, 100, distinctLines); n > 0 {
		t.Errorf("%d of 100 merges differ from git's", n)
	}
}

// With repeated lines a diff may align a change in more than one way. Runs of changed lines are
// placed as git places them, but the underlying LCS can still break ties differently from git's
// (about 2 cases in 1,000 of this corpus, all defensible merges), so a small share may differ.
func TestMergeMatchesGitOnRepeatedLines(t *testing.T) {
	t.Parallel()
	const cases = 200
	if n := compareWithGit(t, cases, func() lineSource { return repeatedLines }); n > cases/100 {
		t.Errorf("%d of %d merges differ from git's", n, cases)
	}
}
