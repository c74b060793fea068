package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"docsd/internal/apitest"
)

const groupedDoc = `openapi: 3.0.3
info: {title: Pets, version: "1"}
tags: [{name: pets, description: "Everything about **pets**."}]
paths:
  /pets:
    get: {tags: [pets], summary: List pets, responses: {"200": {description: ok}}}
    post: {tags: [pets], responses: {"201": {description: made}}}
  /health:
    get: {summary: Health check, responses: {"200": {description: ok}}}
components: {schemas: {Pet: {type: object}}}
`

// TestIntegrationOpenAPIComputedGroupingAndDownloadLink computes builtin:openapi revisions
// with grouping by-tag (the default: a page per tag, untagged operations on an "Other" page)
// and by-operation (a page per tag with a page per operation under it), and downloadLink: a
// public spec's pages begin with a link that downloads its file without a token, a private
// spec's pages carry none. Each page's computed source computes its document again.
func TestIntegrationOpenAPIComputedGroupingAndDownloadLink(t *testing.T) {
	e := apitest.New(t)
	e.Post(e.Admin, "/v1/orgs/"+e.Org+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{"text": groupedDoc}}).Expect(201)
	processed(t, e, "pets")
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	revPath := "/v1/spaces/" + sp + "/content/computed/revision"
	docPath := "/v1/spaces/" + sp + "/content/computed/document"
	deps := map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "pets"}}}
	revision := func(props map[string]any) *apitest.Resp {
		return e.Post(e.Admin, revPath, map[string]any{"seed": "seed-1", "source": map[string]any{"type": "builtin:openapi", "props": props, "dependencies": deps}})
	}
	titles := func(pages []any) []string {
		var out []string
		for _, p := range pages {
			out = append(out, p.(map[string]any)["title"].(string))
		}
		return out
	}

	t.Run("by-tag: untagged operations get a page", func(t *testing.T) {
		r := revision(map[string]any{"models": false}).Expect(200)
		pages, _ := r.Get("pages")
		if got := strings.Join(titles(pages.([]any)), ","); got != "pets,Other" {
			t.Fatalf("pages %s, want pets,Other", got)
		}
		if r.Str("pages.1.computed.props.page") != "default" || r.Str("pages.1.computed.props.doc") != "operations" {
			t.Errorf("the Other page's source: %v", r.Map()["pages"].([]any)[1])
		}
		other, _ := r.Get("pages.1.document")
		if s := jsonText(other); !strings.Contains(s, `"path":"/health"`) || strings.Contains(s, `"path":"/pets"`) {
			t.Errorf("the Other page's document: %s", s)
		}
		if strings.Contains(string(r.Body), "Download the OpenAPI specification") {
			t.Error("a download link without downloadLink")
		}
		same := e.Post(e.Admin, revPath, map[string]any{"seed": "seed-1", "source": map[string]any{"type": "builtin:openapi",
			"props": map[string]any{"models": false, "grouping": "by-tag"}, "dependencies": deps}}).Expect(200)
		if string(same.Body) != string(r.Body) {
			t.Error("grouping by-tag differs from the default")
		}
	})

	t.Run("by-operation: a page per operation under its tag", func(t *testing.T) {
		r := revision(map[string]any{"models": true, "grouping": "by-operation"}).Expect(200)
		pages, _ := r.Get("pages")
		if got := strings.Join(titles(pages.([]any)), ","); got != "pets,Other,Models" {
			t.Fatalf("pages %s, want pets,Other,Models", got)
		}
		children, _ := r.Get("pages.0.pages")
		if got := strings.Join(titles(children.([]any)), ","); got != "List pets,POST /pets" {
			t.Fatalf("pets' pages %s, want List pets,POST /pets", got)
		}
		if r.Str("pages.0.computed.props.doc") != "tag" || r.Str("pages.0.pages.1.computed.props.doc") != "operation" ||
			r.Str("pages.0.pages.1.computed.props.page") != "/pets" || r.Str("pages.0.pages.1.computed.props.method") != "post" ||
			r.Str("pages.0.pages.1.path") != "pets/post-pets" {
			t.Errorf("the POST /pets page: %v", children.([]any)[1])
		}
		if tag, _ := r.Get("pages.0.document"); !strings.Contains(jsonText(tag), "pets") {
			t.Errorf("the tag page lacks its description: %s", jsonText(tag))
		}
		health, _ := r.Get("pages.1.pages")
		if got := strings.Join(titles(health.([]any)), ","); got != "Health check" {
			t.Errorf("Other's pages %s, want Health check", got)
		}
		// The page's source computes its document again.
		src, _ := r.Get("pages.0.pages.1.computed")
		again := e.Post(e.Admin, docPath, map[string]any{"seed": "s", "source": src}).Expect(200)
		want, _ := r.Get("pages.0.pages.1.document")
		if jsonText(again.Map()) != jsonText(want) {
			t.Errorf("the operation page's source computes %s, the page holds %s", again.Body, jsonText(want))
		}
		if !strings.Contains(string(again.Body), `"method":"post"`) || strings.Contains(string(again.Body), `"method":"get"`) {
			t.Errorf("operation document: %s", again.Body)
		}
	})

	t.Run("downloadLink follows the spec's visibility", func(t *testing.T) {
		r := revision(map[string]any{"models": true, "downloadLink": true}).Expect(200)
		if strings.Contains(string(r.Body), "Download the OpenAPI specification") {
			t.Errorf("a private spec's pages link its file, which readers cannot download: %s", r.Body)
		}
		pub := e.Patch(e.Admin, specPath(e, "pets"), map[string]any{"visibility": "public"}).Expect(200).Str("urls.published")
		r = revision(map[string]any{"models": true, "downloadLink": true, "grouping": "by-operation"}).Expect(200)
		body := string(r.Body)
		if n := strings.Count(body, "Download the OpenAPI specification"); n != 6 {
			t.Errorf("%d pages link the spec's file, want all 6", n)
		}
		if !strings.Contains(body, pub) || !r.Bool("pages.0.pages.0.computed.props.downloadLink") {
			t.Errorf("the link is not to %s: %.600s", pub, body)
		}
		res, err := http.Get(pub) // a reader, without a token
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || string(got) != groupedDoc {
			t.Errorf("downloading %s: %d %.200s", pub, res.StatusCode, got)
		}
		doc := e.Post(e.Admin, docPath, map[string]any{"seed": "s", "source": map[string]any{"type": "builtin:openapi",
			"props": map[string]any{"doc": "models", "downloadLink": true}, "dependencies": deps}}).Expect(200)
		if !strings.Contains(string(doc.Body), pub) || !strings.Contains(string(doc.Body), `"schemas":["Pet"]`) {
			t.Errorf("models document with downloadLink: %s", doc.Body)
		}
	})

	t.Run("bad props name the field", func(t *testing.T) {
		revision(map[string]any{"models": true, "grouping": "by-page"}).ExpectError(400).ExpectMessage("source.props.grouping", "by-tag", "by-operation")
		revision(map[string]any{"models": true, "downloadLink": "yes"}).ExpectError(400).ExpectMessage("source.props")
		doc := func(props map[string]any) *apitest.Resp {
			return e.Post(e.Admin, docPath, map[string]any{"seed": "s", "source": map[string]any{"type": "builtin:openapi", "props": props, "dependencies": deps}})
		}
		doc(map[string]any{"doc": "operation", "page": "/pets"}).ExpectError(400).ExpectMessage("method")
		doc(map[string]any{"doc": "operation", "page": "/pets", "method": "delete"}).ExpectError(400).ExpectMessage("DELETE /pets")
		doc(map[string]any{"doc": "tag"}).ExpectError(400).ExpectMessage("source.props.page")
	})
}

// jsonText is v as JSON, for comparing answers' parts.
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
