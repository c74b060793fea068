// Package gitimport makes a Git repository's GitBook-style markdown tree a space's content:
// it fetches the tree (gitfetch, under the operator's address policy), reads it
// (gitbookimport) and commits it (content.Import). A small tree is committed within the
// request; a larger one is packed into a tar archive in the blob store and committed by a
// durable job, so the request does not hold a write for long and a crash does not lose it.
package gitimport

import (
	"archive/tar"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/blob"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/fetch"
	"docsd/internal/gitbookimport"
	"docsd/internal/gitfetch"
	"docsd/internal/importrun"
	"docsd/internal/jobs"
)

// JobKind is the job that commits a large import, from Git or from an uploaded archive.
const JobKind = "space.git-import"

// Limits of a request.
const (
	URLMax       = 2048
	RefMax       = 255
	DirectoryMax = 512
)

// Enqueuer adds a durable job (jobs.Queue does).
type Enqueuer interface {
	Enqueue(ctx context.Context, kind string, payload any, runAt time.Time, dedupeKey string) error
}

// Runs tracks the import runs of queued imports (importrun.Service does), so that their
// answers can name a run to follow.
type Runs interface {
	Track(ctx context.Context, c auth.Caller, orgID, spaceID, source string) (importrun.Run, error)
	Begin(ctx context.Context, runID string) (bool, error)
	CompleteIn(ctx context.Context, tx content.Tx, runID, revision string, tree *contenttree.Tree, warnings []string) error
	Fail(ctx context.Context, runID string, err error)
}

// Service runs Git imports.
type Service struct {
	Runs      Runs // nil: queued imports have no run
	content   *content.Service
	blobs     blob.Store
	jobs      Enqueuer
	fetch     gitfetch.Options
	syncPages int
}

// NewService returns the service; trees of more than syncPages pages are imported by a job.
func NewService(cs *content.Service, blobs blob.Store, jobs Enqueuer, fo gitfetch.Options, syncPages int) *Service {
	return &Service{content: cs, blobs: blobs, jobs: jobs, fetch: fo, syncPages: syncPages}
}

// Request is what to import.
type Request struct {
	URL              string // http(s), may carry basic-auth credentials
	Ref              string // "refs/heads/main", "main", a tag or a commit id
	ProjectDirectory string // the tree's root inside the repository; "" for the repository's root
	CommitURLPrefix  string // the revision's git.url is this followed by the commit id; "" for none
}

// Outcome says how the import went: committed (Revision is the space's new head) or queued.
type Outcome struct {
	Revision string
	Queued   bool
	Run      importrun.Run // the run a queued import is followed by
	Pages    int
}

// Validate checks a request's fields, naming the field and the limit.
func (r *Request) Validate() error {
	switch {
	case r.URL == "":
		return apperr.Invalidf("url: is required")
	case len(r.URL) > URLMax:
		return apperr.Invalidf("url: must be at most %d characters", URLMax)
	case !isHTTPURL(r.URL):
		return apperr.Invalidf("url: must be an http or https URL of a Git repository")
	case r.Ref == "":
		return apperr.Invalidf("ref: is required (e.g. refs/heads/main)")
	case len(r.Ref) > RefMax:
		return apperr.Invalidf("ref: must be at most %d characters", RefMax)
	case len(r.CommitURLPrefix) > URLMax:
		return apperr.Invalidf("repoCommitURL: must be at most %d characters", URLMax)
	case r.CommitURLPrefix != "" && !isHTTPURL(r.CommitURLPrefix):
		return apperr.Invalidf("repoCommitURL: must be an http or https URL")
	case len(r.ProjectDirectory) > DirectoryMax:
		return apperr.Invalidf("repoProjectDirectory: must be at most %d characters", DirectoryMax)
	}
	for _, seg := range strings.Split(r.ProjectDirectory, "/") {
		if seg == ".." || strings.ContainsRune(seg, '\\') {
			return apperr.Invalidf("repoProjectDirectory: must be a path inside the repository, without .. or \\")
		}
	}
	r.ProjectDirectory = strings.Trim(path.Clean("/"+r.ProjectDirectory), "/")
	return nil
}

