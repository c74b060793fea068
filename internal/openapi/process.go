package openapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"docsd/internal/ids"
)

// The jobs of this package: processing one spec, and the periodic look for URL specs due to
// be fetched again.
const (
	ProcessJob = "openapi.process"
	RefreshJob = "openapi.refresh"
)

type processPayload struct {
	Spec       string `json:"spec"`
	Generation int64  `json:"generation"`
}

// processJob is the job for a spec's generation; the dedupe key makes it once per
// generation, while a refresh of the same generation gets a key of its own.
func processJob(specID string, gen int64) Job {
	return Job{Kind: ProcessJob, Payload: processPayload{Spec: specID, Generation: gen},
		Dedupe: fmt.Sprintf("openapi:%s:%d", specID, gen)}
}

// ProcessJobFor is the job a store queues for a spec's generation.
func ProcessJobFor(specID string, gen int64) Job { return processJob(specID, gen) }

// RefreshJobFor is a refresh of a spec's current generation.
func RefreshJobFor(specID string, gen int64) Job {
	j := processJob(specID, gen)
	j.Dedupe = fmt.Sprintf("openapi:%s:%d:refresh:%s", specID, gen, ids.New())
	return j
}

// HandleProcess fetches and parses a spec and records the result. A failure to fetch or
// parse is recorded on the spec, not returned: retrying cannot fix a broken document, and
// the next refresh or PUT tries again.
func (s *Service) HandleProcess(ctx context.Context, payload json.RawMessage) error {
	var p processPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return fmt.Errorf("openapi process payload: %w", err)
	}
	ok, err := s.store.StartProcessing(ctx, s.clock.Now(), p.Spec, p.Generation)
	if err != nil || !ok {
		return err // gone, or a newer generation has its own job
	}
	sp, err := s.store.SpecByID(ctx, p.Spec)
	if err != nil {
		return nil
	}
	r, err := s.process(ctx, sp)
	if err != nil {
		return err
	}
	return s.store.FinishProcessing(ctx, s.clock.Now(), sp.ID, p.Generation, r)
}

// OnProcessFailed records a processing job that failed for good (the database kept failing,
// say) on its spec, so the spec does not stay in progress: the next refresh or PUT tries again.
func (s *Service) OnProcessFailed(ctx context.Context, payload []byte, err error) {
	var p processPayload
	if json.Unmarshal(payload, &p) != nil {
		return
	}
	_ = s.store.FinishProcessing(ctx, s.clock.Now(), p.Spec, p.Generation, Result{ErrorCode: ErrFetch,
		Errors: []ProblemItem{{Code: "processing", Message: "processing stopped after its attempts failed; it is tried again at the next refresh or PUT"}}})
}

// process gathers and checks a spec's files. Only a cancelled context is an error.
func (s *Service) process(ctx context.Context, sp Spec) (Result, error) {
	var got fetched
	var err error
	if sp.SourceURL != "" {
		var prev *Version
		if sp.LastVersion != "" && (sp.ETag != "" || sp.LastModified != "") {
			v, err := s.store.Version(ctx, sp.ID, sp.LastVersion)
			if err != nil {
				return Result{}, err
			}
			prev = &v
		}
		got, err = gatherURL(ctx, s.fetch, sp.SourceURL, prev, sp.ETag, sp.LastModified)
	} else {
		got, err = gatherText(sp.SourceText)
	}
	if ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	var f *failure
	if errors.As(err, &f) {
		return Result{ErrorCode: f.code, Errors: f.problems}, nil
	}
	if err != nil {
		return Result{}, err
	}
	if got.notModified {
		return Result{NotModified: true, ETag: sp.ETag, LastModified: sp.LastModified}, nil
	}
	if problems := validate(got.files, got.entry); len(problems) > 0 {
		// No validators kept: the next fetch must read the document again, not reuse the
		// latest version's entry, which is not what failed.
		return Result{ErrorCode: ErrParse, Errors: problems}, nil
	}
	hash, err := contentHash(got.files)
	if err != nil {
		return Result{ErrorCode: ErrParse, Errors: []ProblemItem{{Code: "syntax", Message: err.Error()}}}, nil
	}
	return Result{ETag: got.etag, LastModified: got.lastModified, Version: &Version{
		ID: ids.New(), SpecID: sp.ID, Hash: hash, URL: sp.SourceURL, Entry: got.entry, Files: got.files}}, nil
}

// HandleRefresh queues the processing of URL specs not fetched for interval; the fetch is
// conditional, so an unchanged document costs a 304.
func (s *Service) HandleRefresh(interval time.Duration) func(ctx context.Context, _ json.RawMessage) error {
	return func(ctx context.Context, _ json.RawMessage) error {
		now := s.clock.Now()
		due, err := s.store.DueForRefresh(ctx, now.Add(-interval), 500)
		if err != nil {
			return err
		}
		for _, sp := range due {
			if err := s.store.EnqueueProcess(ctx, now, sp.ID, sp.Generation); err != nil {
				return err
			}
		}
		return nil
	}
}
