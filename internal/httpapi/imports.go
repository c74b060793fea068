package httpapi

import (
	"context"
	"net/http"

	"docsd/internal/auth"
	"docsd/internal/importrun"
	"docsd/internal/wire"
)

func (s *Server) importRoutes() {
	s.handle("POST /v1/orgs/{organizationId}/storage/upload", s.generateStorageUploadURL)
	s.register("PUT /v1/storage/uploads/{token}", http.HandlerFunc(s.receiveUpload))
	s.handle("POST /v1/org/{organizationId}/imports", s.startImportRun)
	s.handle("GET /v1/org/{organizationId}/imports", s.listImportRuns)
	s.handle("GET /v1/org/{organizationId}/imports/{importRunId}", s.getImportRun)
	s.handle("POST /v1/org/{organizationId}/imports/{importRunId}/cancel", s.cancelImportRun)
}

type uploadBody struct {
	File *struct {
		Name string  `json:"name"`
		Type string  `json:"type"`
		Size float64 `json:"size"`
	} `json:"file"`
	Kind string `json:"kind"`
}

// generateStorageUploadURL answers a signed URL that takes one PUT of the file within an
// hour: the S3 bucket's own when blobs live there, else docsd's PUT /v1/storage/uploads/{token}.
func (s *Server) generateStorageUploadURL(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body uploadBody
	if err := decode(r, &body); err != nil {
		return err
	}
	req := importrun.UploadRequest{Kind: body.Kind}
	if body.File == nil {
		req.Name = "" // Validate names file.name
	} else {
		req.Name, req.Type, req.Size = body.File.Name, body.File.Type, body.File.Size
	}
	out, err := s.Imports.CreateUpload(r.Context(), c, r.PathValue("organizationId"), req)
	if err != nil {
		return err
	}
	url := out.URL
	if url == "" {
		url = s.urls.API("/storage/uploads/" + wire.Esc(out.Token))
	}
	return writeJSON(w, http.StatusCreated, map[string]string{"object": "storage-signed-url", "url": url, "key": out.Key})
}

// receiveUpload takes the bytes of a signed upload URL; the URL's signature is the
// credential, as for a presigned S3 URL.
func (s *Server) receiveUpload(w http.ResponseWriter, r *http.Request) {
	if _, err := s.Imports.Receive(r.Context(), r.PathValue("token"), r.Body); err != nil {
		writeError(w, r, s.log, err)
		return
	}
	w.WriteHeader(http.StatusOK)
}

type startImportBody struct {
	Source *struct {
		Type  string   `json:"type"`
		URL   string   `json:"url"`
		Files []string `json:"files"`
	} `json:"source"`
	Target *struct {
		Space         string `json:"space"`
		ChangeRequest string `json:"changeRequest"`
		Page          string `json:"page"`
	} `json:"target"`
	newerImport
}

func (s *Server) startImportRun(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body startImportBody
	if err := decode(r, &body); err != nil {
		return err
	}
	var req importrun.StartRequest
	if body.Source != nil {
		req.Source = importrun.Source{Type: body.Source.Type, URL: body.Source.URL, Files: body.Source.Files}
	}
	if body.Target != nil {
		req.Target = importrun.Target{Space: body.Target.Space, ChangeRequest: body.Target.ChangeRequest, Page: body.Target.Page}
	}
	orgID := r.PathValue("organizationId")
	run, err := s.Imports.Start(r.Context(), c, orgID, req)
	if err != nil {
		return err
	}
	out, err := s.importRun(r.Context(), run)
	if err != nil {
		return err
	}
	return created(w, s.urls.ImportRunLocation(orgID, run.ID), out)
}

func (s *Server) getImportRun(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	run, err := s.Imports.Get(r.Context(), c, r.PathValue("organizationId"), r.PathValue("importRunId"))
	if err != nil {
		return err
	}
	out, err := s.importRun(r.Context(), run)
	if err != nil {
		return err
	}
	return ok(w, out)
}

func (s *Server) cancelImportRun(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	run, err := s.Imports.Cancel(r.Context(), c, orgID, r.PathValue("importRunId"))
	if err != nil {
		return err
	}
	out, err := s.importRun(r.Context(), run)
	if err != nil {
		return err
	}
	return created(w, s.urls.ImportRunLocation(orgID, run.ID), out)
}

func (s *Server) listImportRuns(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	q := r.URL.Query()
	f := importrun.Filter{Space: q.Get("space"), ChangeRequest: q.Get("changeRequest"), Status: q.Get("status")}
	page, err := s.pageRequest(r, "import-runs:"+orgID+":"+f.Space+":"+f.ChangeRequest+":"+f.Status)
	if err != nil {
		return err
	}
	res, err := s.Imports.List(r.Context(), c, orgID, f, page)
	if err != nil {
		return err
	}
	spaces := make([]string, 0, len(res.Items))
	for _, run := range res.Items {
		spaces = append(spaces, run.Target.Space)
	}
	sites, err := s.Sites.SiteOfSpaces(r.Context(), spaces)
	if err != nil {
		return err
	}
	return writeList(s, w, "import-runs:"+orgID+":"+f.Space+":"+f.ChangeRequest+":"+f.Status, res, func(run importrun.Run) wire.ImportRun {
		out := s.urls.FromImportRun(run)
		out.Site = sites[run.Target.Space]
		return out
	})
}

// importRun converts a run, with the site its target space belongs to (when exactly one).
func (s *Server) importRun(ctx context.Context, run importrun.Run) (wire.ImportRun, error) {
	out := s.urls.FromImportRun(run)
	sites, err := s.Sites.SiteOfSpaces(ctx, []string{run.Target.Space})
	out.Site = sites[run.Target.Space]
	return out, err
}
