package translate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/paging"
)

// MaxGlossaryOps is the most operations one updateGlossaryEntries accepts.
const MaxGlossaryOps = 1000

// Glossary lists the organization's glossary to a member, oldest entry first.
func (s *Service) Glossary(ctx context.Context, c auth.Caller, orgID string, page paging.Request) (paging.Result[GlossaryEntry], error) {
	if _, err := s.access(ctx, c, orgID, false); err != nil {
		return paging.Result[GlossaryEntry]{}, err
	}
	return s.store.Glossary(ctx, orgID, page)
}

// GlossaryEntry returns one entry to a member.
func (s *Service) GlossaryEntry(ctx context.Context, c auth.Caller, orgID, id string) (GlossaryEntry, error) {
	if _, err := s.access(ctx, c, orgID, false); err != nil {
		return GlossaryEntry{}, err
	}
	e, err := s.store.GlossaryEntry(ctx, orgID, id)
	if errors.Is(err, ErrNotFound) {
		return e, apperr.NotFoundf("glossary entry %s not found", id)
	}
	return e, err
}

// UpdateGlossary applies a batch of inserts, updates and deletes, all or nothing (create
// role). An update replaces the entry's translations.
func (s *Service) UpdateGlossary(ctx context.Context, c auth.Caller, orgID string, ops []GlossaryOp) error {
	if len(ops) > MaxGlossaryOps {
		return apperr.Invalidf("operations: at most %d per request (got %d)", MaxGlossaryOps, len(ops))
	}
	for i := range ops {
		op := &ops[i]
		field := fmt.Sprintf("operations[%d]", i)
		switch op.Type {
		case "insert":
			op.ID = ids.New()
		case "update", "delete":
			if op.ID == "" {
				return apperr.Invalidf("%s.id: is required for %s", field, op.Type)
			}
		default:
			return apperr.Invalidf("%s.type: must be insert, update or delete (got %q)", field, op.Type)
		}
		if op.Type == "delete" {
			continue
		}
		if op.Translations == nil {
			return apperr.Invalidf("%s.translations: is required", field)
		}
		if err := validTerms(field+".translations", op.Translations); err != nil {
			return err
		}
	}
	if _, err := s.access(ctx, c, orgID, true); err != nil {
		return err
	}
	err := s.store.ApplyGlossary(ctx, orgID, ops, s.clock.Now())
	if errors.Is(err, ErrNotFound) {
		return apperr.Invalidf("%v", err)
	}
	return err
}

func validTerms(field string, m map[string]string) error {
	for lang, term := range m {
		if !validLanguageCode(lang) {
			return apperr.Invalidf("%s: %q is not a translation language (%s)", field, lang, strings.Join(Languages, ", "))
		}
		if n := utf8.RuneCountInString(term); n < 1 || n > 255 || strings.ContainsAny(term, "\r\n") {
			return apperr.Invalidf("%s.%s: must be 1 to 255 characters on one line", field, lang)
		}
	}
	return nil
}

func validLanguageCode(l string) bool {
	for _, x := range Languages {
		if x == l {
			return true
		}
	}
	return false
}
