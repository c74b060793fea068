package conversation

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"docsd/internal/auth"
)

// Model is the language model conversations use when one is configured (translate.LLM is
// one): it sharpens issue titles and summaries, embeds issues for clustering and drafts page
// edits for agent tasks. Each use has a local fallback, taken when the model fails or times
// out. Prompts and answers are the model client's to log, at debug level only.
type Model interface {
	// Complete answers one system and one user message, with at most retries retries.
	Complete(ctx context.Context, system, user string, retries int) (string, error)
	// Embed returns one vector per text, with at most retries retries.
	Embed(ctx context.Context, texts []string, retries int) ([][]float64, error)
}

// Pages reads the organization's pages and proposes edits to them, for the change requests
// drafted for agent tasks (the app adapts the space, content and change-request services).
type Pages interface {
	// Page returns a page's title and markdown in the space's current revision; pageID ""
	// means the space's first page (its id is returned).
	Page(ctx context.Context, c auth.Caller, spaceID, pageID string) (id, title, markdown string, err error)
	// Open opens an empty change request on the space and returns its id.
	Open(ctx context.Context, c auth.Caller, spaceID, subject string) (string, error)
	// Edit replaces the page's markdown in the change request.
	Edit(ctx context.Context, c auth.Caller, spaceID, changeRequest, pageID, markdown string) error
}

// UseModel turns on the model's work. pages may be nil: tasks then get no drafts.
func (s *Service) UseModel(m Model, pages Pages) {
	s.model, s.pages = m, pages
}

// modelRetries bounds the retries of one call: every use has a fallback, so a model that is
// down should cost a processing job little time.
const modelRetries = 1

// embeddingSimilarity is the least cosine similarity of embeddings for an issue to join a
// cluster (embedding models put texts on one subject well above it, unrelated ones below).
const embeddingSimilarity = 0.75

// embedBatch bounds the texts of one embeddings request.
const embedBatch = 64

// modelBudget bounds the time one processing run spends on sharpening titles (a batch may
// hold processBatch conversations, one request each): the conversations left keep their
// local titles, so a slow model never keeps a run from ending (its job's timeout is an hour).
const modelBudget = 20 * time.Minute

// modelCall bounds one use of the model, retries included.
const modelCall = 2 * time.Minute

// enriched is what the model made of one conversation: its issues with sharper titles and
// summaries and their embeddings, for the conversation as ingested at ingestedAt.
type enriched struct {
	ingestedAt time.Time
	issues     []Issue
}

// enrich asks the model to sharpen the issues of the conversations and to embed them. After
// the first failure of each kind the model is not asked again in this run (it is down or
// lacks that endpoint); the conversations keep their local results.
func (s *Service) enrich(ctx context.Context, convs []Conversation) map[string]enriched {
	out := map[string]enriched{}
	if s.model == nil {
		return out
	}
	chatDown, budget := false, time.Now().Add(modelBudget)
	var texts []string
	var where []*Issue
	for _, c := range convs {
		issues := extractIssues(c)
		if len(issues) == 0 {
			continue
		}
		if !chatDown && time.Now().After(budget) {
			chatDown = true
			s.log.Warn("language model: the run's time for issue titles is spent; the rest stay local", "budget", modelBudget)
		}
		if !chatDown {
			if err := s.sharpen(ctx, c, issues); err != nil {
				chatDown = true
				s.log.Warn("language model: issue titles stay local", "conversation", c.ID, "err", err)
			}
		}
		out[c.ID] = enriched{ingestedAt: c.IngestedAt, issues: issues}
	}
	for _, e := range out {
		for i := range e.issues {
			texts = append(texts, e.issues[i].Title+"\n"+e.issues[i].Summary)
			where = append(where, &e.issues[i])
		}
	}
	for start := 0; start < len(texts); start += embedBatch {
		end := min(start+embedBatch, len(texts))
		cctx, cancel := context.WithTimeout(ctx, modelCall)
		vecs, err := s.model.Embed(cctx, texts[start:end], modelRetries)
		cancel()
		if err != nil {
			s.log.Warn("language model: clustering by TF-IDF", "err", err)
			for _, is := range where { // all or none: one space of vectors per run
				is.Embedding = nil
			}
			break
		}
		for i, v := range vecs {
			if norm(v) > 0 {
				where[start+i].Embedding = v
			}
		}
	}
	return out
}

const sharpenPrompt = "You read a support conversation and the documentation issues found in it. For each issue, " +
	"write a short title (at most 100 characters) naming what the user needs, and a summary (one to three sentences, " +
	"at most 500 characters) of the question or problem, in the conversation's language.\n" +
	`Answer with only a JSON array of objects {"title": "...", "summary": "..."}, one per issue, in the same order.`

