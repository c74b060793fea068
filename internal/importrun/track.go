package importrun

import (
	"context"
	"errors"

	"docsd/internal/auth"
	"docsd/internal/content"
	"docsd/internal/contenttree"
)

// Track records a run for an import that another job carries out (an uploaded archive or a
// Git repository too large to commit within its request), so that its answer can name the
// run to follow. source is SourceArchive or SourceGit.
func (s *Service) Track(ctx context.Context, c auth.Caller, orgID, spaceID, source string) (Run, error) {
	return s.queue(ctx, c, orgID, Target{Space: spaceID}, Source{Type: source}, runPayload{}, false)
}

// Begin marks a tracked run in progress; false when it has ended (cancelled, say) and its job
// should not write.
func (s *Service) Begin(ctx context.Context, runID string) (bool, error) {
	if _, err := s.store.SetStatus(ctx, s.clock.Now(), runID, []string{Pending}, InProgress, ""); err != nil {
		return false, err
	}
	r, err := s.store.RunByID(ctx, runID)
	return err == nil && r.Status == InProgress, err
}

// Fail ends a tracked run as failed.
func (s *Service) Fail(ctx context.Context, runID string, err error) {
	_ = s.fail(ctx, runID, reasonOf(err))
}

// ErrRunEnded stops the commit of a tracked run that ended meanwhile (cancelled): returned
// from inside the commit's transaction, it rolls the content back with it.
var ErrRunEnded = errCancelled

// CompleteIn completes a tracked run inside the transaction that commits its content, so
// that the run and the content commit together, with the pages of the tree it imported and
// what the import warned of; ErrRunEnded when the run is no longer in progress.
func (s *Service) CompleteIn(ctx context.Context, tx content.Tx, runID, revision string, tree *contenttree.Tree, warnings []string) error {
	src, ok := tx.(TxSource)
	if !ok {
		return errors.New("importrun: the content transaction does not hold import runs")
	}
	done, err := src.ImportRuns().CompleteRun(ctx, s.clock.Now(), runID, revision, PagesOf(tree), warnings)
	if err != nil {
		return err
	}
	if !done {
		return ErrRunEnded
	}
	return nil
}

// PagesOf lists the pages of an imported tree in navigation order, as a run names them: an
// archive or a Git import makes the whole content, so every page of it is the run's.
func PagesOf(tree *contenttree.Tree) []Page {
	var out []Page
	tree.Walk(func(p contenttree.Page, _ int) bool {
		out = append(out, Page{ID: p.ID, Type: pageType(p.Kind)})
		return true
	})
	return out
}

// pageType is a page's type as a run names it: groups are folders, documents and links pages.
func pageType(k contenttree.Kind) string {
	if k == contenttree.KindGroup {
		return "folder"
	}
	return "page"
}