// isHTTPURL reports whether raw starts with http:// or https://, in any case ("HTTP://" is the
// same scheme), so that what the address policy refuses is refused by the policy, with its
// message, not here.
func isHTTPURL(raw string) bool {
	scheme, _, ok := strings.Cut(raw, "://")
	return ok && (strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https"))
}

// Import fetches the repository and imports its tree into the space (edit role; 409 when the
// space is locked). Fetch failures answer 400 when the URL or ref is at fault (a forbidden
// address, no such repository or ref) and 502 when the remote server is.
func (s *Service) Import(ctx context.Context, c auth.Caller, spaceID string, req Request) (Outcome, error) {
	if err := req.Validate(); err != nil {
		return Outcome{}, err
	}
	if _, err := s.content.CanEdit(ctx, c, spaceID); err != nil {
		return Outcome{}, err
	}
	got, err := gitfetch.Fetch(ctx, req.URL, req.Ref, s.fetch)
	if err != nil {
		return Outcome{}, fetchError(err)
	}
	fsys := got.Files
	if req.ProjectDirectory != "" {
		if st, err := fs.Stat(fsys, req.ProjectDirectory); err != nil || !st.IsDir() {
			return Outcome{}, apperr.Invalidf("repoProjectDirectory: no directory %q at %s", req.ProjectDirectory, short(got.Commit))
		}
		if fsys, err = fs.Sub(fsys, req.ProjectDirectory); err != nil {
			return Outcome{}, err
		}
	}
	res, err := gitbookimport.Import(fsys)
	if err != nil {
		return Outcome{}, err
	}
	recordCommit(res, got, req)
	if len(res.Pages) <= s.syncPages {
		rev, run, err := s.Commit(ctx, c, spaceID, importrun.SourceGit, res)
		return Outcome{Revision: rev.ID, Pages: len(res.Pages), Run: run}, err
	}
	run, err := s.Queue(ctx, c, spaceID, importrun.SourceGit, fsys, res)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Queued: true, Pages: len(res.Pages), Run: run}, nil
}

// Commit imports a tree within the request, as the space's content, followed by an import
// run of the given source that completes in the same transaction: what the import made and
// warned of is read as for any run. A failed import ends its run as failed. Without runs, it
// is a plain import.
func (s *Service) Commit(ctx context.Context, c auth.Caller, spaceID, source string, res *gitbookimport.Result) (content.Revision, importrun.Run, error) {
	if s.Runs == nil {
		rev, _, err := s.content.Import(ctx, c, spaceID, res, s.blobs)
		return rev, importrun.Run{}, err
	}
	v, err := s.content.CanEdit(ctx, c, spaceID)
	if err != nil {
		return content.Revision{}, importrun.Run{}, err
	}
	run, err := s.Runs.Track(ctx, c, v.OrganizationID, spaceID, source)
	if err != nil {
		return content.Revision{}, run, err
	}
	if _, err := s.Runs.Begin(ctx, run.ID); err != nil {
		return content.Revision{}, run, err
	}
	rev, _, err := s.content.ImportAlso(ctx, c, spaceID, res, s.blobs, func(ctx context.Context, tx content.Tx, rev content.Revision, tree *contenttree.Tree) error {
		return s.Runs.CompleteIn(ctx, tx, run.ID, rev.ID, tree, res.Warnings)
	})
	if errors.Is(err, importrun.ErrRunEnded) {
		err = apperr.Conflictf("import run %s was cancelled before the import was committed; nothing was written", run.ID)
	}
	if err != nil {
		s.Runs.Fail(ctx, run.ID, err)
	}
	return rev, run, err
}

// Queue stores a tree as an archive in the blob store and enqueues the job that imports it
// into the space as the caller, whose rights the job checks again. Uploaded archives too
// large to commit within their request take this path as well. read is the tree as read in
// the request: the job gives its own reading the commit and root recorded there, which the
// archive alone does not hold.
//
// The import is followed by an import run of the given source (importrun.SourceArchive or
// SourceGit), which the job moves along.
func (s *Service) Queue(ctx context.Context, c auth.Caller, spaceID, source string, fsys fs.FS, read *gitbookimport.Result) (importrun.Run, error) {
	v, err := s.content.CanEdit(ctx, c, spaceID)
	if err != nil {
		return importrun.Run{}, err
	}
	ref, err := s.storeArchive(ctx, fsys)
	if err != nil {
		return importrun.Run{}, err
	}
	var run importrun.Run
	if s.Runs != nil {
		if run, err = s.Runs.Track(ctx, c, v.OrganizationID, spaceID, source); err != nil {
			return run, err
		}
	}
	job := jobPayload{Space: spaceID, User: c.UserID, Archive: ref.Hash, Commit: read.Commit, Root: read.Root, Run: run.ID}
	return run, s.jobs.Enqueue(ctx, JobKind, job, time.Time{}, "")
}

// jobPayload names what a job imports. The repository's URL, which may carry credentials, is
// not kept: the tree travels as an archive in the blob store.
type jobPayload struct {
	Space   string                `json:"space"`
	User    string                `json:"user"`
	Archive string                `json:"archive"` // blob hash of a tar of the tree
	Commit  *gitbookimport.Commit `json:"commit,omitempty"`
	Root    string                `json:"root,omitempty"` // the tree's root in the repository or archive
	Run     string                `json:"run,omitempty"`  // the import run that follows it
}

