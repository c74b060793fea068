// Package gitsync keeps a space's Git Sync state and exports its content to a Git
// repository: the export commits the space's head as a GitBook-layout markdown tree
// (gitbookexport) and pushes it to the URL and ref given, as a durable job. The state answered
// by getSpaceGitInfo is updated by exports and by Git imports.
package gitsync

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"path"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/blob"
	"docsd/internal/clock"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/fetch"
	"docsd/internal/gitbookexport"
	"docsd/internal/gitfetch"
	"docsd/internal/ids"
	"docsd/internal/seal"
)

// JobKind is the job that pushes an export.
const JobKind = "space.git-export"

// Limits of a request.
const (
	URLMax       = 2048
	RefMax       = 255
	MessageMax   = 10000
	DirectoryMax = 512
)

// Export statuses.
const (
	Pending   = "pending"
	Completed = "completed"
	Failed    = "failed"
)

// State is a space's Git Sync state.
type State struct {
	SpaceID   string
	Provider  string // github, gitlab, or "" when unknown
	RepoName  string // the repository's name, from its URL
	TreeURL   string // where readers browse the repository, when given
	UpdatedAt time.Time
	// LastExport is the space's latest export, if any.
	LastExport *Export
}

// Export is one export: where it goes (the URL without credentials), how it went.
type Export struct {
	ID, SpaceID, UserID string
	URL                 string // credentials removed
	Sealed              string // the URL as given, encrypted; "" once the job is over
	Ref, Message        string
	ProjectDirectory    string
	TreeURL, Provider   string
	Status, Error       string
	Commit              string
	CreatedAt           time.Time
	UpdatedAt           time.Time
}

// Store keeps states and exports.
type Store interface {
	InsertExport(ctx context.Context, e Export) error
	Export(ctx context.Context, id string) (Export, error) // ErrNotFound when absent
	FinishExport(ctx context.Context, e Export) error      // status, error, commit; clears sealed
	LatestExport(ctx context.Context, spaceID string) (Export, error)
	PutState(ctx context.Context, s State) error
	State(ctx context.Context, spaceID string) (State, error) // ErrNotFound when none
}

// ErrNotFound is returned by Store for what does not exist.
var ErrNotFound = errors.New("gitsync: not found")

// Enqueuer adds a durable job (jobs.Queue does).
type Enqueuer interface {
	Enqueue(ctx context.Context, kind string, payload any, runAt time.Time, dedupeKey string) error
}

// Service runs exports and answers the state.
type Service struct {
	content *content.Service
	blobs   blob.Store
	store   Store
	jobs    Enqueuer
	fetch   fetch.Options
	sealer  seal.Sealer
	clock   clock.Clock
}

// NewService returns the service; secret keys the sealing of URLs.
func NewService(cs *content.Service, blobs blob.Store, st Store, q Enqueuer, fo fetch.Options, secret string, clk clock.Clock) *Service {
	return &Service{content: cs, blobs: blobs, store: st, jobs: q, fetch: fo, sealer: seal.New("docsd-git-export", secret), clock: clk}
}

// Request is an export as asked.
type Request struct {
	URL, Ref, Message string
	ProjectDirectory  string
	TreeURL, Provider string
	// Standalone exports a snapshot without linking the space to the repository: its sync
	// state (getSpaceGitInfo) stays as it was.
	Standalone bool
}

func (r *Request) validate() error {
	switch {
	case r.URL == "":
		return apperr.Invalidf("url: is required")
	case len(r.URL) > URLMax:
		return apperr.Invalidf("url: must be at most %d characters", URLMax)
	case r.Ref == "":
		return apperr.Invalidf("ref: is required (e.g. refs/heads/main)")
	case len(r.Ref) > RefMax:
		return apperr.Invalidf("ref: must be at most %d characters", RefMax)
	case !strings.HasPrefix(r.Ref, "refs/heads/") || strings.Contains(r.Ref, "..") || strings.ContainsAny(r.Ref, " ~^:?*[\\"):
		return apperr.Invalidf("ref: must be a branch as a full ref name, like refs/heads/main (got %q)", r.Ref)
	case strings.TrimSpace(r.Message) == "":
		return apperr.Invalidf("commitMessage: is required")
	case len(r.Message) > MessageMax:
		return apperr.Invalidf("commitMessage: must be at most %d characters", MessageMax)
	case len(r.ProjectDirectory) > DirectoryMax:
		return apperr.Invalidf("repoProjectDirectory: must be at most %d characters", DirectoryMax)
	}
	u, err := url.Parse(r.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return apperr.Invalidf("url: must be an http or https URL of a Git repository")
	}
	for _, seg := range strings.Split(r.ProjectDirectory, "/") {
		if seg == ".." || strings.ContainsRune(seg, '\\') {
			return apperr.Invalidf("repoProjectDirectory: must be a path inside the repository, without .. or \\")
		}
	}
	r.ProjectDirectory = strings.Trim(path.Clean("/"+r.ProjectDirectory), "/")
	return nil
}

