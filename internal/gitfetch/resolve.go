package gitfetch

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
)

// target is what to ask the server for.
type target struct {
	name   string        // full ref name, "HEAD", or "" when ref is a commit id
	hash   plumbing.Hash // object to want (a commit, or an annotated tag); zero: search every ref's history
	commit string        // the commit id or prefix asked for, when name is ""
}

// resolve finds ref among the advertised references: "" is HEAD; a full name ("refs/...")
// must match exactly; a short name is tried as a branch, then as a tag; then a hex string of 7
// to 40 digits is taken as a commit id. ok is false when nothing can match.
func resolve(adv *packp.AdvRefs, ref string) (t target, ok bool) {
	if ref == "" {
		if adv.Head == nil {
			return target{}, false
		}
		return target{name: "HEAD", hash: *adv.Head}, true
	}
	names := []string{"refs/heads/" + ref, "refs/tags/" + ref}
	if strings.HasPrefix(ref, "refs/") {
		names = []string{ref}
	}
	for _, name := range names {
		if h, found := adv.References[name]; found {
			return target{name: name, hash: h}, true
		}
	}
	if !isCommitID(ref) {
		return target{}, false
	}
	id := strings.ToLower(ref)
	if len(id) == 40 {
		// The tip of some ref can be asked for directly, and shallow.
		for _, h := range adv.References {
			if h.String() == id {
				return target{hash: h, commit: id}, true
			}
		}
	}
	return target{commit: id}, true
}

func isCommitID(s string) bool {
	if len(s) < 7 || len(s) > 40 {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}

// historyWants are the tips of every branch and tag: the commits whose history a commit id
// given by the caller is looked for in.
func historyWants(adv *packp.AdvRefs) []plumbing.Hash {
	seen := map[plumbing.Hash]bool{}
	var wants []plumbing.Hash
	for name, h := range adv.References {
		if (strings.HasPrefix(name, "refs/heads/") || strings.HasPrefix(name, "refs/tags/")) && !seen[h] {
			seen[h] = true
			wants = append(wants, h)
		}
	}
	return wants
}
