package app

import (
	"context"
	"encoding/json"

	"docsd/internal/apperr"
	"docsd/internal/computed"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/markdoc"
	"docsd/internal/translate"
	"docsd/internal/wire"
)

// translationSource answers builtin:translation computed sources with the translated content:
// the result revision of the translation the source names, read as its caller may read it.
type translationSource struct {
	translations *translate.Service
	content      *content.Service
	urls         wire.URLs
}

func (a *App) registerTranslationSource(r *computed.Registry, urls wire.URLs) {
	ts := translationSource{translations: a.Translations, content: a.Content, urls: urls}
	r.RegisterDocument(translate.ComputedType, ts.document)
	r.RegisterRevision(translate.ComputedType, ts.revision)
}

// result reads the revision of the result space the source answers.
func (ts translationSource) result(ctx context.Context, req computed.Request, src translate.ComputedSource) (*content.Snapshot, error) {
	_, snap, err := ts.content.AtRevision(ctx, req.Caller, src.Space, src.Revision)
	if apperr.Is(err, apperr.NotFound) {
		return nil, apperr.Invalidf("source.dependencies.translation.value.revision: revision %q is not a revision of space %s, the result of translation %s",
			src.Revision, src.Space, src.Translation.ID)
	}
	return snap, err
}

// revision is the result revision's pages (documents with their document), files and reusable
// contents; none before the translation's first run.
func (ts translationSource) revision(ctx context.Context, req computed.Request) (computed.Revision, error) {
	src, err := ts.translations.ResolveComputed(ctx, req, false)
	if err != nil || src.Revision == "" {
		return computed.Revision{}, err
	}
	snap, err := ts.result(ctx, req, src)
	if err != nil {
		return computed.Revision{}, err
	}
	tree, err := ts.content.Tree(ctx, src.Revision)
	if err != nil {
		return computed.Revision{}, err
	}
	opts := markdoc.Options{ReusableContent: snap.ReusableByPath}
	var withDocuments func(pages []wire.Page) error
	withDocuments = func(pages []wire.Page) error {
		for i := range pages {
			p := &pages[i]
			if tp, ok := tree.Pages[p.ID]; ok && tp.Kind == contenttree.KindDocument {
				doc, err := json.Marshal(opts.ToDocument(tp.Markdown))
				if err != nil {
					return err
				}
				p.Document = doc
			}
			if p.Pages != nil {
				if err := withDocuments(*p.Pages); err != nil {
					return err
				}
			}
		}
		return nil
	}
	rev := ts.urls.FromRevision(src.Space, snap)
	if err := withDocuments(rev.Pages); err != nil {
		return computed.Revision{}, err
	}
	var out computed.Revision
	if out.Pages, err = rawEach(rev.Pages); err != nil {
		return out, err
	}
	if out.Files, err = rawEach(rev.Files); err != nil {
		return out, err
	}
	out.ReusableContents, err = rawEach(rev.ReusableContents)
	return out, err
}

// document is the translation of one document of the source space: the same page (or
// reusable content) in the result revision, whose ids a translation keeps.
func (ts translationSource) document(ctx context.Context, req computed.Request) (*markdoc.Document, error) {
	src, err := ts.translations.ResolveComputed(ctx, req, true)
	if err != nil {
		return nil, err
	}
	_, orig, err := ts.content.DocumentByID(ctx, req.Caller, src.SourceSpace, src.Document)
	if apperr.Is(err, apperr.NotFound) {
		return nil, apperr.Invalidf("source.props.document: space %s has no document %q", src.SourceSpace, src.Document)
	} else if err != nil {
		return nil, err
	}
	pageID, reusableID := "", ""
	for id := range orig.Tree.Pages {
		if orig.PageDocumentID(id) == src.Document {
			pageID = id
			break
		}
	}
	if pageID == "" {
		for id := range orig.Tree.ReusableContents {
			if orig.ReusableDocumentID(id) == src.Document {
				reusableID = id
				break
			}
		}
	}
	if src.Revision == "" {
		return nil, apperr.Invalidf("source.dependencies.translation: translation %s has not been run yet (POST /v1/orgs/%s/translations/%s/run)",
			src.Translation.ID, src.Translation.OrgID, src.Translation.ID)
	}
	snap, err := ts.result(ctx, req, src)
	if err != nil {
		return nil, err
	}
	var md string
	switch {
	case pageID != "":
		md, err = ts.content.Markdown(ctx, snap, pageID)
	case reusableID != "":
		var rc contenttree.ReusableContent
		rc, err = ts.content.ReusableContent(ctx, snap, reusableID)
		md = rc.Markdown
	default:
		err = apperr.NotFoundf("document %s holds no page", src.Document)
	}
	if apperr.Is(err, apperr.NotFound) {
		return nil, apperr.Invalidf("source.props.document: document %q of space %s is not translated in revision %s (its translation ran before the document existed: run it again)",
			src.Document, src.SourceSpace, src.Revision)
	} else if err != nil {
		return nil, err
	}
	return markdoc.Options{ReusableContent: snap.ReusableByPath}.ToDocument(md), nil
}

func rawEach[T any](items []T) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(items))
	for _, it := range items {
		raw, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		out = append(out, raw)
	}
	return out, nil
}
