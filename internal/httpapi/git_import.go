package httpapi

import (
	"encoding/json"
	"net/http"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/gitimport"
	"docsd/internal/wire"
)

func (s *Server) gitImportRoutes() {
	s.handle("POST /v1/spaces/{spaceId}/git/import", s.importGitRepository)
}

// importGitBody is the spec's ImportGitRepository. repoCommitURL prefixes the commit id in
// the revision's git.url; repoTreeURL and gitInfo are kept in the space's Git Sync state
// (getSpaceGitInfo); repoCacheID, timestamp and force are accepted and have no effect.
type importGitBody struct {
	URL                  string          `json:"url"`
	Ref                  string          `json:"ref"`
	RepoCacheID          string          `json:"repoCacheID"`
	RepoTreeURL          string          `json:"repoTreeURL"`
	RepoCommitURL        string          `json:"repoCommitURL"`
	RepoProjectDirectory string          `json:"repoProjectDirectory"`
	Timestamp            json.RawMessage `json:"timestamp"`
	Force                *bool           `json:"force"`
	Standalone           *bool           `json:"standalone"`
	GitInfo              *struct {
		Provider string `json:"provider"`
		URL      string `json:"url"`
	} `json:"gitInfo"`
}

// importGitRepository answers 204 as the spec does. A tree committed within the request
// carries the new revision in Location; a larger one is committed by a job, whose import run
// Location names, after which the space's current revision (GET …/content) is the imported one.
func (s *Server) importGitRepository(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body importGitBody
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.Standalone != nil && *body.Standalone {
		return apperr.Invalidf("standalone: true is not supported (an import always becomes the space's content)")
	}
	if err := checkDateTime("timestamp", body.Timestamp); err != nil {
		return err // before fetching anything
	}
	if g := body.GitInfo; g != nil && g.Provider != "" && g.Provider != "github" && g.Provider != "gitlab" {
		return apperr.Invalidf("gitInfo.provider: must be github or gitlab (got %q)", g.Provider)
	}
	spaceID := r.PathValue("spaceId")
	out, err := s.GitImport.Import(r.Context(), c, spaceID, gitimport.Request{URL: body.URL, Ref: body.Ref,
		ProjectDirectory: body.RepoProjectDirectory, CommitURLPrefix: body.RepoCommitURL})
	if err != nil {
		if apperr.Is(err, apperr.Unavailable) {
			w.Header().Set("Retry-After", "5") // the outbound fetches are all busy: one ends soon
		}
		return err
	}
	var treeURL, provider string
	if g := body.GitInfo; g != nil {
		treeURL, provider = g.URL, g.Provider
	}
	if treeURL == "" {
		treeURL = body.RepoTreeURL
	}
	if err := s.GitSync.RecordImport(r.Context(), spaceID, body.URL, treeURL, provider); err != nil {
		return err
	}
	if out.Queued {
		// The spec's 204 has no body: Location names the import run to follow.
		w.Header().Set("X-Docsd-Import", "queued")
		if out.Run.ID != "" {
			w.Header().Set("Location", s.urls.ImportRunLocation(out.Run.OrgID, out.Run.ID))
		}
	} else {
		w.Header().Set("X-Docsd-Import", "committed")
		w.Header().Set("Location", s.urls.API("/spaces/"+wire.Esc(spaceID)+"/revisions/"+wire.Esc(out.Revision)))
		setImportRunHeader(w, s.urls, out.Run)
	}
	return noContent(w)
}

// checkDateTime checks an optional JSON value that the spec types as a date-time: absent,
// null, or a string in RFC 3339 form.
func checkDateTime(field string, raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return apperr.Invalidf("%s: must be a date-time string (RFC 3339, e.g. 2026-03-01T10:00:00.000Z)", field)
	}
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		return apperr.Invalidf("%s: must be a date-time (RFC 3339, e.g. 2026-03-01T10:00:00.000Z), got %q", field, s)
	}
	return nil
}
