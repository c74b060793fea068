package site

import (
	"context"
	"slices"
	"strconv"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/paging"
	"docsd/internal/validate"
)

// Feedback is what an AI agent reported to a site about something it worked with: a tool,
// command, endpoint, page or the product overall. The site collects it for its admins; it is
// not the subject. Subject, ReportedBy and Content are kept as they were accepted (their JSON
// is also their stored form).
type Feedback struct {
	ID         string
	SiteID     string
	CreatedAt  time.Time
	CreatedBy  string // user id of the member whose token submitted it
	Source     string // "mcp" or "assistant"; "" when unknown
	ReportedBy *FeedbackReporter
	Subject    FeedbackSubject
	Content    FeedbackContent
}

// FeedbackReporter is the agent that reported feedback (never the user it acted for).
type FeedbackReporter struct {
	Model         *string `json:"model,omitempty"`
	UserAgent     *string `json:"userAgent,omitempty"`
	CorrelationID *string `json:"correlationId,omitempty"`
	OnDemand      bool    `json:"onDemand"`
}

// FeedbackSubject is what feedback is about; Kind decides which other fields it has (see
// subjectFields).
type FeedbackSubject struct {
	Kind     string   `json:"kind"`
	ToolName *string  `json:"toolName,omitempty"` // mcp-tool
	Target   *string  `json:"target,omitempty"`   // mcp-tool
	Command  *string  `json:"command,omitempty"`  // cli-command
	Flags    []string `json:"flags,omitempty"`    // cli-command
	Method   *string  `json:"method,omitempty"`   // api-endpoint
	Path     *string  `json:"path,omitempty"`     // api-endpoint
	URL      *string  `json:"url,omitempty"`      // documentation, site-content
	SpaceID  *string  `json:"spaceId,omitempty"`  // site-content
	PageID   *string  `json:"pageId,omitempty"`   // site-content
}

// FeedbackContent is the feedback itself. Category and Summary are required of agents'
// feedback; site-content feedback (the deprecated operation's) has its text in Detail.
type FeedbackContent struct {
	Category   *string          `json:"category,omitempty"`
	Severity   *string          `json:"severity,omitempty"`
	Goal       *string          `json:"goal,omitempty"`
	Summary    *string          `json:"summary,omitempty"`
	Detail     *string          `json:"detail,omitempty"`
	Workaround *string          `json:"workaround,omitempty"`
	Metrics    *FeedbackMetrics `json:"metrics,omitempty"`
}

// FeedbackMetrics say how the agent used the subject before reporting.
type FeedbackMetrics struct {
	CallCount    *int64 `json:"callCount,omitempty"`
	SuccessCount *int64 `json:"successCount,omitempty"`
	RetryCount   *int64 `json:"retryCount,omitempty"`
}

// Feedback subject kinds. SiteContentKind is given only to the deprecated operation's
// feedback, about a page of the site.
const SiteContentKind = "site-content"

var (
	// FeedbackKinds are the subject kinds an agent may give.
	FeedbackKinds      = []string{"mcp-tool", "cli-command", "api-endpoint", "documentation", "generic"}
	FeedbackCategories = []string{"usability", "reliability", "documentation", "efficiency", "interoperability", "could-not-accomplish"}
	FeedbackSeverities = []string{"low", "medium", "high"}
	FeedbackSources    = []string{"mcp", "assistant"}
	FeedbackMethods    = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}
)

// Limits of feedback, from the public specification. FeedbackIDMax bounds the space and
// page ids of site-content feedback, which the specification leaves unbounded: ids are at
// most 64 characters here.
const (
	FeedbackNameMax, FeedbackFlagsMax, FeedbackFlagMax = 200, 50, 100 // tool, target, command; flags
	FeedbackPathMax, FeedbackURLMax                    = 500, 2048
	FeedbackModelMax, FeedbackUserAgentMax             = 100, 512
	FeedbackCorrelationMax                             = 100
	FeedbackSummaryMax, FeedbackDetailMax              = 256, 4096
	FeedbackWorkaroundMax, FeedbackGoalMax             = 2048, 1024
	FeedbackTextMax                                    = 2048 // the deprecated operation's text
	FeedbackIDMax                                      = 64
)

// FeedbackInput is an agent's feedback (submitAgentFeedbackToSite).
type FeedbackInput struct {
	ReportedBy *FeedbackReporter `json:"reportedBy"`
	Subject    *FeedbackSubject  `json:"subject"`
	Feedback   *FeedbackContent  `json:"feedback"`
}

