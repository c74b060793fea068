package importrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/blob"
	"docsd/internal/changereq"
	"docsd/internal/clock"
	"docsd/internal/content"
	"docsd/internal/docxconv"
	"docsd/internal/fetch"
	"docsd/internal/ids"
	"docsd/internal/org"
	"docsd/internal/paging"
	"docsd/internal/space"
	"docsd/internal/webimport"
)

// JobKind is the job that carries out a run.
const JobKind = "import.run"

// Presigner is a blob store that can hand out upload URLs of its own (S3) and read what was
// uploaded by key.
type Presigner interface {
	PresignPut(ctx context.Context, key string, expires time.Duration) (string, error)
	OpenKey(ctx context.Context, key string, maxBytes int64) (io.ReadCloser, error)
}

// Service starts, follows and carries out import runs.
type Service struct {
	store    Store
	orgs     *org.Service
	spaces   *space.Service
	content  *content.Service
	crs      *changereq.Service
	blobs    blob.Store
	fetch    fetch.Options
	secret   []byte
	clock    clock.Clock
	Limits   webimport.Limits   // website crawls' caps
	Docx     docxconv.Converter // .docx files' converter; without one they are refused
	runSpace func(ctx context.Context, orgID string) ([]string, error)
}

// NewService builds the service; secret signs the embedded store's upload URLs.
func NewService(st Store, orgs *org.Service, spaces *space.Service, cs *content.Service, crs *changereq.Service, blobs blob.Store,
	fo fetch.Options, secret []byte, clk clock.Clock, runSpaces func(ctx context.Context, orgID string) ([]string, error)) *Service {
	return &Service{store: st, orgs: orgs, spaces: spaces, content: cs, crs: crs, blobs: blobs, fetch: fo, secret: secret, clock: clk, runSpace: runSpaces}
}

// UploadURL is a signed upload slot: URL takes one PUT of the file's bytes until it expires;
// Token is set when the URL is docsd's own (the embedded store), for the route that takes it.
type UploadURL struct {
	Key   string
	URL   string
	Token string
}

// CreateUpload makes an upload slot for a member of the organization (who may then import
// from it). On a store that presigns (S3) the URL is the bucket's; otherwise the caller
// builds docsd's own URL from Token.
func (s *Service) CreateUpload(ctx context.Context, c auth.Caller, orgID string, req UploadRequest) (UploadURL, error) {
	if err := s.requireMember(ctx, c, orgID); err != nil {
		return UploadURL{}, err
	}
	if err := req.Validate(); err != nil {
		return UploadURL{}, err
	}
	if req.Kind == UploadImportFile {
		if err := s.checkConvertible("file.name", req.Name); err != nil {
			return UploadURL{}, err
		}
	}
	now := s.clock.Now()
	id := ids.New()
	u := Upload{ID: id, OrgID: orgID, Key: objectKey(orgID, req.Kind, id, req.Name), Kind: req.Kind, Name: req.Name,
		ContentType: req.Type, Size: int64(req.Size), CreatedBy: c.UserID, CreatedAt: now, ExpiresAt: now.Add(UploadTTL)}
	out := UploadURL{Key: u.Key}
	if p, ok := s.blobs.(Presigner); ok {
		url, err := p.PresignPut(ctx, u.Key, UploadTTL)
		if err != nil {
			return UploadURL{}, err
		}
		out.URL = url
	} else {
		out.Token = Token(s.secret, id, u.ExpiresAt)
	}
	return out, s.store.CreateUpload(ctx, u)
}

// Receive takes the bytes of an upload to docsd's own URL: 403 for a token this server did
// not sign or that expired, 409 when the slot was used, 413 past the announced size.
func (s *Service) Receive(ctx context.Context, token string, body io.Reader) (Upload, error) {
	id, err := CheckToken(s.secret, token, s.clock.Now())
	if err != nil {
		return Upload{}, err
	}
	u, err := s.store.Upload(ctx, id)
	if err != nil {
		return Upload{}, err
	}
	if u.UploadedAt != nil {
		return Upload{}, apperr.Conflictf("upload URL: already used (an upload URL takes one upload; ask for another)")
	}
	ref, err := s.blobs.Put(ctx, body, u.Size)
	if errors.Is(err, blob.ErrTooLarge) {
		return Upload{}, apperr.New(apperr.TooLarge, "body: larger than the %d bytes announced for this upload (file.size)", u.Size)
	}
	if err != nil {
		return Upload{}, err
	}
	ok, err := s.store.MarkUploaded(ctx, s.clock.Now(), id, ref.Hash)
	if err != nil {
		return Upload{}, err
	}
	if !ok {
		return Upload{}, apperr.Conflictf("upload URL: already used (an upload URL takes one upload; ask for another)")
	}
	return u, nil
}

