package httpapi_test

import (
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/openapi"
	"docsd/internal/site"
	"docsd/internal/store"
)

const petStoreDoc = `openapi: 3.0.3
info: {title: Pet store, version: "1"}
servers: [{url: "https://pets.example.com/v1"}]
paths:
  /pets/{petId}:
    parameters:
      - {name: petId, in: path, required: true, description: The pet's id, schema: {type: string}}
    post:
      summary: Update a pet
      description: Changes a pet's name or kind.
      parameters:
        - {name: notify, in: query, required: true, schema: {type: string, enum: [owner, nobody]}}
      requestBody:
        content:
          application/json:
            schema: {$ref: "schemas/pet.yaml#/Pet"}
      responses:
        "200":
          description: The pet as changed
          content:
            application/json:
              schema: {$ref: "schemas/pet.yaml#/Pet"}
        "404": {description: No such pet}
components:
  schemas:
    Pet: {$ref: "schemas/pet.yaml#/Pet"}
`

// TestIntegrationOpenAPIReferencePages renders pages that embed an operation and a schema of
// a spec by slug on a published site, and shows a new version of the spec on the next view.
func TestIntegrationOpenAPIReferencePages(t *testing.T) {
	srv := newSpecServer(t, map[string]string{"api/openapi.yaml": petStoreDoc, "api/schemas/pet.yaml": petSchemas})
	e := apitest.New(t)
	e.Post(e.Admin, "/v1/orgs/"+e.Org+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{"url": srv.URL + "/api/openapi.yaml"}}).Expect(201)
	processed(t, e, "pets")

	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "API"})
	md := "# Pets\n\n" +
		"{% openapi-operation spec=\"pets\" path=\"/pets/{petId}\" method=\"post\" %}\n[Pets API](https://pets.example.com)\n{% endopenapi-operation %}\n\n" +
		"{% openapi-schemas spec=\"pets\" schemas=\"Pet\" %}\n[Pet](https://pets.example.com)\n{% endopenapi-schemas %}\n\n" +
		"{% openapi-operation spec=\"absent\" path=\"/x\" method=\"get\" %}\nWritten inside the block.\n{% endopenapi-operation %}\n\n" +
		"{% swagger src=\"" + srv.URL + "/api/openapi.yaml\" path=\"/pets/{petId}\" method=\"post\" %}\n{% swagger-description %}\nOlder block.\n{% endswagger-description %}\n{% endswagger %}\n"
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("home", "", "Pets", "home", md).tree)
	f := newSiteFixture(t, e, site.Public)
	f.siteSpace(f.section("", "API", "api", true, nil), sp, "", true, nil)
	rd := newReader(t, e)

	body := rd.get(f.path("")).expect(t, 200).Body
	for _, want := range []string{
		`openapi-method-post`, `<code>/pets/{petId}</code>`, `Update a pet`, `Changes a pet&#39;s name or kind.`,
		`<code>petId</code>`, `<code>notify</code>`, `openapi-required`, `<code>owner</code>, <code>nobody</code>`,
		`Request body`, `<code>name</code> <span class="openapi-type">string</span> <span class="openapi-required">required</span>`,
		`<code>cat</code>, <code>dog</code>`, `<code>200</code> The pet as changed`, `<code>404</code> No such pet`,
		`curl -X POST &#39;https://pets.example.com/v1/pets/{petId}?notify=owner&#39;`, `&#34;kind&#34;: &#34;cat&#34;`,
		`The Pet object`, `Written inside the block.`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := strings.Count(body, `openapi-method-post`); n != 2 {
		t.Errorf("%d operations rendered, want 2 (the older swagger block's by its source URL)", n)
	}
	if strings.Contains(body, "Pets API") || strings.Contains(body, "Older block.") {
		t.Error("the text written inside a rendered block shows beside the reference")
	}
	if strings.Contains(body, "Years since birth") {
		t.Fatal("a property of no version yet shows")
	}

	srv.set("api/schemas/pet.yaml", petSchemas+"    age: {type: integer, description: Years since birth}\n")
	e.Put(e.Admin, "/v1/orgs/"+e.Org+"/openapi/pets", map[string]any{"source": map[string]any{"url": srv.URL + "/api/openapi.yaml"}}).Expect(200)
	processed(t, e, "pets")
	body = rd.get(f.path("")).expect(t, 200).Body
	if !strings.Contains(body, "Years since birth") {
		t.Error("the spec's new version does not show on the next view")
	}
}

