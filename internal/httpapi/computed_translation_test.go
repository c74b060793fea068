package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func translationSource(id string, value any) map[string]any {
	dep := map[string]any{"ref": map[string]any{"kind": "translation", "translation": id}}
	if value != "" {
		dep["value"] = value
	}
	return map[string]any{"type": "builtin:translation", "props": map[string]any{},
		"dependencies": map[string]any{"translation": dep}}
}

// getComputedRevision and getComputedDocument with a builtin:translation source answer the
// translated content: the translation's result revision, and one document's translation.
func TestComputedTranslationContent(t *testing.T) {
	stand := &chatStandIn{t: t}
	e := apitest.NewWithConfig(t, useModel(t, stand))
	src := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Guide"})
	replaceContent(t, e, e.Admin, src, sourceTree())
	e.RunDue()
	base := "/v1/orgs/" + e.Org + "/translations"
	id := e.Post(e.Admin, base, map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "fr",
		"autoRun": false}).Expect(201).Str("id")
	// A translation not run yet: no content, and no document.
	idle := e.Post(e.Admin, base, map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "de",
		"autoRun": false}).Expect(201).Str("id")
	e.Post(e.Admin, base+"/"+id+"/run", nil).Expect(204)
	tr := waitForRuns(t, e, base+"/"+id, 1)
	result, resultRev := tr.Str("result.space"), tr.Str("result.revision")
	if result == "" || resultRev == "" {
		t.Fatalf("translation after its run: %s", tr.Body)
	}
	doc := e.Get(e.Admin, "/v1/spaces/"+src+"/content/page/p1").Expect(200).Str("documentId")
	if doc == "" {
		t.Fatal("page p1 of the source has no documentId")
	}
	rev := "/v1/spaces/" + result + "/content/computed/revision"
	document := "/v1/spaces/" + result + "/content/computed/document"

	t.Run("the revision is the translated content", func(t *testing.T) {
		for name, value := range map[string]any{"a reference": "", "a resolved value": map[string]any{"space": result, "revision": resultRev}, "a null value": nil} {
			r := e.Post(e.Admin, rev, map[string]any{"source": translationSource(id, value), "seed": "s1"}).Expect(200)
			if r.Str("pages.0.id") != "p1" || r.Str("pages.0.title") != "ES Getting started" || r.Str("pages.0.pages.0.id") != "p3" ||
				r.Str("pages.1.title") != "ES Configuration" || !r.Has("files") || !r.Has("reusableContents") {
				t.Fatalf("%s: %s", name, r.Body)
			}
			p1, _ := r.Get("pages.0.document")
			raw, _ := json.Marshal(p1)
			if got := string(raw); !strings.Contains(got, "ES Getting started") || !strings.Contains(got, `do not translate this`) {
				t.Fatalf("%s: the document of p1: %s", name, got)
			}
		}
		// In any space of the organization the caller can read, not only the result.
		e.Post(e.Admin, "/v1/spaces/"+src+"/content/computed/revision", map[string]any{"source": translationSource(id, ""), "seed": "s"}).Expect(200)
		r := e.Post(e.Admin, rev, map[string]any{"source": translationSource(idle, ""), "seed": "s"}).Expect(200)
		if pages, _ := r.Map()["pages"].([]any); len(pages) != 0 || !r.Has("pages") {
			t.Fatalf("a translation never run: %s", r.Body)
		}
	})
	t.Run("a document is its translation", func(t *testing.T) {
		props := map[string]any{"space": src, "document": doc}
		withDep := translationSource(id, "")
		withDep["props"] = props
		for name, source := range map[string]any{"with its translation": withDep,
			"found by its source and result spaces": map[string]any{"type": "builtin:translation", "props": props}} {
			r := e.Post(e.Admin, document, map[string]any{"source": source, "seed": "s"}).Expect(200)
			if body := string(r.Body); !strings.Contains(body, "ES Getting started") || !strings.Contains(body, `"object":"document"`) {
				t.Fatalf("%s: %s", name, body)
			}
		}
		// Only the result space names the translation when the source does not.
		e.Post(e.Admin, "/v1/spaces/"+src+"/content/computed/document", map[string]any{"source": map[string]any{"type": "builtin:translation", "props": props}, "seed": "s"}).
			Expect(400).ExpectMessage("source.dependencies.translation", "no translation of space")
		idleDep := translationSource(idle, "")
		idleDep["props"] = props
		e.Post(e.Admin, document, map[string]any{"source": idleDep, "seed": "s"}).Expect(400).ExpectMessage("has not been run yet")
		other := translationSource(id, "")
		other["props"] = map[string]any{"space": result, "document": doc}
		e.Post(e.Admin, document, map[string]any{"source": other, "seed": "s"}).Expect(400).ExpectMessage("source.props.space", "translates space "+src)
		unknown := translationSource(id, "")
		unknown["props"] = map[string]any{"space": src, "document": "nope"}
		e.Post(e.Admin, document, map[string]any{"source": unknown, "seed": "s"}).Expect(400).ExpectMessage("source.props.document", `"nope"`)
		e.Post(e.Admin, document, map[string]any{"source": map[string]any{"type": "builtin:translation", "props": map[string]any{"space": src}}, "seed": "s"}).
			Expect(400).ExpectMessage("source.props.document")
	})
	t.Run("refusals name the field", func(t *testing.T) {
		e.Post(e.Admin, rev, map[string]any{"source": translationSource("nope", ""), "seed": "s"}).Expect(400).ExpectMessage("source.dependencies.translation.ref.translation", `"nope"`)
		e.Post(e.Admin, rev, map[string]any{"source": map[string]any{"type": "builtin:translation", "props": map[string]any{}}, "seed": "s"}).
			Expect(400).ExpectMessage("source.dependencies.translation", "required")
		bad := translationSource(id, map[string]any{"space": result, "revision": "nope"})
		e.Post(e.Admin, rev, map[string]any{"source": bad, "seed": "s"}).Expect(400).ExpectMessage("source.dependencies.translation.value.revision", `"nope"`)
		elsewhere := translationSource(id, map[string]any{"space": src, "revision": resultRev})
		e.Post(e.Admin, rev, map[string]any{"source": elsewhere, "seed": "s"}).Expect(400).ExpectMessage("source.dependencies.translation.value.space")
		extra := translationSource(id, "")
		extra["props"] = map[string]any{"models": true}
		e.Post(e.Admin, rev, map[string]any{"source": extra, "seed": "s"}).Expect(400).ExpectMessage("source.props.models")
		e.Post(e.NewUser("outsider"), rev, map[string]any{"source": translationSource(id, ""), "seed": "s"}).Expect(404)
		// A member who may read the space but not the organization's translations (a guest).
		guest := e.Member("guest", auth.Guest)
		grant(t, e, e.Admin, "/v1/spaces/"+result, "read", []string{guest.ID}, nil)
		e.Post(guest, rev, map[string]any{"source": translationSource(id, ""), "seed": "s"}).Expect(400).ExpectMessage("source.dependencies.translation")
	})
}