// requireMember refuses a caller who is not a member of the organization (404: its
// existence is private).
func (s *Service) requireMember(ctx context.Context, c auth.Caller, orgID string) error {
	_, member, err := s.orgs.Role(ctx, c, orgID)
	if err != nil {
		return err
	}
	if !member {
		return apperr.NotFoundf("organization %s not found", orgID)
	}
	return nil
}

// StartRequest is the body of startImportRun.
type StartRequest struct {
	Source Source
	Target Target
}

// Start checks a run's source and target and queues it (edit role on the target space).
func (s *Service) Start(ctx context.Context, c auth.Caller, orgID string, req StartRequest) (Run, error) {
	if err := s.checkTarget(ctx, c, orgID, req.Target); err != nil {
		return Run{}, err
	}
	switch req.Source.Type {
	case SourceWebsite:
		if req.Source.URL == "" || len(req.Source.URL) > SourceURLMax {
			return Run{}, apperr.Invalidf("source.url: must be an http or https URL of 1 to %d characters", SourceURLMax)
		}
		if err := webimport.CheckStart(req.Source.URL); err != nil {
			return Run{}, apperr.Invalidf("source.url: %v", err)
		}
	case SourceFile:
		if len(req.Source.Files) == 0 || len(req.Source.Files) > SourceFilesMax {
			return Run{}, apperr.Invalidf("source.files: must hold 1 to %d upload keys", SourceFilesMax)
		}
		for i, key := range req.Source.Files {
			if len(key) == 0 || len(key) > UploadKeyMax {
				return Run{}, apperr.Invalidf("source.files[%d]: must be an upload key of 1 to %d characters", i, UploadKeyMax)
			}
			u, err := s.store.UploadByKey(ctx, orgID, key)
			if err != nil {
				return Run{}, apperr.Invalidf("source.files[%d]: no upload with key %q in this organization", i, key)
			}
			if u.Kind != UploadImportFile {
				return Run{}, apperr.Invalidf("source.files[%d]: upload %q is a %s, not an %s", i, key, u.Kind, UploadImportFile)
			}
			if err := s.checkConvertible(fmt.Sprintf("source.files[%d]", i), u.Name); err != nil {
				return Run{}, err
			}
			if u.UploadedAt == nil && u.BlobHash == "" {
				if _, presigns := s.blobs.(Presigner); !presigns {
					return Run{}, apperr.Invalidf("source.files[%d]: nothing was uploaded to %q yet", i, key)
				}
			}
		}
	default:
		return Run{}, apperr.Invalidf("source.type: must be website or file (got %q)", req.Source.Type)
	}
	return s.queue(ctx, c, orgID, req.Target, req.Source, runPayload{}, true)
}

// runPayload is a run's job. Archive names the tree of an archive or Git import in the blob
// store (a tar); Commit and Root what gitimport read of it.
type runPayload struct {
	Run     string          `json:"run"`
	Archive string          `json:"archive,omitempty"`
	Extra   json.RawMessage `json:"extra,omitempty"`
}

// queue stores a pending run, with its job when withJob (else another job carries it out).
func (s *Service) queue(ctx context.Context, c auth.Caller, orgID string, t Target, src Source, p runPayload, withJob bool) (Run, error) {
	now := s.clock.Now()
	r := Run{ID: ids.New(), OrgID: orgID, Target: t, Source: src, Status: Pending, CreatedBy: c.UserID, CreatedAt: now, UpdatedAt: now}
	p.Run = r.ID
	kind := JobKind
	if !withJob {
		kind = ""
	}
	if err := s.store.CreateRun(ctx, now, r, kind, p); err != nil {
		return Run{}, err
	}
	return r, nil
}