// SiteContentFeedbackInput is the deprecated operation's feedback about a page of the site
// (submitSiteAgentFeedback).
type SiteContentFeedbackInput struct {
	Feedback *string `json:"feedback"`
	Goal     *string `json:"goal"`
	URL      *string `json:"url"`
	SpaceID  *string `json:"spaceId"`
	PageID   *string `json:"pageId"`
	Source   *string `json:"source"`
}

// FeedbackFilter narrows a list of feedback; "" matches any.
type FeedbackFilter struct {
	Kind     string
	Category string
}

// maxLen checks an optional text field's length.
func maxLen(field string, s *string, max int) error {
	if s == nil {
		return nil
	}
	return validate.Length(field, *s, 0, max)
}

// oneOfOpt checks an optional enum field.
func oneOfOpt(field string, s *string, allowed []string) error {
	if s == nil {
		return nil
	}
	return validate.OneOf(field, *s, allowed...)
}

// subjectFields are the fields each kind of subject has besides kind.
var subjectFields = map[string][]string{
	"mcp-tool":      {"toolName", "target"},
	"cli-command":   {"command", "flags"},
	"api-endpoint":  {"method", "path"},
	"documentation": {"url"},
	"generic":       {},
}

// given lists the subject's fields that are set, by their JSON names.
func (sub FeedbackSubject) given() []string {
	var out []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"toolName", sub.ToolName != nil}, {"target", sub.Target != nil}, {"command", sub.Command != nil},
		{"flags", sub.Flags != nil}, {"method", sub.Method != nil}, {"path", sub.Path != nil}, {"url", sub.URL != nil},
		{"spaceId", sub.SpaceID != nil}, {"pageId", sub.PageID != nil}} {
		if f.set {
			out = append(out, f.name)
		}
	}
	return out
}

func (sub FeedbackSubject) check() error {
	if sub.Kind == "" {
		return validate.Required("subject.kind")
	}
	allowed, ok := subjectFields[sub.Kind]
	if !ok {
		return validate.OneOf("subject.kind", sub.Kind, FeedbackKinds...)
	}
	for _, f := range sub.given() {
		if !slices.Contains(allowed, f) {
			return apperr.Invalidf("subject.%s: unknown field for a subject of kind %s", f, sub.Kind)
		}
	}
	switch sub.Kind {
	case "mcp-tool":
		if sub.ToolName == nil {
			return validate.Required("subject.toolName")
		}
		return validate.First(maxLen("subject.toolName", sub.ToolName, FeedbackNameMax),
			maxLen("subject.target", sub.Target, FeedbackNameMax))
	case "cli-command":
		if sub.Command == nil {
			return validate.Required("subject.command")
		}
		if err := maxLen("subject.command", sub.Command, FeedbackNameMax); err != nil {
			return err
		}
		if len(sub.Flags) > FeedbackFlagsMax {
			return apperr.Invalidf("subject.flags: must hold at most %d flags (got %d)", FeedbackFlagsMax, len(sub.Flags))
		}
		for i := range sub.Flags {
			if err := maxLen("subject.flags["+strconv.Itoa(i)+"]", &sub.Flags[i], FeedbackFlagMax); err != nil {
				return err
			}
		}
	case "api-endpoint":
		if sub.Method == nil {
			return validate.Required("subject.method")
		}
		if sub.Path == nil {
			return validate.Required("subject.path")
		}
		return validate.First(oneOfOpt("subject.method", sub.Method, FeedbackMethods),
			maxLen("subject.path", sub.Path, FeedbackPathMax))
	case "documentation":
		if sub.URL == nil {
			return validate.Required("subject.url")
		}
		return validate.URI("subject.url", *sub.URL, FeedbackURLMax)
	}
	return nil
}

func (r *FeedbackReporter) check() error {
	if r == nil {
		return nil
	}
	return validate.First(maxLen("reportedBy.model", r.Model, FeedbackModelMax),
		maxLen("reportedBy.userAgent", r.UserAgent, FeedbackUserAgentMax),
		maxLen("reportedBy.correlationId", r.CorrelationID, FeedbackCorrelationMax))
}

func (fc FeedbackContent) check() error {
	if fc.Category == nil {
		return validate.Required("feedback.category")
	}
	if fc.Summary == nil {
		return validate.Required("feedback.summary")
	}
	err := validate.First(oneOfOpt("feedback.category", fc.Category, FeedbackCategories),
		oneOfOpt("feedback.severity", fc.Severity, FeedbackSeverities),
		maxLen("feedback.goal", fc.Goal, FeedbackGoalMax),
		validate.Length("feedback.summary", *fc.Summary, 1, FeedbackSummaryMax),
		maxLen("feedback.detail", fc.Detail, FeedbackDetailMax),
		maxLen("feedback.workaround", fc.Workaround, FeedbackWorkaroundMax))
	if err != nil || fc.Metrics == nil {
		return err
	}
	for _, m := range []struct {
		name string
		v    *int64
	}{{"callCount", fc.Metrics.CallCount}, {"successCount", fc.Metrics.SuccessCount}, {"retryCount", fc.Metrics.RetryCount}} {
		if m.v != nil && *m.v < 0 {
			return apperr.Invalidf("feedback.metrics.%s: must be at least 0 (got %d)", m.name, *m.v)
		}
	}
	return nil
}

