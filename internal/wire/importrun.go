package wire

import "docsd/internal/importrun"

// ImportRun is the API's ContentImportRun. errors is docsd's addition: what the run skipped
// or imported differently (a page over the byte cap, a missing SUMMARY.md entry).
type ImportRun struct {
	Object      string          `json:"object"`
	ID          string          `json:"id"`
	Status      string          `json:"status"`
	Reason      string          `json:"reason,omitempty"`
	Source      *ImportSource   `json:"source,omitempty"`
	Target      ImportTarget    `json:"target"`
	Site        string          `json:"site,omitempty"` // the site the target space belongs to, when exactly one
	CreatedBy   string          `json:"createdBy,omitempty"`
	CreatedAt   Time            `json:"createdAt"`
	UpdatedAt   Time            `json:"updatedAt"`
	StartedAt   *Time           `json:"startedAt,omitempty"`
	CompletedAt *Time           `json:"completedAt,omitempty"`
	Pages       []ImportRunPage `json:"pages"`
	Errors      []string        `json:"errors"`
	URLs        struct {
		Location string `json:"location"`
	} `json:"urls"`
}

// ImportSource is the API's ContentImportSource.
type ImportSource struct {
	Type  string   `json:"type"`
	URL   string   `json:"url,omitempty"`
	Files []string `json:"files,omitempty"`
}

// ImportTarget is the API's ContentImportTarget.
type ImportTarget struct {
	Space         string `json:"space"`
	ChangeRequest string `json:"changeRequest,omitempty"`
	Page          string `json:"page,omitempty"`
}

// ImportRunPage is a page an import run made.
type ImportRunPage struct {
	ID        string `json:"id"`
	SourceURL string `json:"sourceURL,omitempty"`
	Type      string `json:"type"`
	Status    string `json:"status"`
}

// ImportRunLocation is where a run is read in the API.
func (u URLs) ImportRunLocation(orgID, runID string) string {
	return u.API("/org/" + Esc(orgID) + "/imports/" + Esc(runID))
}

// FromImportRun converts a run.
func (u URLs) FromImportRun(r importrun.Run) ImportRun {
	out := ImportRun{Object: "import-run", ID: r.ID, Status: r.Status, Reason: r.Reason, CreatedBy: r.CreatedBy,
		Target:    ImportTarget{Space: r.Target.Space, ChangeRequest: r.Target.ChangeRequest, Page: r.Target.Page},
		CreatedAt: Time(r.CreatedAt), UpdatedAt: Time(r.UpdatedAt), StartedAt: TimePtr(r.StartedAt),
		CompletedAt: TimePtr(r.CompletedAt), Pages: []ImportRunPage{}, Errors: r.Errors}
	if r.Source.Type == importrun.SourceWebsite || r.Source.Type == importrun.SourceFile {
		out.Source = &ImportSource{Type: r.Source.Type, URL: r.Source.URL, Files: r.Source.Files}
	}
	if out.Errors == nil {
		out.Errors = []string{}
	}
	for _, p := range r.Pages {
		out.Pages = append(out.Pages, ImportRunPage{ID: p.ID, SourceURL: p.SourceURL, Type: p.Type, Status: "complete"})
	}
	out.URLs.Location = u.ImportRunLocation(r.OrgID, r.ID)
	return out
}
