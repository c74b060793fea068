package changereq

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/mergerules"
	"docsd/internal/space"
)

// Results of update and merge, as the API names them.
const (
	ResultUpdate = "update"
	ResultMerge  = "merge"
)

// mergeAttempts bounds how often a merge is redone when the space's head moved meanwhile.
// Merges of one space are serialised within a process (Service.merging), so the head moves
// under a merge only through another process, an import, or a restore: each retry loses at
// most to the writes that landed during one merge. With a pause that grows between attempts,
// 16 attempts outlast any realistic fleet merging into one space at once.
const mergeAttempts = 16

// mergeRetryPause is the first pause before a merge is redone; it doubles with each attempt
// (up to mergeRetryPauseMax) and is drawn at random from its upper half, so that processes
// that lost to each other do not collide again in step.
const (
	mergeRetryPause    = 2 * time.Millisecond
	mergeRetryPauseMax = 200 * time.Millisecond
)

// merge3 merges ours and theirs against base, or answers 409 naming the pages in conflict. It
// returns the changes that turn ours into the result.
func (s *Service) merge3(ctx context.Context, baseID, oursID, theirsID string) (content.Changes, error) {
	// When only one side moved since the base, the merge is that side's changes: no tree is
	// loaded, and the cost follows the size of the change rather than of the space.
	switch baseID {
	case theirsID:
		return content.Changes{Variables: map[string]json.RawMessage{}}, nil
	case oursID:
		return s.content.Delta(ctx, baseID, theirsID)
	}
	// Otherwise the trees hold only what either side changed and its neighbourhood (see
	// content.MergeTrees): the merge, and the changes taken from it, cost the size of the
	// changes too.
	trees, err := s.content.MergeTrees(ctx, baseID, oursID, theirsID)
	if err != nil {
		return content.Changes{}, err
	}
	merged, conflicts := contenttree.Merge(trees[0], trees[1], trees[2])
	if len(conflicts) > 0 {
		parts := make([]string, 0, min(len(conflicts), 10))
		for i, c := range conflicts {
			if i == 10 {
				parts = append(parts, "and more")
				break
			}
			parts = append(parts, c.String())
		}
		return content.Changes{}, apperr.Conflictf("the change request conflicts with the space's content: %s", strings.Join(parts, "; "))
	}
	changes := changesBetween(trees[1], merged)
	return changes, s.content.ResolveMarkdown(ctx, &changes)
}

// changesBetween lists the changes that turn old into next. (content.ChangesTo does the same
// from a snapshot, which only the content service reads, and only for revisions a caller may
// name; the change request's initial revision may be one a duplicate inherited.)
func changesBetween(old, next *contenttree.Tree) content.Changes {
	d := contenttree.Diff(old, next)
	ch := content.Changes{Variables: map[string]json.RawMessage{}}
	upserted := map[string]bool{}
	for _, p := range d.Pages {
		if p.Type == contenttree.Removed {
			ch.RemovePages = append(ch.RemovePages, p.ID)
		} else {
			ch.UpsertPages = append(ch.UpsertPages, next.Pages[p.ID])
			upserted[p.ID] = true
		}
	}
	// Diff leaves out edit times: a page whose only change is a later edit (one that set
	// what it already had) still takes its times from the merge.
	for id, p := range next.Pages {
		if q, ok := old.Pages[id]; ok && !upserted[id] && (!p.CreatedAt.Equal(q.CreatedAt) || !p.UpdatedAt.Equal(q.UpdatedAt)) {
			ch.UpsertPages = append(ch.UpsertPages, p)
		}
	}
	for _, f := range d.Files {
		if f.Type == contenttree.Removed {
			ch.RemoveFiles = append(ch.RemoveFiles, f.ID)
		} else {
			ch.UpsertFiles = append(ch.UpsertFiles, next.Files[f.ID])
		}
	}
	for _, v := range d.Variables {
		ch.Variables[v.Name] = next.Variables[v.Name] // nil when removed
	}
	for id := range old.ReusableContents {
		if _, ok := next.ReusableContents[id]; !ok {
			ch.RemoveReusable = append(ch.RemoveReusable, id)
		}
	}
	for id, r := range next.ReusableContents {
		if q, ok := old.ReusableContents[id]; !ok || q != r {
			ch.UpsertReusable = append(ch.UpsertReusable, r)
		}
	}
	return ch
}

// UpdateFromHead brings the space's head into the change request: a merge revision of the change
// request's content and the head, against the change request's merge base.
func (s *Service) UpdateFromHead(ctx context.Context, c auth.Caller, spaceID, ref string) (string, error) {
	v, err := s.canWrite(ctx, c, spaceID)
	if err != nil {
		return "", err
	}
	cur, err := s.get(ctx, s.store.Read(), v, ref)
	if err != nil {
		return "", err
	}
	cr := cur.ChangeRequest
	if err := requireUnmerged(cr); err != nil {
		return "", err
	}
	if cr.MergeBase() == v.Revision {
		return cr.Revision, nil // already up to date
	}
	changes, err := s.merge3(ctx, cr.MergeBase(), cr.Revision, v.Revision)
	if err != nil {
		return "", err
	}
	now := s.clock.Now()
	var revID string
	err = s.store.Write(ctx, now, func(tx Tx) error {
		rev, _, err := s.content.Commit(ctx, tx.Content(), cr.Revision, changes,
			content.Meta{SpaceID: spaceID, Type: content.TypeUpdate, AuthorID: c.UserID, Parents: []string{cr.Revision, v.Revision}, Working: true}, now)
		if err != nil {
			return err
		}
		next := cr
		next.Revision, next.RevisionMergedAncestor, next.UpdatedAt = rev.ID, v.Revision, now
		revID = rev.ID
		if err := tx.AddContributor(ctx, cr.ID, c.UserID, true, now); err != nil {
			return err
		}
		return update(ctx, tx, next, cr.Revision)
	})
	return revID, err
}

