package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The merge after the space moved: two change requests opened on the same head each edit
// one page; the second is merged first, so the first is merged by a three-way merge whose
// base is no longer the head. Its baseline is git merging the same markdown tree with one
// page changed on each side (git merge-tree --write-tree), timed with its process start, in
// the same run and on the same load.

// movedRounds times reps merges after the space moved on every size, alternating between
// sizes round by round and timing git's merge of the same size's tree right after docsd's.
// The first round warms up and is not counted.
func movedRounds(ctx context.Context, runs []*sizeRun, work string, reps int) error {
	repos := make([]string, len(runs))
	for i, sr := range runs {
		dir, err := gitMergeRepo(ctx, filepath.Join(work, fmt.Sprintf("git-%d", len(sr.ids))), len(sr.ids))
		if err != nil {
			return fmt.Errorf("%d pages: git repository: %w", len(sr.ids), err)
		}
		repos[i] = dir
	}
	for r := range reps + 1 {
		for i, sr := range runs {
			n := len(sr.ids)
			took, err := mergeAfterMoved(ctx, sr.api, sr.spaceID, sr.ids[(n/4+r)%n], sr.ids[(3*n/4+r)%n], r,
				func() error { return settle(ctx, sr.counter) })
			if err != nil {
				return fmt.Errorf("%d pages: %w", n, err)
			}
			gitTook, err := gitMergeTree(ctx, repos[i])
			if err != nil {
				return fmt.Errorf("%d pages: %w", n, err)
			}
			if r > 0 {
				sr.res.movedMerges = append(sr.res.movedMerges, took)
				sr.res.gitMerges = append(sr.res.gitMerges, gitTook)
			}
		}
	}
	return nil
}

// mergeAfterMoved opens two change requests on the head, edits oursPage in the first and
// theirsPage in the second, merges the second, and times merging the first once settled
// has returned (the bench lets the search indexer take in the first merge, so that the
// time is the merge's own rather than its wait for the database behind the indexer).
func mergeAfterMoved(ctx context.Context, c *api, spaceID, oursPage, theirsPage string, r int, settled func() error) (time.Duration, error) {
	crs := "/v1/spaces/" + spaceID + "/change-requests/"
	var first, second idOnly
	for _, cr := range []*idOnly{&first, &second} {
		if err := c.send(ctx, "POST", strings.TrimSuffix(crs, "/"), map[string]any{"subject": fmt.Sprintf("Moved %d", r)}, 201, cr); err != nil {
			return 0, err
		}
	}
	edit := func(cr idOnly, pageID, what string) error {
		body := map[string]any{"markdown": pageText(what, r+11, fmt.Sprintf("%s %d.\n", what, r))}
		return c.send(ctx, "PATCH", crs+cr.ID+"/pages/"+pageID, body, 200, nil)
	}
	if err := edit(first, oursPage, "Ours"); err != nil {
		return 0, err
	}
	if err := edit(second, theirsPage, "Theirs"); err != nil {
		return 0, err
	}
	if err := c.send(ctx, "POST", crs+second.ID+"/merge", map[string]any{}, 200, nil); err != nil {
		return 0, err
	}
	if err := settled(); err != nil {
		return 0, err
	}
	start := time.Now()
	if err := c.send(ctx, "POST", crs+first.ID+"/merge", map[string]any{}, 200, nil); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// gitMergeRepo writes markdownFiles(n) into a new git repository at dir as a base commit,
// with branch ours changing one page and branch theirs another.
func gitMergeRepo(ctx context.Context, dir string, n int) (string, error) {
	git := func(args ...string) error {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "user.name=bench", "-c", "user.email=bench@localhost",
			"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=base"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %w: %.300s", args, err, out)
		}
		return nil
	}
	write := func(name, text string) error {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, []byte(text), 0o644)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := git("init", "-q"); err != nil {
		return "", err
	}
	files := markdownFiles(n)
	var pages []string // the files of pages other than the home page and sections' READMEs
	for name, text := range files {
		if err := write(name, text); err != nil {
			return "", err
		}
		if strings.Contains(name, "/page-") {
			pages = append(pages, name)
		}
	}
	slices.Sort(pages)
	if err := git("add", "-A"); err != nil {
		return "", err
	}
	if err := git("commit", "-q", "-m", "base"); err != nil {
		return "", err
	}
	for i, branch := range []string{"ours", "theirs"} {
		if err := git("checkout", "-q", "-b", branch, "base"); err != nil {
			return "", err
		}
		page := pages[(1+2*i)*len(pages)/4]
		if err := write(page, files[page]+branch+"\n"); err != nil {
			return "", err
		}
		if err := git("commit", "-q", "-a", "-m", branch); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// gitMergeTree times one git merge-tree --write-tree of the two branches, process start
// included; its result is never written to a branch, so every call does the same work.
func gitMergeTree(ctx context.Context, dir string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, "git", "merge-tree", "--write-tree", "ours", "theirs")
	cmd.Dir = dir
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("git merge-tree: %w: %.300s", err, out)
	}
	return took, nil
}
