package content

import (
	"context"
	"errors"

	"docsd/internal/apperr"
)

// RevisionByID returns a decoded revision without checking who asks: for callers that have
// authorized the read another way (a change request the caller can see, a signed link).
// An unknown id is a 404.
func (s *Service) RevisionByID(ctx context.Context, revisionID string) (*Snapshot, error) {
	snap, err := s.snapshot(ctx, s.store.Read(), revisionID)
	if errors.Is(err, ErrNotFound) {
		return nil, apperr.NotFoundf("revision %s not found", revisionID)
	}
	return snap, err
}

// Markdowns returns the markdown of the given pages of a snapshot, keyed by page id, reading
// the texts not in the cache in batches.
func (s *Service) Markdowns(ctx context.Context, snap *Snapshot, pageIDs []string) (map[string]string, error) {
	return s.markdownsByHash(ctx, snap.Revision.ID, pageIDs, func(id string) (string, bool) {
		h, ok := snap.markdownHashes[id]
		return h, ok
	})
}

// ViewMarkdowns is Markdowns for a view: it reads the pages' hashes through the view's levels,
// so a reader of a few pages of a new revision does not derive its whole tree.
func (s *Service) ViewMarkdowns(ctx context.Context, v *View, pageIDs []string) (map[string]string, error) {
	return s.markdownsByHash(ctx, v.Revision().ID, pageIDs, func(id string) (string, bool) {
		if _, ok := v.Page(id); !ok {
			return "", false
		}
		return v.markdownHash(id), true
	})
}

// markdownsByHash reads the markdown of pages whose text hash hashOf gives (false: the page
// is not in revisionID, a 404), from the cache and the rest in batches.
func (s *Service) markdownsByHash(ctx context.Context, revisionID string, pageIDs []string,
	hashOf func(pageID string) (string, bool)) (map[string]string, error) {
	out := make(map[string]string, len(pageIDs))
	hashes := make(map[string]string, len(pageIDs))
	var missing []string
	for _, id := range pageIDs {
		h, ok := hashOf(id)
		if !ok {
			return nil, apperr.NotFoundf("page %s not found in revision %s", id, revisionID)
		}
		hashes[id] = h
		if text, ok := s.markdown.get(h); ok {
			out[id] = text
		} else {
			missing = append(missing, h)
		}
	}
	tx := s.store.Read()
	texts := map[string]string{}
	for start := 0; start < len(missing); start += batchSize {
		got, err := tx.Markdown(ctx, missing[start:min(start+batchSize, len(missing))])
		if err != nil {
			return nil, err
		}
		for h, t := range got {
			texts[h] = t
		}
	}
	for _, id := range pageIDs {
		if _, done := out[id]; done {
			continue
		}
		text, ok := texts[hashes[id]]
		if !ok {
			return nil, errors.New("content: markdown of page " + id + " is missing")
		}
		out[id] = text
	}
	return out, nil
}