// TestIntegrationOpenAPIComputedDocuments computes builtin:openapi documents: a tag's
// operations, the spec's info and its models, as the blocks a written page would hold.
func TestIntegrationOpenAPIComputedDocuments(t *testing.T) {
	e := apitest.New(t)
	doc := `openapi: 3.1.0
info: {title: Pets, version: "1", description: "All about **pets**."}
paths:
  /pets:
    get: {tags: [pets], responses: {"200": {description: ok}}}
    post: {tags: [pets], responses: {"201": {description: made}}}
  /owners:
    get: {tags: [owners], responses: {"200": {description: ok}}}
components:
  schemas:
    Pet: {type: object}
    Owner: {type: object}
`
	e.Post(e.Admin, "/v1/orgs/"+e.Org+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{"text": doc}}).Expect(201)
	processed(t, e, "pets")
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	path := "/v1/spaces/" + sp + "/content/computed/document"
	source := func(props map[string]any, slug string) map[string]any {
		return map[string]any{"seed": "s", "source": map[string]any{"type": "builtin:openapi", "props": props,
			"dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": slug}}}}}
	}
	ops := string(e.Post(e.Admin, path, source(map[string]any{"doc": "operations", "page": "pets"}, "pets")).Expect(200).Body)
	for _, want := range []string{`"type":"openapi-operation"`, `"path":"/pets","ref":{"kind":"openapi","spec":"pets"}`, `"method":"post"`} {
		if !strings.Contains(ops, want) {
			t.Errorf("operations document lacks %s: %s", want, ops)
		}
	}
	if strings.Contains(ops, "/owners") {
		t.Errorf("another tag's operation shows: %s", ops)
	}
	models := string(e.Post(e.Admin, path, source(map[string]any{"doc": "models"}, "pets")).Expect(200).Body)
	if !strings.Contains(models, `"schemas":["Owner","Pet"]`) {
		t.Errorf("models document: %s", models)
	}
	info := string(e.Post(e.Admin, path, source(map[string]any{"doc": "info", "page": "x"}, "pets")).Expect(200).Body)
	if !strings.Contains(info, `pets`) || !strings.Contains(info, `"type":"bold"`) {
		t.Errorf("info document: %s", info)
	}
	e.Post(e.Admin, path, source(map[string]any{"doc": "operations"}, "pets")).ExpectError(400).ExpectMessage("source.props.page")
	e.Post(e.Admin, path, source(map[string]any{"doc": "other", "page": "x"}, "pets")).ExpectError(400)
	e.Post(e.Admin, path, source(map[string]any{"doc": "models"}, "absent")).ExpectError(400).ExpectMessage("absent")
}

// TestIntegrationOpenAPIComputedRevision computes a builtin:openapi revision: a page per tag
// with its operations, and one of models, each with the source that computes it again.
func TestIntegrationOpenAPIComputedRevision(t *testing.T) {
	e := apitest.New(t)
	doc := `openapi: 3.0.3
info: {title: Pets, version: "1"}
tags: [{name: pets}, {name: owners}]
paths:
  /pets: {get: {tags: [pets], responses: {"200": {description: ok}}}}
  /owners: {get: {tags: [owners], responses: {"200": {description: ok}}}}
  /stores: {get: {tags: [Stores], responses: {"200": {description: ok}}}}
components: {schemas: {Pet: {type: object}}}
`
	e.Post(e.Admin, "/v1/orgs/"+e.Org+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{"text": doc}}).Expect(201)
	processed(t, e, "pets")
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	path := "/v1/spaces/" + sp + "/content/computed/revision"
	deps := map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "pets"}}}
	body := func(models any) map[string]any {
		return map[string]any{"seed": "seed-1", "source": map[string]any{"type": "builtin:openapi", "props": map[string]any{"models": models}, "dependencies": deps}}
	}
	r := e.Post(e.Admin, path, body(true)).Expect(200)
	pages, _ := r.Get("pages")
	var titles, ids []string
	for _, p := range pages.([]any) {
		m := p.(map[string]any)
		titles = append(titles, m["title"].(string))
		ids = append(ids, m["id"].(string))
	}
	if strings.Join(titles, ",") != "pets,owners,Stores,Models" {
		t.Fatalf("pages %v, want pets, owners, Stores, Models", titles)
	}
	if r.Str("pages.0.computed.props.page") != "pets" || !strings.Contains(string(r.Body), `"path":"/pets"`) {
		t.Errorf("the pets page: %s", r.Body)
	}
	again := e.Post(e.Admin, path, body(false)).Expect(200)
	if again.Str("pages.0.id") != ids[0] {
		t.Errorf("the same seed gave another id: %s vs %s", again.Str("pages.0.id"), ids[0])
	}
	if n, _ := again.Get("pages"); len(n.([]any)) != 3 {
		t.Errorf("without models: %d pages, want 3", len(n.([]any)))
	}
	e.Post(e.Admin, path, map[string]any{"seed": "s", "source": map[string]any{"type": "builtin:openapi", "props": map[string]any{}, "dependencies": deps}}).
		ExpectError(400).ExpectMessage("source.props.models")
}

