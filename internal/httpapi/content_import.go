package httpapi

import (
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/gitbookimport"
	"docsd/internal/importrun"
	"docsd/internal/wire"
)

func (s *Server) contentImportRoutes() {
	s.handle("POST /v1/spaces/{spaceId}/content/import", s.importContent)
}

// importContent makes an uploaded archive of a GitBook-style markdown tree the space's
// content (our extension of the API). The body is the archive itself, within the server's
// body cap (413 beyond it); what it unpacks to is bounded by gitbookimport's limits. A tree of
// more than ImportSyncPages pages is checked here and committed by a job: the 202 answers the
// import run that follows it, and Location is that run's.
func (s *Server) importContent(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	spaceID := r.PathValue("spaceId")
	// Refuse before reading a possibly large body.
	if _, err := s.Content.CanEdit(r.Context(), c, spaceID); err != nil {
		return err
	}
	fsys, err := readArchive(r)
	if err != nil {
		return err
	}
	res, err := gitbookimport.Import(fsys)
	if err != nil {
		return err
	}
	if len(res.Pages) > s.ImportSyncPages {
		// As a large Git import: the tree is committed by a durable job, and the space's
		// head moves to the imported revision when it has run.
		run, err := s.GitImport.Queue(r.Context(), c, spaceID, importrun.SourceArchive, fsys, res)
		if err != nil {
			return err
		}
		// The answer is the import run to follow (GET its Location), as for startImportRun.
		w.Header().Set("X-Docsd-Import", "queued")
		w.Header().Set("Location", s.urls.ImportRunLocation(run.OrgID, run.ID))
		out, err := s.importRun(r.Context(), run)
		if err != nil {
			return err
		}
		return writeJSON(w, http.StatusAccepted, out)
	}
	rev, run, err := s.GitImport.Commit(r.Context(), c, spaceID, importrun.SourceArchive, res)
	if err != nil {
		return err
	}
	w.Header().Set("X-Docsd-Import", "committed")
	setImportRunHeader(w, s.urls, run)
	return s.revisionCreated(w, r, c, spaceID, rev.ID)
}

// setImportRunHeader names, in X-Docsd-Import-Run, the completed run of an import committed
// within its request: the pages it made and what it warned of (unknown block tags, say).
func setImportRunHeader(w http.ResponseWriter, u wire.URLs, run importrun.Run) {
	if run.ID != "" {
		w.Header().Set("X-Docsd-Import-Run", u.ImportRunLocation(run.OrgID, run.ID))
	}
}

// revisionCreated answers 201 with a new revision of the space and its Location.
func (s *Server) revisionCreated(w http.ResponseWriter, r *http.Request, c auth.Caller, spaceID, revID string) error {
	_, snap, err := s.Content.AtRevision(r.Context(), c, spaceID, revID)
	if err != nil {
		return err
	}
	return created(w, s.urls.API("/spaces/"+wire.Esc(spaceID)+"/revisions/"+wire.Esc(revID)), s.urls.FromRevision(spaceID, snap))
}

// readArchive unpacks the body by its Content-Type: a zip archive, or a tar archive, plain or
// gzip-compressed. The body is spooled to a temporary file first: a zip archive is read from
// its end, and a body over the server's cap must be told apart from a broken archive.
func readArchive(r *http.Request) (fs.FS, error) {
	ct := r.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	zipped := false
	switch mt {
	case "application/zip", "application/x-zip-compressed":
		zipped = true
	case "application/x-tar", "application/gzip", "application/x-gzip", "application/x-gtar":
	default:
		return nil, apperr.Invalidf("Content-Type: must be application/zip, application/x-tar or application/gzip (got %q)", ct)
	}
	f, err := os.CreateTemp("", "docsd-import-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	src := &readErrors{r: r.Body}
	n, err := io.Copy(f, src)
	if src.err != nil {
		return nil, bodyError(src.err)
	}
	if err != nil {
		return nil, err // the temporary file: the server's trouble
	}
	if zipped {
		return gitbookimport.FromZip(f, n)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return gitbookimport.FromTar(f)
}

// bodyError reports a body over the server's cap as 413, and one that did not arrive (too
// slow, or the client went away) as 400.
func bodyError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return apperr.New(apperr.TooLarge, "body: the archive must be at most %d bytes", tooBig.Limit)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return apperr.Invalidf("body: the archive was not received within %v", largeBodyTimeout)
	}
	return apperr.Invalidf("body: the archive could not be read: %v", err)
}

// readErrors remembers a reader's error, to tell the client's body failing from the
// server's disk failing in one io.Copy.
type readErrors struct {
	r   io.Reader
	err error
}

func (e *readErrors) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}