// Redact is the URL without its credentials.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.User = nil
	return u.String()
}

// Start records an export of the space's content and queues its job (edit role; 423 when
// locked). The URL as given is kept only sealed, and only until the job is over.
func (s *Service) Start(ctx context.Context, c auth.Caller, spaceID string, req Request) (Export, error) {
	if err := req.validate(); err != nil {
		return Export{}, err
	}
	if _, err := s.content.CanEdit(ctx, c, spaceID); err != nil {
		return Export{}, err
	}
	now := s.clock.Now()
	e := Export{ID: ids.New(), SpaceID: spaceID, UserID: c.UserID, URL: Redact(req.URL), Sealed: s.sealer.Seal(req.URL),
		Ref: req.Ref, Message: req.Message, ProjectDirectory: req.ProjectDirectory, TreeURL: req.TreeURL,
		Provider: req.Provider, Status: Pending, CreatedAt: now, UpdatedAt: now}
	if err := s.store.InsertExport(ctx, e); err != nil {
		return e, err
	}
	return e, s.jobs.Enqueue(ctx, JobKind, jobPayload{Export: e.ID, Standalone: req.Standalone}, time.Time{}, "")
}

type jobPayload struct {
	Export     string `json:"export"`
	Standalone bool   `json:"standalone,omitempty"`
}

// HandleJob pushes one export. Whatever happens, the export ends completed or failed with
// its sealed URL cleared: a failed push is not retried (the caller asks again), so
// credentials never outlive the job.
func (s *Service) HandleJob(ctx context.Context, raw json.RawMessage) error {
	var p jobPayload
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil // not a payload of this kind's: nothing to push, nothing to retry
	}
	e, err := s.store.Export(ctx, p.Export)
	if errors.Is(err, ErrNotFound) {
		return nil // its space was deleted, and the export with it
	}
	if err != nil {
		return err
	}
	if e.Status != Pending || e.Sealed == "" {
		return nil // done already (a job run twice)
	}
	repoURL, err := s.sealer.Open(e.Sealed)
	if err == nil {
		e.Commit, err = s.run(ctx, e, repoURL)
	}
	if ctx.Err() != nil {
		// Stopped (a shutdown, the attempt's time out): the export stays pending, its URL
		// sealed, and the job runs again.
		return ctx.Err()
	}
	e.Status, e.UpdatedAt, e.Sealed = Completed, s.clock.Now(), ""
	if err != nil {
		e.Status, e.Error = Failed, scrub(err.Error(), repoURL)
	}
	if ferr := s.store.FinishExport(ctx, e); ferr != nil {
		return ferr
	}
	if e.Status == Completed && !p.Standalone {
		return s.store.PutState(ctx, State{SpaceID: e.SpaceID, Provider: e.Provider, RepoName: repoName(e.URL),
			TreeURL: e.TreeURL, UpdatedAt: e.UpdatedAt})
	}
	return nil
}

