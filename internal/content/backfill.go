package content

import (
	"context"
	"errors"
)

// BackfillDocumentsJob is the job kind that records the documents of revisions made before
// space_documents existed (migration 00160), so getDocumentById finds them too. Migration
// 00275 queues it once on databases that already had revisions.
const BackfillDocumentsJob = "content.backfill_documents"

// BackfillDocuments records, for each revision (oldest first), the documents its snapshot
// holds, unless an earlier revision of the space did. Recording is insert-if-absent, so a
// run that is repeated or cut short and retried changes nothing already recorded.
func (s *Service) BackfillDocuments(ctx context.Context, revisionIDs []string) error {
	for _, id := range revisionIDs {
		snap, err := s.snapshot(ctx, s.store.Read(), id)
		if errors.Is(err, ErrNotFound) {
			continue // purged with its space since it was listed
		}
		if err != nil {
			return err
		}
		docs := make(map[string]string, len(snap.markdownHashes))
		for _, h := range snap.markdownHashes {
			docs[h] = h
		}
		if len(docs) == 0 {
			continue
		}
		err = s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
			return tx.RecordDocuments(ctx, snap.Revision.SpaceID, id, docs)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
