// Package check verifies docsd's stored state (docsd admin check): that file bytes match
// their hashes, that every revision reaches only stored objects, that each space's search
// index agrees with its head, and that no job is stuck or of a kind nobody runs. With Repair
// it mends what can be derived again (search indexes, stuck jobs) and reports the rest.
package check

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"docsd/internal/blob"
	"docsd/internal/clock"
	"docsd/internal/content"
	"docsd/internal/search"
	"docsd/internal/store"
)

// Deps are the parts of docsd a check reads.
type Deps struct {
	DB      *store.DB
	Blobs   blob.Store
	Content *content.Service
	Search  *search.Service
	Kinds   []string // the job kinds this docsd runs
	Clock   clock.Clock
}

// Finding is one problem. Repaired says that Run mended it.
type Finding struct {
	Area     string // "blob", "content", "search" or "jobs"
	Message  string
	Repaired bool
}

func (f Finding) String() string {
	if f.Repaired {
		return f.Area + ": " + f.Message + " (repaired)"
	}
	return f.Area + ": " + f.Message
}

// Run checks everything, reports each finding to report as it is found, and returns how
// many findings are left unrepaired. The error is for a failure to check, not a problem found.
func Run(ctx context.Context, d Deps, repair bool, report func(Finding)) (unrepaired int, err error) {
	add := func(f Finding) {
		if !f.Repaired {
			unrepaired++
		}
		report(f)
	}
	steps := []func(context.Context, Deps, bool, func(Finding)) error{checkContent, checkSearch, checkJobs}
	for _, step := range steps {
		if err := step(ctx, d, repair, add); err != nil {
			return unrepaired, err
		}
	}
	return unrepaired, nil
}

// checkContent walks every revision, then checks the bytes of every blob a file record names.
func checkContent(ctx context.Context, d Deps, _ bool, add func(Finding)) error {
	heads, err := d.DB.SpacesWithoutHead(ctx)
	if err != nil {
		return err
	}
	for _, h := range heads {
		add(Finding{Area: "content", Message: "space and head revision " + h + ": the revision is missing"})
	}
	v := d.Content.NewVerifier(func(p string) { add(Finding{Area: "content", Message: p}) })
	revs, err := d.DB.RevisionIDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range revs {
		if err := v.Revision(ctx, id); err != nil {
			return fmt.Errorf("check revision %s: %w", id, err)
		}
	}
	sizes, from := v.Blobs()
	for _, h := range slices.Sorted(maps.Keys(sizes)) {
		msg, err := checkBlob(ctx, d.Blobs, h, sizes[h])
		if err != nil {
			return err
		}
		if msg != "" {
			add(Finding{Area: "blob", Message: fmt.Sprintf("%s (a file of revision %s) %s; unrecoverable here: restore it from a backup", h, from[h], msg)})
		}
	}
	return nil
}

// checkBlob reads a blob through and says what is wrong with it ("" when nothing is).
func checkBlob(ctx context.Context, blobs blob.Store, hash string, size int64) (string, error) {
	if !blob.ValidHash(hash) {
		return "is not a valid blob hash", nil
	}
	obj, err := blobs.Open(ctx, hash)
	if errors.Is(err, blob.ErrNotFound) {
		return "is missing", nil
	}
	if err != nil {
		return "", err
	}
	defer obj.Close()
	sum := sha256.New()
	n, err := io.Copy(sum, obj)
	if err != nil {
		return fmt.Sprintf("cannot be read: %v", err), nil
	}
	if got := hex.EncodeToString(sum.Sum(nil)); got != hash {
		return fmt.Sprintf("holds %d bytes that hash to %s", n, got), nil
	}
	if n != size {
		return fmt.Sprintf("holds %d bytes, its file record says %d", n, size), nil
	}
	return "", nil
}

// checkSearch compares each live space's index with its head, and rebuilds it on repair.
// A space with changes the indexer has not processed yet is catching up, not damaged, and is
// left out; an indexer that keeps failing is reported instead.
func checkSearch(ctx context.Context, d Deps, repair bool, add func(Finding)) error {
	spaces, err := d.DB.LiveSpaceIDs(ctx)
	if err != nil {
		return err
	}
	outbox := store.Outbox{DB: d.DB}
	behind, err := outbox.SpacesBehind(ctx, search.Consumer)
	if err != nil {
		return err
	}
	if len(behind) > 0 {
		lag, err := outbox.ConsumerLag(ctx, search.Consumer, d.Clock.Now())
		if err != nil {
			return err
		}
		if lag.Failures > 0 {
			add(Finding{Area: "search", Message: fmt.Sprintf("the indexer is %d events behind and has failed %d times since its last success; the server's log says why", lag.Pending, lag.Failures)})
		}
	}
	for _, id := range spaces {
		if behind[id] {
			continue
		}
		problems, err := d.Search.Verify(ctx, id)
		if err != nil {
			add(Finding{Area: "search", Message: fmt.Sprintf("space %s: cannot compare its index with its content: %v", id, err)})
			continue
		}
		if len(problems) == 0 {
			continue
		}
		repaired := false
		if repair {
			if err := d.Search.Rebuild(ctx, id); err != nil {
				add(Finding{Area: "search", Message: fmt.Sprintf("space %s: rebuilding its index failed: %v", id, err)})
			} else if again, err := d.Search.Verify(ctx, id); err == nil && len(again) == 0 {
				repaired = true
			}
		}
		for _, p := range problems {
			add(Finding{Area: "search", Message: p, Repaired: repaired})
		}
	}
	return nil
}

// checkJobs finds jobs whose lease ran out while they were marked running, and pending jobs
// of kinds this docsd does not run. On repair the former are queued again; the latter are
// left, since a newer docsd sharing the database may run them.
func checkJobs(ctx context.Context, d Deps, repair bool, add func(Finding)) error {
	now := d.Clock.Now()
	stuck, err := d.DB.ExpiredJobs(ctx, now)
	if err != nil {
		return err
	}
	for _, j := range stuck {
		f := Finding{Area: "jobs", Message: fmt.Sprintf("job %s (%s, attempt %d) is marked running by %s, whose lease expired at %s",
			j.ID, j.Kind, j.Attempts, j.LeaseOwner, j.LeaseExpiresAt.UTC().Format("2006-01-02T15:04:05Z"))}
		if repair {
			ok, err := d.DB.RequeueExpiredJob(ctx, now, j.ID)
			if err != nil {
				return err
			}
			f.Repaired = ok
		}
		add(f)
	}
	kinds, err := d.DB.PendingJobKinds(ctx)
	if err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		if !slices.Contains(d.Kinds, k) {
			add(Finding{Area: "jobs", Message: fmt.Sprintf("%d pending jobs of kind %q, which this docsd does not run", kinds[k], k)})
		}
	}
	return nil
}
