package computed_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"docsd/internal/apperr"
	"docsd/internal/computed"
	"docsd/internal/markdoc"
)

func TestEmptyRegistryNamesTheSource(t *testing.T) {
	t.Parallel()
	var r computed.Registry
	_, err := r.Document(context.Background(), computed.Request{Source: computed.Source{Type: "builtin:openapi"}, Seed: "s"})
	if apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), `"builtin:openapi"`) || !strings.Contains(err.Error(), "no computed source type yet") {
		t.Errorf("err = %v", err)
	}
	_, err = r.Revision(context.Background(), computed.Request{Seed: "s"})
	if apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), "source.type: is required") {
		t.Errorf("err = %v", err)
	}
}

// A kind added to the registry answers; other types name what is supported.
func TestRegisteredKindAnswers(t *testing.T) {
	t.Parallel()
	var r computed.Registry
	r.RegisterDocument("builtin:example", func(_ context.Context, req computed.Request) (*markdoc.Document, error) {
		return markdoc.ToDocument("Seed " + req.Seed), nil
	})
	r.RegisterRevision("builtin:example", func(context.Context, computed.Request) (computed.Revision, error) {
		return computed.Revision{Pages: []json.RawMessage{json.RawMessage(`{"id":"p"}`)}}, nil
	})
	doc, err := r.Document(context.Background(), computed.Request{Source: computed.Source{Type: "builtin:example"}, Seed: "42"})
	if err != nil || len(doc.Nodes) != 1 {
		t.Fatalf("document: %v, %v", doc, err)
	}
	if rev, err := r.Revision(context.Background(), computed.Request{Source: computed.Source{Type: "builtin:example"}}); err != nil || len(rev.Pages) != 1 {
		t.Fatalf("revision: %v, %v", rev, err)
	}
	_, err = r.Document(context.Background(), computed.Request{Source: computed.Source{Type: "builtin:openapi"}})
	if err == nil || !strings.Contains(err.Error(), "supported: builtin:example") {
		t.Errorf("err = %v", err)
	}
}