// TestIntegrationOpenAPIOlderBlockMakesASpec imports a page with the older
// {% swagger src="…" %} block: its URL becomes a spec of the organization (once, however
// often the content changes), which is processed and renders the block on the published page.
func TestIntegrationOpenAPIOlderBlockMakesASpec(t *testing.T) {
	srv := newSpecServer(t, map[string]string{"api/openapi.yaml": petStoreDoc, "api/schemas/pet.yaml": petSchemas})
	e := apitest.New(t)
	src := srv.URL + "/api/openapi.yaml"
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "API"})
	md := "# Pets\n\n{% swagger src=\"" + src + "\" path=\"/pets/{petId}\" method=\"post\" %}\n{% swagger-description %}\nWritten by hand.\n{% endswagger-description %}\n{% endswagger %}\n"
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("home", "", "Pets", "home", md).tree)
	e.RunDue()
	specs := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/openapi").Expect(200).Items()
	if len(specs) != 1 || specs[0]["sourceURL"] != src || specs[0]["slug"] != "127-0-0-1-openapi" {
		t.Fatalf("specs after the import: %v", specs)
	}
	if r := processed(t, e, "127-0-0-1-openapi"); r.Str("lastVersion") == "" {
		t.Fatalf("the spec was not processed: %v", r.Map())
	}
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("home", "", "Pets", "home", md+"\nMore.\n").tree)
	e.RunDue()
	if n := len(e.Get(e.Admin, "/v1/orgs/"+e.Org+"/openapi").Expect(200).Items()); n != 1 {
		t.Errorf("%d specs after another change, want 1", n)
	}
	f := newSiteFixture(t, e, site.Public)
	f.siteSpace(f.section("", "API", "api", true, nil), sp, "", true, nil)
	body := newReader(t, e).get(f.path("")).expect(t, 200).Body
	if !strings.Contains(body, "openapi-method-post") || strings.Contains(body, "Written by hand.") {
		t.Errorf("the older block does not render from the spec: %.2000s", body)
	}
}

// The OpenAPI sources consumer, having made a spec for an older block's URL and died before
// its cursor moved, sees the change again: the second pass makes no second spec.
func TestOutboxOpenAPISourcesConsumerAfterACrashBeforeTheCursorMoved(t *testing.T) {
	srv := newSpecServer(t, map[string]string{"api/openapi.yaml": petStoreDoc, "api/schemas/pet.yaml": petSchemas})
	e := apitest.New(t)
	src := srv.URL + "/api/openapi.yaml"
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "API"})
	e.RunDue()
	e.App.Outbox.Stop()
	md := "# Pets\n\n{% swagger src=\"" + src + "\" path=\"/pets/{petId}\" method=\"post\" %}\n{% swagger-description %}\nWritten by hand.\n{% endswagger-description %}\n{% endswagger %}\n"
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("home", "", "Pets", "home", md).tree)
	ctx := t.Context()
	claim, ok, err := store.Outbox{DB: e.App.DB}.ClaimEvents(ctx, openapi.SourcesConsumer, "crashed", e.Clock.Now(), time.Minute, 100)
	if err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if err := e.App.OpenAPI.HandleHeadMoves(e.App.Content)(ctx, claim.Events()); err != nil {
		t.Fatal(err)
	}
	first := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/openapi").Expect(200).Items()
	if len(first) != 1 || first[0]["sourceURL"] != src {
		t.Fatalf("specs after the first pass: %v", first)
	}
	if apitest.Engine() == "postgres" {
		claim.Release()
	} else {
		e.Clock.Advance(2 * time.Minute)
	}
	e.RunDue()
	if got := outboxMetric(t, e, "docsd_outbox_pending_events", openapi.SourcesConsumer); got != 0 {
		t.Errorf("%v events pending after the second pass", got)
	}
	again := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/openapi").Expect(200).Items()
	if len(again) != 1 || again[0]["id"] != first[0]["id"] {
		t.Errorf("specs after the second pass: %v, want the first pass's one: %v", again, first)
	}
}
