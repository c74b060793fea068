package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/site"
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
		"{% openapi-operation spec=\"absent\" path=\"/x\" method=\"get\" %}\nWritten inside the block.\n{% endopenapi-operation %}\n"
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
	if strings.Contains(body, "Pets API") {
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