// run builds the tree of the space's head, as the user who asked (whose rights are checked
// again), and pushes it.
func (s *Service) run(ctx context.Context, e Export, repoURL string) (string, error) {
	c := auth.Caller{UserID: e.UserID}
	if _, err := s.content.CanEdit(ctx, c, e.SpaceID); err != nil {
		return "", err
	}
	_, snap, err := s.content.Head(ctx, c, e.SpaceID)
	if err != nil {
		return "", err
	}
	var docs []string
	for id, p := range snap.Tree.Pages {
		if p.Kind == contenttree.KindDocument {
			docs = append(docs, id)
		}
	}
	texts, err := s.content.Markdowns(ctx, snap, docs)
	if err != nil {
		return "", err
	}
	files := map[string][]byte{}
	for id, f := range snap.Tree.Files {
		obj, err := s.blobs.Open(ctx, f.Hash)
		if err != nil {
			return "", err
		}
		b, err := io.ReadAll(obj)
		obj.Close()
		if err != nil {
			return "", err
		}
		files[id] = b
	}
	includes := map[string]contenttree.ReusableContent{}
	for id := range snap.Tree.ReusableContents {
		r, err := s.content.ReusableContent(ctx, snap, id)
		if err != nil {
			return "", err
		}
		includes[id] = r
	}
	tree := gitbookexport.Tree(gitbookexport.Input{Tree: snap.Tree, Children: snap.Children, Paths: snap.Paths,
		Markdown: texts, Files: files, Includes: includes, FileName: content.ReusableFileName})
	if e.ProjectDirectory != "" {
		under := map[string][]byte{}
		for p, b := range tree {
			under[e.ProjectDirectory+"/"+p] = b
		}
		tree = under
		got, err := gitfetch.Fetch(ctx, repoURL, e.Ref, gitfetch.Options{Fetch: s.fetch})
		switch {
		case err == nil:
			if err := keepOutside(tree, got.Files, e.ProjectDirectory); err != nil {
				return "", err
			}
		case !errors.Is(err, gitfetch.ErrRefNotFound) && !errors.Is(err, gitfetch.ErrEmptyRepository):
			return "", err
		}
	}
	o := s.fetch
	if o.Timeout <= 0 {
		o.Timeout = gitfetch.DefaultTimeout
	}
	client := fetch.New(o)
	defer client.HTTPClient().CloseIdleConnections()
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	return push(ctx, client, pushRequest{URL: repoURL, Ref: e.Ref, Message: e.Message, Files: tree, When: s.clock.Now()})
}

// scrub removes the URL as given, and its password, from a message that might quote them.
func scrub(msg, repoURL string) string {
	if repoURL == "" {
		return msg
	}
	msg = strings.ReplaceAll(msg, repoURL, Redact(repoURL))
	if u, err := url.Parse(repoURL); err == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			msg = strings.ReplaceAll(msg, pw, "***")
		}
	}
	return msg
}

// repoName is the last segment of a repository URL, without .git.
func repoName(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	name := path.Base(strings.TrimSuffix(strings.TrimSuffix(p.Path, "/"), "/.git"))
	return strings.TrimSuffix(name, ".git")
}

// Info answers the space's state for a caller who can read it; 404 when the space has none.
func (s *Service) Info(ctx context.Context, c auth.Caller, spaceID string) (State, error) {
	if _, _, err := s.content.Head(ctx, c, spaceID); err != nil {
		return State{}, err
	}
	st, err := s.store.State(ctx, spaceID)
	if errors.Is(err, ErrNotFound) {
		// A space exported without success yet still shows its latest attempt.
		e, lerr := s.store.LatestExport(ctx, spaceID)
		if errors.Is(lerr, ErrNotFound) {
			return State{}, apperr.NotFoundf("space %s has no Git Sync: nothing was imported from or exported to Git", spaceID)
		}
		if lerr != nil {
			return State{}, lerr
		}
		return State{SpaceID: spaceID, RepoName: repoName(e.URL), LastExport: &e}, nil
	}
	if err != nil {
		return st, err
	}
	if e, err := s.store.LatestExport(ctx, spaceID); err == nil {
		st.LastExport = &e
	} else if !errors.Is(err, ErrNotFound) {
		return st, err
	}
	return st, nil
}

// RecordImport notes a Git import of the space: the repository (without credentials) and when.
func (s *Service) RecordImport(ctx context.Context, spaceID, repoURL, treeURL, provider string) error {
	return s.store.PutState(ctx, State{SpaceID: spaceID, Provider: provider, RepoName: repoName(Redact(repoURL)),
		TreeURL: treeURL, UpdatedAt: s.clock.Now()})
}