// sharpen replaces the issues' titles and summaries with the model's, when it answers one of
// each per issue.
func (s *Service) sharpen(ctx context.Context, c Conversation, issues []Issue) error {
	type msg struct {
		Role string `json:"role"`
		Body string `json:"body"`
	}
	type item struct {
		Title   string `json:"title"`
		Summary string `json:"summary"`
	}
	in := struct {
		Subject  string `json:"subject,omitempty"`
		Messages []msg  `json:"messages"`
		Issues   []item `json:"issues"`
	}{Subject: c.Subject}
	budget := 12000
	for _, p := range c.Parts {
		body := shorten(strings.Join(strings.Fields(tagRe.ReplaceAllString(p.Body, " ")), " "), 2000)
		if budget -= len(body); budget < 0 {
			break
		}
		in.Messages = append(in.Messages, msg{Role: p.Role, Body: body})
	}
	for _, is := range issues {
		in.Issues = append(in.Issues, item{Title: is.Title, Summary: is.Summary})
	}
	user, _ := json.Marshal(in)
	cctx, cancel := context.WithTimeout(ctx, modelCall)
	defer cancel()
	answer, err := s.model.Complete(cctx, sharpenPrompt, string(user), modelRetries)
	if err != nil {
		return err
	}
	var got []item
	if err := json.Unmarshal([]byte(jsonPart(answer, '[', ']')), &got); err != nil {
		return fmt.Errorf("the answer is not a JSON array of titles and summaries")
	}
	if len(got) != len(issues) {
		return fmt.Errorf("the answer has %d items for %d issues", len(got), len(issues))
	}
	for i, g := range got {
		title := strings.Join(strings.Fields(g.Title), " ")
		summary := strings.Join(strings.Fields(g.Summary), " ")
		if title == "" || summary == "" {
			return fmt.Errorf("the answer's item %d lacks a title or a summary", i)
		}
		issues[i].Title, issues[i].Summary = shorten(title, 120), shorten(summary, 600)
	}
	return nil
}

const draftPrompt = "You edit a documentation page so that it answers the questions users ask below. Keep what the " +
	"page says, its headings, links and code blocks; add or change only what the questions need, in the page's " +
	"language and style. Answer with only the page's full new markdown."

// draft asks the model for the page's markdown edited to answer the cluster's questions.
func (s *Service) draft(ctx context.Context, title, markdown string, questions []string) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Questions users ask:\n")
	for _, q := range questions {
		fmt.Fprintf(&b, "- %s\n", q)
	}
	fmt.Fprintf(&b, "\nThe page %q, in markdown:\n\n%s", title, markdown)
	cctx, cancel := context.WithTimeout(ctx, modelCall)
	defer cancel()
	answer, err := s.model.Complete(cctx, draftPrompt, b.String(), modelRetries)
	if err != nil {
		return "", err
	}
	md := strings.TrimSpace(unfence(answer))
	if md == "" || md == strings.TrimSpace(markdown) {
		return "", fmt.Errorf("the model proposed no change to the page")
	}
	return md + "\n", nil
}

// unfence takes the markdown out of an answer wrapped in one code fence.
func unfence(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "```") || !strings.HasSuffix(t, "```") || len(t) < 6 {
		return s
	}
	nl := strings.IndexByte(t, '\n')
	if nl < 0 {
		return s
	}
	return t[nl+1 : len(t)-3]
}

// jsonPart takes the JSON value between the first open and the last close out of an answer
// a model may have wrapped in a code fence or in words.
func jsonPart(s string, open, close byte) string {
	start, end := strings.IndexByte(s, open), strings.LastIndexByte(s, close)
	if start < 0 || end < start {
		return s
	}
	return s[start : end+1]
}

func norm(v []float64) float64 {
	var n float64
	for _, x := range v {
		n += x * x
	}
	return math.Sqrt(n)
}

// cosineVec is the cosine similarity of two vectors of one length (0 otherwise).
func cosineVec(a, b []float64) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot float64
	for i := range a {
		dot += a[i] * b[i]
	}
	na, nb := norm(a), norm(b)
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / (na * nb)
}

// addVec adds sign×v to *sum (a copy of v when *sum is empty); vectors of another length
// (the model changed) are left out.
func addVec(sum *[]float64, v []float64, sign float64) {
	if len(v) == 0 {
		return
	}
	if len(*sum) == 0 {
		if sign > 0 {
			*sum = append([]float64(nil), v...)
		}
		return
	}
	if len(*sum) != len(v) {
		return
	}
	for i := range v {
		(*sum)[i] += sign * v[i]
	}
}
