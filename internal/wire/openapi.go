package wire

import "docsd/internal/openapi"

// OpenAPISpec is the API's OpenAPISpec.
type OpenAPISpec struct {
	Object               string                `json:"object"`
	ID                   string                `json:"id"`
	CreatedAt            Time                  `json:"createdAt"`
	UpdatedAt            Time                  `json:"updatedAt"`
	Slug                 string                `json:"slug"`
	SourceURL            string                `json:"sourceURL,omitempty"`
	ProcessingState      string                `json:"processingState"`
	Visibility           string                `json:"visibility"`
	LastVersion          string                `json:"lastVersion,omitempty"`
	LastProcessedAt      *Time                 `json:"lastProcessedAt,omitempty"`
	LastProcessErrorCode string                `json:"lastProcessErrorCode,omitempty"`
	LastProcessedErrors  []openapi.ProblemItem `json:"lastProcessedErrors"`
	// LastProcessedErrorCount is the newest spec's: the errors before lastProcessedErrors was cut.
	LastProcessedErrorCount int `json:"lastProcessedErrorCount"`
	Permissions             struct {
		View bool `json:"view"`
		Edit bool `json:"edit"`
	} `json:"permissions"`
	URLs struct {
		Location  string `json:"location"`
		App       string `json:"app"`
		Published string `json:"published,omitempty"`
	} `json:"urls"`
}

// OpenAPISpecVersion is the API's OpenAPISpecVersion.
type OpenAPISpecVersion struct {
	Object    string `json:"object"`
	ID        string `json:"id"`
	CreatedAt Time   `json:"createdAt"`
	URL       string `json:"url"`
	URLs      struct {
		Location string `json:"location"`
	} `json:"urls"`
}

// OpenAPISpecContent is the API's OpenAPISpecContent: every file of the version by its path
// (the entry among them), and where the entry is read: url in the reference spec, urls in
// the newest (public is null for a private spec).
type OpenAPISpecContent struct {
	Filesystem map[string]string `json:"filesystem"`
	URL        string            `json:"url"`
	URLs       struct {
		Source string  `json:"source"`
		Public *string `json:"public"`
	} `json:"urls"`
}

// OpenAPISpecLocation is where a spec is read in the API.
func (u URLs) OpenAPISpecLocation(orgID, slug string) string {
	return u.API("/orgs/" + Esc(orgID) + "/openapi/" + Esc(slug))
}

// OpenAPIPublished is where a public spec's latest files are read without a token; the
// trailing slash makes the entry's relative references resolve beside it.
func (u URLs) OpenAPIPublished(specID string) string {
	return u.API("/openapi-published/" + Esc(specID) + "/")
}

// FromOpenAPISpec converts a spec.
func (u URLs) FromOpenAPISpec(v openapi.View) OpenAPISpec {
	out := OpenAPISpec{Object: "openapi-spec", ID: v.ID, CreatedAt: Time(v.CreatedAt), UpdatedAt: Time(v.UpdatedAt),
		Slug: v.Slug, SourceURL: v.SourceURL, ProcessingState: v.State, Visibility: v.Visibility, LastVersion: v.LastVersion,
		LastProcessedAt: TimePtr(v.LastProcessedAt), LastProcessErrorCode: v.LastErrorCode, LastProcessedErrors: v.LastErrors,
		LastProcessedErrorCount: v.ErrorCount}
	if out.LastProcessedErrors == nil {
		out.LastProcessedErrors = []openapi.ProblemItem{}
	}
	out.Permissions.View, out.Permissions.Edit = v.Permissions.View, v.Permissions.Edit
	out.URLs.Location = u.OpenAPISpecLocation(v.OrgID, v.Slug)
	out.URLs.App = u.App("/o/" + Esc(v.OrgID) + "/openapi/" + Esc(v.Slug))
	if v.Visibility == openapi.Public {
		out.URLs.Published = u.OpenAPIPublished(v.ID)
	}
	return out
}

// OpenAPIVersionConverter converts the versions of one spec.
func (u URLs) OpenAPIVersionConverter(sp openapi.Spec) func(openapi.Version) OpenAPISpecVersion {
	return func(v openapi.Version) OpenAPISpecVersion {
		out := OpenAPISpecVersion{Object: "openapi-spec-version", ID: v.ID, CreatedAt: Time(v.CreatedAt), URL: v.URL}
		out.URLs.Location = u.OpenAPISpecLocation(sp.OrgID, sp.Slug) + "/versions/" + Esc(v.ID)
		if out.URL == "" {
			out.URL = out.URLs.Location + "/content"
		}
		return out
	}
}

// FromOpenAPIContent converts a version's content.
func (u URLs) FromOpenAPIContent(sp openapi.Spec, v openapi.Version) OpenAPISpecContent {
	out := OpenAPISpecContent{Filesystem: v.Files, URL: u.OpenAPIVersionConverter(sp)(v).URL}
	out.URLs.Source = out.URL
	if sp.Visibility == openapi.Public && sp.LastVersion == v.ID {
		pub := u.OpenAPIPublished(sp.ID)
		out.URLs.Public = &pub
	}
	return out
}
