package translate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/contenttree"
	"docsd/internal/space"
)

// jobPayload names a run: the translation and the run's number.
type jobPayload struct {
	Translation string `json:"translation"`
	Seq         int    `json:"seq"`
}

// FinalError is a run failure that retrying cannot fix (the pair has no provider any more,
// the source space is gone or out of the creator's reach).
type FinalError struct{ Err error }

func (e *FinalError) Error() string { return e.Err.Error() }
func (e *FinalError) Unwrap() error { return e.Err }

// HandleJob runs a translation: the source space's current content, translated, becomes
// the result space's content (the space is made on the first run). Pieces whose source text
// and settings did not change since the last run are taken from the stored units instead of
// being sent again.
func (s *Service) HandleJob(ctx context.Context, raw json.RawMessage) error {
	var p jobPayload
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil // not a payload of this kind's
	}
	t, err := s.store.GetByID(ctx, p.Translation)
	if errors.Is(err, ErrNotFound) || (err == nil && p.Seq < t.RunSeq) {
		return nil // deleted, or a later run is queued and will do the work
	}
	if err != nil {
		return err
	}
	started := time.Now()
	t.Status, t.UpdatedAt = Running, s.clock.Now()
	if err := s.store.SaveRun(ctx, t, p.Seq); err != nil {
		return err
	}
	res, err := s.run(ctx, &t)
	t.UpdatedAt = s.clock.Now()
	if err != nil {
		t.LastError = err.Error()
		var final *FinalError
		if errors.As(err, &final) {
			t.Status = Completed
		} else {
			t.Status = Pending // the job is retried
		}
		if serr := s.store.SaveRun(ctx, t, p.Seq); serr != nil {
			return serr
		}
		return err
	}
	d := seconds(time.Since(started))
	t.Status, t.LastError = Completed, ""
	t.Stats.Runs++
	t.Stats.TotalWords += res.words
	t.Stats.TotalPages += res.newPages
	t.Stats.TotalDuration += d
	t.Stats.LatestRunDuration, t.Stats.LatestPages, t.Stats.LatestWords = d, res.pages, res.words
	s.log.Info("translation run", "translation", t.ID, "provider", t.Provider, "pages", res.pages, "words", res.words,
		"kept", res.kept)
	return s.store.SaveRun(ctx, t, p.Seq)
}

// OnJobFailed records a run's last failure once its job gives up.
func (s *Service) OnJobFailed(ctx context.Context, raw []byte, err error) {
	var p jobPayload
	if json.Unmarshal(raw, &p) != nil {
		return
	}
	t, gerr := s.store.GetByID(ctx, p.Translation)
	if gerr != nil {
		return
	}
	t.Status, t.LastError, t.UpdatedAt = Completed, err.Error(), s.clock.Now()
	_ = s.store.SaveRun(ctx, t, p.Seq)
}

// runResult counts what a run sent: pages with something translated, of which never
// translated before, words sent, and segments kept in the source language because the
// provider lost a placeholder.
type runResult struct{ pages, newPages, words, kept int }

// work is one piece of the source to translate.
type work struct {
	key  string
	prep *prepared
	hash string
	out  *string // where the translation goes in the result tree
}

