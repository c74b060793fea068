package search

import "context"

// SetChampionLimits makes champion lists and batches small for a test; the returned func
// restores them.
func SetChampionLimits(size, batch int) (restore func()) {
	oldSize, oldBatch := championSize, championBatch
	championSize, championBatch = size, batch
	return func() { championSize, championBatch = oldSize, oldBatch }
}

// Rank is the ranked lookup a search makes, with the ranking's figures read afresh.
func (s *Service) Rank(ctx context.Context, m Match) ([]Hit, error) {
	if s.rank != nil {
		s.rank.stats.forget()
	}
	return s.match(ctx, m)
}

// PrepareLists builds the missing champion lists of words found in more than common sections.
func (s *Service) PrepareLists(ctx context.Context, common int) error {
	return s.rank.prepare(ctx, common)
}

// SetBoundedBatch sets how many champion-list candidates are read at a time once the first
// m.Limit have been; the returned func restores it.
func SetBoundedBatch(n int) (restore func()) {
	old := boundedBatch
	boundedBatch = n
	return func() { boundedBatch = old }
}

// BoundedReads is how many champion-list candidates searches have read since the service
// started (the title matches and the waiting sections aside).
func (s *Service) BoundedReads() int64 { return s.rank.boundedReads.Load() }

// ListReads is how many champion lists searches have read from the index (not from the lists
// read before) since the service started.
func (s *Service) ListReads() int64 { return s.rank.listReads.Load() }