// feedback checks in and returns the feedback it describes.
func (in FeedbackInput) feedback() (Feedback, error) {
	switch {
	case in.Subject == nil:
		return Feedback{}, validate.Required("subject")
	case in.Feedback == nil:
		return Feedback{}, validate.Required("feedback")
	}
	if err := validate.First(in.ReportedBy.check(), in.Subject.check(), in.Feedback.check()); err != nil {
		return Feedback{}, err
	}
	return Feedback{ReportedBy: in.ReportedBy, Subject: *in.Subject, Content: *in.Feedback}, nil
}

// feedback checks in and returns the site-content feedback it describes.
func (in SiteContentFeedbackInput) feedback() (Feedback, error) {
	for _, f := range []struct {
		name string
		v    *string
	}{{"feedback", in.Feedback}, {"url", in.URL}, {"spaceId", in.SpaceID}, {"pageId", in.PageID}} {
		if f.v == nil {
			return Feedback{}, validate.Required(f.name)
		}
	}
	err := validate.First(validate.Length("feedback", *in.Feedback, 1, FeedbackTextMax),
		maxLen("goal", in.Goal, FeedbackGoalMax),
		validate.URI("url", *in.URL, FeedbackURLMax),
		validate.Length("spaceId", *in.SpaceID, 1, FeedbackIDMax),
		validate.Length("pageId", *in.PageID, 1, FeedbackIDMax),
		oneOfOpt("source", in.Source, FeedbackSources))
	if err != nil {
		return Feedback{}, err
	}
	f := Feedback{Subject: FeedbackSubject{Kind: SiteContentKind, URL: in.URL, SpaceID: in.SpaceID, PageID: in.PageID},
		Content: FeedbackContent{Goal: in.Goal, Detail: in.Feedback}}
	if in.Source != nil {
		f.Source = *in.Source
	}
	return f, nil
}

// SubmitFeedback records an agent's feedback to a site; any member of its organization may
// submit (guests: 403), as agents act with their user's token.
func (s *Service) SubmitFeedback(ctx context.Context, c auth.Caller, orgID, siteID string, in FeedbackInput) (Feedback, error) {
	f, err := in.feedback()
	if err != nil {
		return Feedback{}, err
	}
	return s.insertFeedback(ctx, c, orgID, siteID, f)
}

// SubmitSiteContentFeedback records the deprecated operation's feedback about a page of the
// site, as feedback with a site-content subject; who may is as for SubmitFeedback. The space
// and page ids are recorded as given.
func (s *Service) SubmitSiteContentFeedback(ctx context.Context, c auth.Caller, orgID, siteID string, in SiteContentFeedbackInput) (Feedback, error) {
	f, err := in.feedback()
	if err != nil {
		return Feedback{}, err
	}
	return s.insertFeedback(ctx, c, orgID, siteID, f)
}

func (s *Service) insertFeedback(ctx context.Context, c auth.Caller, orgID, siteID string, f Feedback) (Feedback, error) {
	now := s.clock.Now()
	f.ID, f.CreatedAt, f.CreatedBy = ids.New(), now, c.UserID
	err := s.store.Write(ctx, now, func(tx Tx) error {
		st, err := s.siteIn(ctx, tx, c, orgID, siteID, false)
		if err != nil {
			return err
		}
		f.SiteID = st.ID
		return tx.InsertFeedback(ctx, f)
	})
	return f, err
}

// ListFeedback lists a site's feedback, newest first, to the organization's admins.
func (s *Service) ListFeedback(ctx context.Context, c auth.Caller, orgID, siteID string, f FeedbackFilter, page paging.Request) (paging.Result[Feedback], error) {
	if f.Kind != "" {
		if err := validate.OneOf("kind", f.Kind, append(slices.Clip(FeedbackKinds), SiteContentKind)...); err != nil {
			return paging.Result[Feedback]{}, err
		}
	}
	if f.Category != "" {
		if err := validate.OneOf("category", f.Category, FeedbackCategories...); err != nil {
			return paging.Result[Feedback]{}, err
		}
	}
	tx := s.store.Read()
	st, err := s.siteIn(ctx, tx, c, orgID, siteID, true)
	if err != nil {
		return paging.Result[Feedback]{}, err
	}
	return tx.ListFeedback(ctx, st.ID, f, page)
}