func (s *Service) run(ctx context.Context, t *Translation) (runResult, error) {
	var res runResult
	provider, err := s.providers.For(t.SourceLanguage, t.Language)
	if err != nil {
		return res, &FinalError{err}
	}
	t.Provider = provider.Name()
	caller := auth.Caller{UserID: t.CreatedBy}
	src, err := s.spaces.RoleOn(ctx, caller, t.SourceSpace)
	if apperr.Is(err, apperr.NotFound) {
		return res, &FinalError{fmt.Errorf("source space %s is gone or out of the translation creator's reach", t.SourceSpace)}
	} else if err != nil {
		return res, err
	}
	tree, err := s.content.Tree(ctx, src.Revision)
	if err != nil {
		return res, err
	}
	entries, err := s.store.AllGlossary(ctx, t.OrgID)
	if err != nil {
		return res, err
	}
	terms := glossaryTerms(entries, t.SourceLanguage, t.Language)
	instructions := documentText(t.Instructions.JSON())
	settings := settingsHash(provider.Name(), t, instructions, terms)
	stored, err := s.store.Units(ctx, t.ID)
	if err != nil {
		return res, err
	}

	// Collect the pieces of each page (and reusable content), in a stable order.
	groups := map[string][]work{}
	var order []string
	add := func(group, key, text string, out *string, markdown bool) {
		if strings.TrimSpace(text) == "" {
			return
		}
		prep := prepareText(text, terms)
		if markdown {
			prep = prepareMarkdown(text, terms)
		}
		if _, ok := groups[group]; !ok {
			order = append(order, group)
		}
		groups[group] = append(groups[group], work{key: key, prep: prep, hash: hashOf(settings, text), out: out})
	}
	pageIDs := make([]string, 0, len(tree.Pages))
	for id := range tree.Pages {
		pageIDs = append(pageIDs, id)
	}
	sort.Strings(pageIDs)
	pages := make(map[string]*contenttree.Page, len(pageIDs))
	for _, id := range pageIDs {
		pg := tree.Pages[id]
		pages[id] = &pg
		add("page:"+id, "page:"+id+":title", pg.Title, &pages[id].Title, false)
		add("page:"+id, "page:"+id+":description", pg.Description, &pages[id].Description, false)
		add("page:"+id, "page:"+id+":body", pg.Markdown, &pages[id].Markdown, true)
	}
	reusables := map[string]*contenttree.ReusableContent{}
	for id, r := range tree.ReusableContents {
		rc := r
		reusables[id] = &rc
		add("reusable:"+id, "reusable:"+id+":title", rc.Title, &reusables[id].Title, false)
		add("reusable:"+id, "reusable:"+id+":body", rc.Markdown, &reusables[id].Markdown, true)
	}
	sort.Strings(order)

	var units []Unit
	for _, group := range order {
		var todo []work
		var segs []string
		seenBefore := false
		for _, w := range groups[group] {
			if u, ok := stored[w.key]; ok {
				seenBefore = true
				if u.SourceHash == w.hash {
					*w.out = u.Text
					units = append(units, u)
					continue
				}
			}
			todo = append(todo, w)
			segs = append(segs, w.prep.texts()...)
		}
		if len(todo) == 0 {
			continue
		}
		var got []string
		if len(segs) > 0 {
			got, err = provider.Translate(ctx, Request{From: t.SourceLanguage, To: t.Language, Instructions: instructions, Segments: segs})
			if err != nil {
				return res, err
			}
			if len(got) != len(segs) {
				return res, fmt.Errorf("%s gave %d translations for %d segments", provider.Name(), len(got), len(segs))
			}
		}
		for _, w := range todo {
			n := len(w.prep.segments)
			text, kept := w.prep.assemble(got[:n])
			got = got[n:]
			res.kept += kept
			*w.out = text
			units = append(units, Unit{Key: w.key, SourceHash: w.hash, Text: text})
		}
		res.words += countWords(segs)
		if strings.HasPrefix(group, "page:") {
			res.pages++
			if !seenBefore {
				res.newPages++
			}
		}
	}
	out := tree.Clone()
	for id, pg := range pages {
		out.Pages[id] = *pg
	}
	for id, r := range reusables {
		out.ReusableContents[id] = *r
	}
	if t.ResultSpace == "" {
		title := src.Title + " (" + t.Language + ")"
		n := space.NewSpace{Title: &title}
		if l := t.Language; validSpaceLanguage(l) {
			n.Language = &l
		}
		v, err := s.spaces.Create(ctx, caller, t.OrgID, n)
		if err != nil {
			return res, err
		}
		t.ResultSpace = v.ID
		// Recorded at once, so a retried run fills this space rather than making another.
		if err := s.store.SaveRun(ctx, *t, t.RunSeq); err != nil {
			return res, err
		}
	}
	// A run that finds the result space's head already holding what it would write (a
	// re-run with nothing new, as the outbox consumer makes when it sees a change again) adds
	// no revision.
	if same, err := s.resultHolds(ctx, caller, t.ResultSpace, out); err != nil {
		return res, err
	} else if same != "" {
		t.ResultRevision = same
		return res, s.store.PutUnits(ctx, t.ID, units, s.clock.Now())
	}
	rev, _, err := s.content.Replace(ctx, caller, t.ResultSpace, out)
	if apperr.Is(err, apperr.NotFound) {
		return res, &FinalError{fmt.Errorf("result space %s is gone; delete the translation and create it again", t.ResultSpace)}
	} else if err != nil {
		return res, err
	}
	t.ResultRevision = rev.ID
	if err := s.store.PutUnits(ctx, t.ID, units, s.clock.Now()); err != nil {
		return res, err
	}
	return res, nil
}

