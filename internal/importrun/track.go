package importrun

import (
	"context"

	"docsd/internal/auth"
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

// Finish ends a tracked run: completed when err is nil, else failed with err as its reason.
func (s *Service) Finish(ctx context.Context, runID string, err error) error {
	if err != nil {
		return s.fail(ctx, runID, reasonOf(err))
	}
	_, serr := s.store.SetStatus(ctx, s.clock.Now(), runID, []string{Pending, InProgress}, Completed, "")
	return serr
}

// Fail ends a tracked run as failed.
func (s *Service) Fail(ctx context.Context, runID string, err error) {
	_ = s.fail(ctx, runID, reasonOf(err))
}
