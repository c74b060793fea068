package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/gitsync"
)

func (s *Server) gitSyncRoutes() {
	s.handle("POST /v1/spaces/{spaceId}/git/export", s.exportToGitRepository)
	s.handle("GET /v1/spaces/{spaceId}/git/info", s.getSpaceGitInfo)
}

// exportGitBody is the spec's ExportToGitRepository. repoCacheID, repoCommitURL, timestamp
// and force are accepted and have no effect: an export always commits on top of the ref's
// current tip and fails, rather than overwrite, when the ref moves meanwhile.
type exportGitBody struct {
	URL                  string          `json:"url"`
	Ref                  string          `json:"ref"`
	CommitMessage        string          `json:"commitMessage"`
	RepoCacheID          string          `json:"repoCacheID"`
	RepoTreeURL          string          `json:"repoTreeURL"`
	RepoCommitURL        string          `json:"repoCommitURL"`
	RepoProjectDirectory string          `json:"repoProjectDirectory"`
	Timestamp            json.RawMessage `json:"timestamp"`
	Force                *bool           `json:"force"`
	Standalone           bool            `json:"standalone"`
	GitInfo              *struct {
		Provider string `json:"provider"`
		URL      string `json:"url"`
	} `json:"gitInfo"`
}

// exportToGitRepository answers 204 as the spec does; the push runs as a job, whose outcome
// getSpaceGitInfo shows (our `export` field). The export's id is in X-Docsd-Export.
func (s *Server) exportToGitRepository(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body exportGitBody
	if err := decode(r, &body); err != nil {
		return err
	}
	req := gitsync.Request{URL: body.URL, Ref: body.Ref, Message: body.CommitMessage,
		ProjectDirectory: body.RepoProjectDirectory, TreeURL: body.RepoTreeURL, Standalone: body.Standalone}
	if g := body.GitInfo; g != nil {
		if g.Provider != "" && g.Provider != "github" && g.Provider != "gitlab" {
			return apperr.Invalidf("gitInfo.provider: must be github or gitlab (got %q)", g.Provider)
		}
		req.Provider = g.Provider
		if g.URL != "" {
			req.TreeURL = g.URL
		}
	}
	e, err := s.GitSync.Start(r.Context(), c, r.PathValue("spaceId"), req)
	if err != nil {
		return err
	}
	w.Header().Set("X-Docsd-Export", e.ID)
	return noContent(w)
}

// gitSyncState is the spec's GitSyncState, with `export`, our extension: the space's latest
// export and how it went (its URL without credentials).
//
// Newer versions of the spec require an installation: docsd has no Git Sync installations, so
// installationId names the space's own sync (its id), installationStatus is `active`, and
// installationProvider is the provider given by `gitInfo`, else `gitlab` for a repository
// whose address says so and `github` (whose smart HTTP protocol every Git server speaks) for
// any other. `operation` is the latest export, as those versions describe it.
type gitSyncState struct {
	RepoName             string            `json:"repoName,omitempty"`
	InstallationID       string            `json:"installationId"`
	InstallationProvider string            `json:"installationProvider"`
	InstallationStatus   string            `json:"installationStatus"`
	URL                  string            `json:"url,omitempty"`
	UpdatedAt            *time.Time        `json:"updatedAt,omitempty"`
	Operation            *gitSyncOperation `json:"operation,omitempty"`
	Export               *gitExportInfo    `json:"export,omitempty"`
}

type gitSyncOperation struct {
	State     string     `json:"state"`
	Direction string     `json:"direction"`
	StartedAt time.Time  `json:"startedAt"`
	EndedAt   *time.Time `json:"endedAt,omitempty"`
	Error     string     `json:"error,omitempty"`
}

type gitExportInfo struct {
	ID        string    `json:"id"`
	Status    string    `json:"status"`
	URL       string    `json:"url"`
	Ref       string    `json:"ref"`
	Commit    string    `json:"commit,omitempty"`
	Error     string    `json:"error,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

func (s *Server) getSpaceGitInfo(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	st, err := s.GitSync.Info(r.Context(), c, r.PathValue("spaceId"))
	if err != nil {
		return err
	}
	out := gitSyncState{RepoName: st.RepoName, InstallationID: st.SpaceID, InstallationProvider: st.Provider,
		InstallationStatus: "active", URL: st.TreeURL}
	if out.InstallationProvider == "" {
		out.InstallationProvider = "github"
		if e := st.LastExport; strings.Contains(st.TreeURL, "gitlab") || (e != nil && strings.Contains(e.URL, "gitlab")) {
			out.InstallationProvider = "gitlab"
		}
	}
	if !st.UpdatedAt.IsZero() {
		at := st.UpdatedAt.UTC()
		out.UpdatedAt = &at
	}
	if e := st.LastExport; e != nil {
		out.Export = &gitExportInfo{ID: e.ID, Status: e.Status, URL: e.URL, Ref: e.Ref, Commit: e.Commit, Error: e.Error,
			CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC()}
		op := &gitSyncOperation{State: "running", Direction: "export", StartedAt: e.CreatedAt.UTC(), Error: e.Error}
		if e.Status != gitsync.Pending {
			ended := e.UpdatedAt.UTC()
			op.EndedAt, op.State = &ended, "success"
			if e.Status == gitsync.Failed {
				op.State = "failure"
			}
		}
		out.Operation = op
	}
	return ok(w, out)
}
