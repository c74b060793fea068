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