// resultHolds returns the head revision of the result space when its content is out already,
// "" otherwise (or when the space is gone: Replace says so).
func (s *Service) resultHolds(ctx context.Context, caller auth.Caller, spaceID string, out *contenttree.Tree) (string, error) {
	v, err := s.spaces.RoleOn(ctx, caller, spaceID)
	if apperr.Is(err, apperr.NotFound) || (err == nil && v.Revision == "") {
		return "", nil
	} else if err != nil {
		return "", err
	}
	cur, err := s.content.Tree(ctx, v.Revision)
	if err != nil {
		return "", err
	}
	if cur.Equal(out) {
		return v.Revision, nil
	}
	return "", nil
}

func validSpaceLanguage(l string) bool {
	for _, x := range space.Languages {
		if x == l {
			return true
		}
	}
	return false
}

// glossaryTerms are the entries with a term in the source language, longest first (so a
// longer term wins over a term it contains); an entry with no term in the target language
// keeps the source term.
func glossaryTerms(entries []GlossaryEntry, from, to string) []glossaryTerm {
	var out []glossaryTerm
	for _, e := range entries {
		src := strings.TrimSpace(e.Translations[from])
		if src == "" {
			continue
		}
		dst := strings.TrimSpace(e.Translations[to])
		if dst == "" {
			dst = src
		}
		out = append(out, glossaryTerm{source: src, target: dst})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].source) != len(out[j].source) {
			return len(out[i].source) > len(out[j].source)
		}
		return out[i].source < out[j].source
	})
	return out
}

// settingsHash covers what shapes every translation besides its source text: a change of
// provider, languages, instructions or glossary makes the next run send everything again.
func settingsHash(provider string, t *Translation, instructions string, terms []glossaryTerm) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", provider, t.SourceLanguage, t.Language, instructions)
	for _, g := range terms {
		fmt.Fprintf(h, "%s\x00%s\x00", g.source, g.target)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func hashOf(settings, text string) string {
	sum := sha256.Sum256([]byte(settings + "\x00" + text))
	return hex.EncodeToString(sum[:])
}

// documentText is the plain text of a rich-text document: its leaves' text, a line per
// block.
func documentText(raw []byte) string {
	var doc any
	if json.Unmarshal(raw, &doc) != nil {
		return ""
	}
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch n := v.(type) {
		case map[string]any:
			if text, ok := n["text"].(string); ok {
				b.WriteString(text)
			}
			for _, k := range []string{"leaves", "nodes"} {
				if kids, ok := n[k].([]any); ok {
					for _, c := range kids {
						walk(c)
					}
				}
			}
			if n["object"] == "block" {
				b.WriteString("\n")
			}
		case []any:
			for _, c := range n {
				walk(c)
			}
		}
	}
	walk(doc)
	return strings.TrimSpace(b.String())
}