// Merge merges the change request into the space: a merge revision of the head and the
// change request's content, against its merge base, which becomes the head by compare-and-
// swap. Merges into one space wait for one another in this process; when a write elsewhere
// (another process, an import) moves the head first, the merge is redone on the new head, so
// that concurrent merges that do not conflict all succeed. 409 is for real conflicts, and for
// a head that kept moving through every attempt.
func (s *Service) Merge(ctx context.Context, c auth.Caller, spaceID, ref string) (string, error) {
	unlock, err := s.merging.Lock(ctx, spaceID)
	if err != nil {
		return "", err
	}
	defer unlock()
	pause := mergeRetryPause
	for attempt := 0; attempt < mergeAttempts; attempt++ {
		if attempt > 0 {
			select {
			case <-time.After(pause/2 + rand.N(pause/2+1)):
			case <-ctx.Done():
				return "", ctx.Err()
			}
			pause = min(2*pause, mergeRetryPauseMax)
		}
		var rev string
		rev, err = s.mergeOnce(ctx, c, spaceID, ref)
		if !errors.Is(err, errHeadMoved) {
			return rev, err
		}
	}
	return "", apperr.Conflictf("space %s: its content kept changing while the change request was merged; retry", spaceID)
}

var errHeadMoved = errors.New("changereq: the head moved")

func (s *Service) mergeOnce(ctx context.Context, c auth.Caller, spaceID, ref string) (string, error) {
	v, err := s.canWrite(ctx, c, spaceID)
	if err != nil {
		return "", err
	}
	cur, err := s.get(ctx, s.store.Read(), v, ref)
	if err != nil {
		return "", err
	}
	cr := cur.ChangeRequest
	if err := requireUnmerged(cr); err != nil {
		return "", err
	}
	if err := s.checkMergeRules(ctx, c, v, cr); err != nil {
		return "", err
	}
	changes, err := s.merge3(ctx, cr.MergeBase(), v.Revision, cr.Revision)
	if err != nil {
		return "", err
	}
	now := s.clock.Now()
	var revID string
	err = s.store.Write(ctx, now, func(tx Tx) error {
		rev, _, err := s.content.Commit(ctx, tx.Content(), v.Revision, changes,
			content.Meta{SpaceID: spaceID, Type: content.TypeMerge, AuthorID: c.UserID, Parents: []string{v.Revision, cr.Revision}}, now)
		if err != nil {
			return err
		}
		moved, err := tx.Content().MoveHead(ctx, spaceID, v.Revision, rev.ID)
		if err != nil {
			return err
		}
		if !moved {
			return errHeadMoved
		}
		next := cr
		next.Status, next.RevisionMerged, next.UpdatedAt = Merged, rev.ID, now
		revID = rev.ID
		return update(ctx, tx, next, cr.Revision)
	})
	return revID, err
}

// checkMergeRules refuses, with 409, a merge the space's merge rules (or its organization's)
// do not allow yet, naming every rule still unmet. 409 rather than 403: the change request's
// state is what falls short (reviews, subject, freshness), and changing it lets the same
// caller merge.
func (s *Service) checkMergeRules(ctx context.Context, c auth.Caller, v space.View, cr ChangeRequest) error {
	tx := s.store.Read()
	orgRules, err := tx.OrganizationMergeRules(ctx, v.OrganizationID)
	if err != nil {
		return err
	}
	rules := mergerules.Effective(v.MergeRules, orgRules)
	if rules.Type != mergerules.TypeRules || len(rules.Rules) == 0 {
		return nil
	}
	reviews, err := tx.CurrentReviews(ctx, cr.ID)
	if err != nil {
		return err
	}
	st := mergerules.State{Author: cr.CreatedBy.ID, Merger: c.UserID, HasSubject: strings.TrimSpace(cr.Subject) != "",
		HasDescription: hasText(cr.Description), UpToDate: cr.MergeBase() == v.Revision}
	for _, r := range reviews {
		st.Reviews = append(st.Reviews, mergerules.Review{Reviewer: r.Reviewer.ID, Approved: r.Status == Approved})
	}
	if missing := rules.Check(st); len(missing) > 0 {
		return apperr.Conflictf("change request %d does not meet the merge rules: %s", cr.Number, strings.Join(missing, "; "))
	}
	return nil
}

// hasText reports whether a rich-text document holds any non-blank text.
func hasText(doc json.RawMessage) bool {
	if doc == nil {
		return false
	}
	var v any
	if json.Unmarshal(doc, &v) != nil {
		return false
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case map[string]any:
			if t, ok := x["text"].(string); ok && strings.TrimSpace(t) != "" {
				return true
			}
			for _, c := range x {
				if walk(c) {
					return true
				}
			}
		case []any:
			for _, c := range x {
				if walk(c) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
