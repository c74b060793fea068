package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"docsd/internal/apperr"
	"docsd/internal/computed"
)

// ComputedType is the computed content source type of translations.
const ComputedType = "builtin:translation"

// ComputedSource is a builtin:translation source resolved for its caller: the translation and
// the revision of its result space whose content the source answers (Revision is "" before
// the translation's first run). For a document source, SourceSpace and Document name the
// document of the source space whose translation is asked for.
type ComputedSource struct {
	Translation Translation
	Space       string // the result space
	Revision    string
	SourceSpace string
	Document    string
}

// translationDependency is dependencies.translation: a reference, and optionally the value
// it was resolved to ({space, revision} of the result, or null before the first run).
type translationDependency struct {
	Ref struct {
		Kind        string `json:"kind"`
		Translation string `json:"translation"`
	} `json:"ref"`
	Value json.RawMessage `json:"value"`
}

// ResolveComputed reads a builtin:translation source (ComputedContentSourceRevisionTranslation
// or ComputedContentSourceDocumentTranslation) for req's caller, who must be a member of the
// organization (not a guest) able to read the translation's result space. A document source
// with no dependencies (as the 0.146.0 API writes it) names its translation by its source
// space (props.space) and its result space (the space of the request). What a source names
// that the caller cannot see or that does not exist is a 400 naming the field.
func (s *Service) ResolveComputed(ctx context.Context, req computed.Request, document bool) (ComputedSource, error) {
	var out ComputedSource
	if document {
		var props struct {
			Space    *string `json:"space"`
			Document *string `json:"document"`
		}
		if err := json.Unmarshal(orEmptyObject(req.Source.Props), &props); err != nil {
			return out, apperr.Invalidf("source.props: must be an object {space, document}")
		}
		switch {
		case props.Space == nil || *props.Space == "":
			return out, apperr.Invalidf("source.props.space: is required (the id of the translated space)")
		case props.Document == nil || *props.Document == "":
			return out, apperr.Invalidf("source.props.document: is required (the id of a document of the translated space)")
		}
		out.SourceSpace, out.Document = *props.Space, *props.Document
	} else {
		var props map[string]json.RawMessage
		if err := json.Unmarshal(orEmptyObject(req.Source.Props), &props); err != nil {
			return out, apperr.Invalidf("source.props: must be an object (empty for a translation)")
		}
		for k := range props {
			return out, apperr.Invalidf("source.props.%s: is not a property of a translation source (props is empty)", k)
		}
	}
	if _, err := s.access(ctx, req.Caller, req.OrgID, false); err != nil {
		if apperr.Is(err, apperr.Forbidden) || apperr.Is(err, apperr.NotFound) {
			return out, apperr.Invalidf("source.dependencies.translation: the organization's translations are not open to you (%v)", err)
		}
		return out, err
	}
	dep, err := parseDependency(req.Source.Dependencies, !document)
	if err != nil {
		return out, err
	}
	if dep != nil {
		t, err := s.store.Get(ctx, req.OrgID, dep.Ref.Translation)
		if errors.Is(err, ErrNotFound) {
			return out, apperr.Invalidf("source.dependencies.translation.ref.translation: the organization has no translation %q", dep.Ref.Translation)
		} else if err != nil {
			return out, err
		}
		out.Translation = t
	} else if out.Translation, err = s.translationInto(ctx, req.OrgID, out.SourceSpace, req.SpaceID); err != nil {
		return out, err
	}
	t := out.Translation
	if document && out.SourceSpace != t.SourceSpace {
		return out, apperr.Invalidf("source.props.space: translation %s translates space %s, not %s", t.ID, t.SourceSpace, out.SourceSpace)
	}
	out.Space, out.Revision = t.ResultSpace, t.ResultRevision
	if dep != nil && len(dep.Value) > 0 && !bytes.Equal(bytes.TrimSpace(dep.Value), []byte("null")) {
		var v struct {
			Space    string `json:"space"`
			Revision string `json:"revision"`
		}
		if err := json.Unmarshal(dep.Value, &v); err != nil || v.Space == "" || v.Revision == "" {
			return out, apperr.Invalidf("source.dependencies.translation.value: must be null or {space, revision} (a TranslationResult)")
		}
		if v.Space != t.ResultSpace {
			return out, apperr.Invalidf("source.dependencies.translation.value.space: the result of translation %s is space %q, not %q", t.ID, t.ResultSpace, v.Space)
		}
		out.Revision = v.Revision
	}
	if out.Space == "" {
		return out, nil
	}
	if _, err := s.spaces.RoleOn(ctx, req.Caller, out.Space); apperr.Is(err, apperr.NotFound) {
		return out, apperr.Invalidf("source.dependencies.translation: the result space of translation %s is gone or out of your reach", t.ID)
	} else if err != nil {
		return out, err
	}
	return out, nil
}

// parseDependency reads dependencies.translation; nil when a document source has none.
func parseDependency(raw json.RawMessage, required bool) (*translationDependency, error) {
	const shape = "source.dependencies: must be {translation: {ref: {kind: translation, translation: <id>}}}"
	var deps struct {
		Translation *translationDependency `json:"translation"`
	}
	if err := json.Unmarshal(orEmptyObject(raw), &deps); err != nil {
		return nil, apperr.Invalidf("%s", shape)
	}
	if deps.Translation == nil {
		if required {
			return nil, apperr.Invalidf("source.dependencies.translation: is required (%s)", shape[len("source.dependencies: must be "):])
		}
		return nil, nil
	}
	if deps.Translation.Ref.Kind != "translation" || deps.Translation.Ref.Translation == "" {
		return nil, apperr.Invalidf("source.dependencies.translation.ref: must be {kind: translation, translation: <id>}")
	}
	return deps.Translation, nil
}

// translationInto is the translation of sourceSpace whose result is resultSpace.
func (s *Service) translationInto(ctx context.Context, orgID, sourceSpace, resultSpace string) (Translation, error) {
	list, err := s.store.BySource(ctx, sourceSpace)
	if err != nil {
		return Translation{}, err
	}
	for _, t := range list {
		if t.OrgID == orgID && t.ResultSpace == resultSpace && resultSpace != "" {
			return t, nil
		}
	}
	return Translation{}, apperr.Invalidf("source.dependencies.translation: is required: no translation of space %s has space %s as its result", sourceSpace, resultSpace)
}

func orEmptyObject(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return json.RawMessage("{}")
	}
	return raw
}