// storeArchive packs the tree into a tar archive in the blob store.
func (s *Service) storeArchive(ctx context.Context, fsys fs.FS) (blob.Ref, error) {
	f, err := os.CreateTemp("", "docsd-git-import-*.tar")
	if err != nil {
		return blob.Ref{}, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	tw := tar.NewWriter(f)
	if err := tw.AddFS(fsys); err != nil {
		return blob.Ref{}, err
	}
	if err := tw.Close(); err != nil {
		return blob.Ref{}, err
	}
	size, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return blob.Ref{}, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return blob.Ref{}, err
	}
	return s.blobs.Put(ctx, f, size+1)
}

// HandleJob commits a queued import as the user who asked for it, whose rights are checked
// again. What retrying cannot fix (the space gone or locked, the user's rights lost, the
// archive missing) fails the job at once; a head that moved meanwhile (409) is retried.
func (s *Service) HandleJob(ctx context.Context, raw json.RawMessage) error {
	var p jobPayload
	if err := json.Unmarshal(raw, &p); err != nil {
		return jobs.Permanent(err)
	}
	obj, err := s.blobs.Open(ctx, p.Archive)
	if err != nil {
		return permanentIfFinal(err)
	}
	defer obj.Close()
	fsys, err := gitbookimport.FromTar(obj)
	if err != nil {
		return jobs.Permanent(err)
	}
	res, err := gitbookimport.Import(fsys)
	if err != nil {
		return jobs.Permanent(err)
	}
	res.Commit, res.Root = p.Commit, p.Root
	if p.Run != "" && s.Runs != nil {
		active, err := s.Runs.Begin(ctx, p.Run)
		if err != nil {
			return err
		}
		if !active {
			return nil // cancelled before it started, or done by an earlier attempt
		}
	}
	var also content.AfterImport
	if p.Run != "" && s.Runs != nil {
		// The run completes with the content, in one transaction, listing the pages it made
		// and what the import warned of; a run cancelled meanwhile stops the commit.
		also = func(ctx context.Context, tx content.Tx, rev content.Revision, tree *contenttree.Tree) error {
			return s.Runs.CompleteIn(ctx, tx, p.Run, rev.ID, tree, res.Warnings)
		}
	}
	_, _, err = s.content.ImportAlso(ctx, auth.Caller{UserID: p.User}, p.Space, res, s.blobs, also)
	if errors.Is(err, importrun.ErrRunEnded) {
		return nil
	}
	err = permanentIfFinal(err)
	var perm *jobs.PermanentError
	if errors.As(err, &perm) && p.Run != "" && s.Runs != nil {
		s.Runs.Fail(ctx, p.Run, err)
	}
	return err
}

// OnJobFailed ends the run of a job that failed for good.
func (s *Service) OnJobFailed(ctx context.Context, raw []byte, err error) {
	var p jobPayload
	if json.Unmarshal(raw, &p) == nil && p.Run != "" && s.Runs != nil {
		s.Runs.Fail(ctx, p.Run, err)
	}
}

// permanentIfFinal marks client-side failures (4xx other than 409) permanent.
func permanentIfFinal(err error) error {
	if err == nil {
		return nil
	}
	if e, ok := apperr.As(err); ok && e.Status() >= 400 && e.Status() < 500 && e.Code != apperr.Conflict {
		return jobs.Permanent(err)
	}
	return err
}

// fetchError turns a failed fetch into the API's error: the URL's fault is a 400 on `url`
// (or `ref`), the remote server's a 502. Messages name only the host, never credentials.
func fetchError(err error) error {
	var fe *fetch.Error
	if !errors.As(err, &fe) {
		return err
	}
	switch {
	case errors.Is(err, fetch.ErrBusy):
		return apperr.New(apperr.Unavailable, "url: %s", fe.Message)
	case errors.Is(err, gitfetch.ErrRefNotFound):
		return apperr.Invalidf("ref: %s", fe.Message)
	case fe.CallerFault():
		return apperr.Invalidf("url: %s", fe.Error())
	default:
		return apperr.New(apperr.BadGateway, "url: %s", fe.Error())
	}
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// recordCommit gives an import the commit it was read from, and the paths of its pages and
// files from the top of the repository. The repository's URL is not recorded (it may carry
// credentials); the commit's web URL is made of the request's repoCommitURL prefix.
func recordCommit(res *gitbookimport.Result, got *gitfetch.Result, req Request) {
	res.Commit = &gitbookimport.Commit{OID: got.Commit, Message: got.Message, Ref: got.Ref}
	if req.CommitURLPrefix != "" {
		res.Commit.URL = req.CommitURLPrefix + got.Commit
	}
	res.Root = strings.Trim(path.Join(req.ProjectDirectory, res.Root), "/")
	if res.Root == "." {
		res.Root = ""
	}
}