// checkTarget checks that the caller may import into the target: the space in the
// organization (404 otherwise), the edit role, an unmerged change request, a page that exists.
func (s *Service) checkTarget(ctx context.Context, c auth.Caller, orgID string, t Target) error {
	if t.Space == "" {
		return apperr.Invalidf("target.space: is required")
	}
	v, err := s.content.CanEdit(ctx, c, t.Space)
	if err != nil {
		return err
	}
	if v.OrganizationID != orgID {
		return apperr.NotFoundf("space %s not found in organization %s", t.Space, orgID)
	}
	rev := v.Revision
	if t.ChangeRequest != "" {
		cr, err := s.crs.Get(ctx, c, t.Space, t.ChangeRequest)
		if err != nil {
			return apperr.Invalidf("target.changeRequest: %s", reasonOf(err))
		}
		if cr.Status == changereq.Merged {
			return apperr.Invalidf("target.changeRequest: change request %d is merged: it can no longer change", cr.Number)
		}
		rev = cr.Revision
	}
	if t.Page != "" {
		view, err := s.content.RevisionView(ctx, rev)
		if err != nil {
			return err
		}
		p, ok := view.Page(t.Page)
		if !ok {
			return apperr.Invalidf("target.page: page %s not found in the target's content", t.Page)
		}
		if p.Kind != "document" && p.Kind != "group" {
			return apperr.Invalidf("target.page: page %s is a %s; content goes under a document or a group", t.Page, p.Kind)
		}
	}
	return nil
}

// Get returns a run the caller can see (read access to its space).
func (s *Service) Get(ctx context.Context, c auth.Caller, orgID, id string) (Run, error) {
	r, err := s.store.Run(ctx, orgID, id)
	if err != nil {
		return r, err
	}
	if _, err := s.spaces.RoleOn(ctx, c, r.Target.Space); err != nil {
		return Run{}, apperr.NotFoundf("import run %s not found", id)
	}
	return r, nil
}

// List lists the runs of the organization's spaces the caller can read, most recent first.
func (s *Service) List(ctx context.Context, c auth.Caller, orgID string, f Filter, page paging.Request) (paging.Result[Run], error) {
	if err := s.requireMember(ctx, c, orgID); err != nil {
		return paging.Result[Run]{}, err
	}
	switch f.Status {
	case "", "active", Pending, InProgress, Completed, Failed, Cancelled:
	default:
		return paging.Result[Run]{}, apperr.Invalidf("status: must be active, pending, in-progress, completed, failed or cancelled (got %q)", f.Status)
	}
	all, err := s.runSpace(ctx, orgID)
	if err != nil {
		return paging.Result[Run]{}, err
	}
	var visible []string
	for _, id := range all {
		if _, err := s.spaces.RoleOn(ctx, c, id); err == nil {
			visible = append(visible, id)
		}
	}
	return s.store.ListRuns(ctx, orgID, visible, f, page)
}

// Cancel stops a pending or in-progress run (edit role on its space): what it has not
// committed is never committed. A run that has ended is a 400.
func (s *Service) Cancel(ctx context.Context, c auth.Caller, orgID, id string) (Run, error) {
	r, err := s.Get(ctx, c, orgID, id)
	if err != nil {
		return r, err
	}
	if _, err := s.content.CanEdit(ctx, c, r.Target.Space); err != nil {
		return r, err
	}
	ok, err := s.store.SetStatus(ctx, s.clock.Now(), id, []string{Pending, InProgress}, Cancelled, "")
	if err != nil {
		return r, err
	}
	r, err = s.store.Run(ctx, orgID, id)
	if err != nil {
		return r, err
	}
	if !ok && r.Status != Cancelled {
		return r, apperr.Invalidf("import run %s is %s: only pending or in-progress runs can be cancelled", id, r.Status)
	}
	return r, nil
}

// errCancelled stops a run's job when the run was cancelled.
var errCancelled = errors.New("import run cancelled")

// fail ends a run as failed, unless it has ended already.
func (s *Service) fail(ctx context.Context, id, reason string) error {
	_, err := s.store.SetStatus(ctx, s.clock.Now(), id, []string{Pending, InProgress}, Failed, reason)
	return err
}

// OnJobFailed ends the run of a job that failed for good (its last attempt, or a failure
// retrying cannot fix).
func (s *Service) OnJobFailed(ctx context.Context, raw json.RawMessage, err error) {
	var p runPayload
	if json.Unmarshal(raw, &p) == nil && p.Run != "" {
		_ = s.fail(ctx, p.Run, reasonOf(err))
	}
}

func reasonOf(err error) string {
	if e, ok := apperr.As(err); ok {
		return e.Message
	}
	var fe *fetch.Error
	if errors.As(err, &fe) {
		return fe.Error()
	}
	return fmt.Sprintf("the import failed: %v", err)
}

// readAll reads at most max bytes of r; more is an error.
func readAll(r io.Reader, max int64) ([]byte, error) {
	var b bytes.Buffer
	n, err := b.ReadFrom(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if n > max {
		return nil, apperr.New(apperr.TooLarge, "file: larger than %d bytes", max)
	}
	return b.Bytes(), nil
}
