package openapi

import (
	"strings"
	"testing"
)

func TestContentHashIgnoresFormatting(t *testing.T) {
	yamlDoc := map[string]string{"openapi.yaml": "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n"}
	jsonDoc := map[string]string{"openapi.yaml": `{"paths": {}, "info": {"version": "1", "title": "T"}, "openapi": "3.0.3"}`}
	changed := map[string]string{"openapi.yaml": "openapi: 3.0.3\ninfo: {title: T, version: '2'}\npaths: {}\n"}
	a, err := contentHash(yamlDoc)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := contentHash(jsonDoc)
	c, _ := contentHash(changed)
	if a != b {
		t.Error("the same document in JSON and YAML hashes differently")
	}
	if a == c {
		t.Error("a changed document hashes the same")
	}
}

func TestDecodeFileNamesTheLocation(t *testing.T) {
	_, p := decodeFile("spec.json", []byte("{\n  \"openapi\": \"3.1.0\",\n  \"info\": {,}\n}"))
	if p == nil || !strings.HasPrefix(p.Message, "spec.json:3:") {
		t.Errorf("JSON error %+v, want spec.json:3:<column>", p)
	}
	_, p = decodeFile("spec.yaml", []byte("a: 1\ninfo:\n  title: x\n   bad: 1\n"))
	if p == nil || !strings.Contains(p.Message, "spec.yaml") || !strings.Contains(p.Message, "line 4") {
		t.Errorf("YAML error %+v, want spec.yaml and line 4", p)
	}
	tree, p := decodeFile("r.yaml", []byte("responses:\n  200: {description: ok}\n"))
	if p != nil || tree.(map[string]any)["responses"].(map[string]any)["200"] == nil {
		t.Errorf("integer keys are not read as strings: %v %v", tree, p)
	}
}

func TestRelativeTarget(t *testing.T) {
	for _, c := range []struct{ from, ref, want string }{
		{"openapi.yaml", "schemas/pet.yaml", "schemas/pet.yaml"},
		{"paths/pets.yaml", "../schemas/pet.yaml", "schemas/pet.yaml"},
		{"openapi.yaml", "./a.json", "a.json"},
	} {
		if got, err := relativeTarget(c.from, c.ref); err != nil || got != c.want {
			t.Errorf("%s from %s: %q, %v; want %q", c.ref, c.from, got, err, c.want)
		}
	}
	for _, ref := range []string{"../x.yaml", "https://other.example/x.yaml", "//other.example/x.yaml", "/etc/passwd"} {
		if _, err := relativeTarget("openapi.yaml", ref); err == nil {
			t.Errorf("%s was followed", ref)
		}
	}
}

const swaggerPets = `swagger: "2.0"
info: {title: Pets, version: "1"}
host: pets.example.com
basePath: /v2
schemes: [https]
paths:
  /pets:
    post:
      summary: Add a pet
      parameters:
        - {name: body, in: body, required: true, schema: {$ref: "#/definitions/Pet"}}
        - {name: X-Trace, in: header, required: true, type: string}
      responses:
        201: {description: Added, schema: {$ref: "#/definitions/Pet"}}
definitions:
  Pet:
    type: object
    required: [name]
    properties:
      name: {type: string, example: Rex}
      tags: {type: array, items: {type: string, enum: [small, big]}}
`

func TestOperationHTMLSwagger2(t *testing.T) {
	v := Version{Entry: "swagger.yaml", Files: map[string]string{"swagger.yaml": swaggerPets}}
	if problems := validate(v.Files, v.Entry); len(problems) > 0 {
		t.Fatalf("the fixture does not validate: %v", problems)
	}
	html, ok := OperationHTML(v, "/pets", "POST")
	if !ok {
		t.Fatal("operation not found")
	}
	for _, want := range []string{
		`openapi-method-post`, `<code>/pets</code>`, `Add a pet`, `Request body`, `<code>X-Trace</code>`,
		`<code>name</code> <span class="openapi-type">string</span> <span class="openapi-required">required</span>`,
		`array of string`, `<code>small</code>, <code>big</code>`, `<code>201</code> Added`,
		`curl -X POST &#39;https://pets.example.com/v2/pets&#39;`, `-H &#39;X-Trace: text&#39;`, `&#34;name&#34;: &#34;Rex&#34;`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("lacks %q in %s", want, html)
		}
	}
	if strings.Contains(html, "<td><code>body</code>") {
		t.Error("the body parameter shows as a parameter")
	}
	if _, ok := OperationHTML(v, "/pets", "delete"); ok {
		t.Error("an absent operation rendered")
	}
	schemas, ok := SchemasHTML(v, []string{"Pet", "Nope"})
	if !ok || !strings.Contains(schemas, "The Pet object") || strings.Contains(schemas, "Nope") {
		t.Errorf("schemas: %v %s", ok, schemas)
	}
}

func TestValidateReportsBrokenReferences(t *testing.T) {
	doc := "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content: {application/json: {schema: {$ref: '#/components/schemas/Missing'}}}\n"
	problems := validate(map[string]string{"openapi.yaml": doc}, "openapi.yaml")
	if len(problems) == 0 {
		t.Fatal("a reference to a missing schema passed")
	}
	if want := `openapi.yaml: at /paths/~1a/get/responses/200/content/application~1json/schema/$ref: "#/components/schemas/Missing" points at nothing`; problems[0].Message != want {
		t.Errorf("problems %v do not name the reference", problems)
	}
}

func TestWebhookHTML(t *testing.T) {
	doc := `{"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
  "webhooks": {"newPet": {"post": {"summary": "A pet was added", "requestBody": {"content": {"application/json":
    {"schema": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}}}},
    "responses": {"200": {"description": "Received"}}}}}}`
	v := Version{Entry: "openapi.json", Files: map[string]string{"openapi.json": doc}}
	html, ok := WebhookHTML(v, "newPet", "POST")
	if !ok || !strings.Contains(html, "A pet was added") || !strings.Contains(html, "<code>id</code> <span class=\"openapi-type\">integer</span> <span class=\"openapi-required\">required</span>") {
		t.Errorf("webhook: %v %s", ok, html)
	}
	if strings.Contains(html, "curl") {
		t.Error("a webhook has a sample request")
	}
	if _, ok := WebhookHTML(v, "gone", "post"); ok {
		t.Error("an absent webhook rendered")
	}
}

func TestSourceURLsAndSlugs(t *testing.T) {
	md := "{% swagger src=\"https://api.example.com/v1/openapi.json\" path=\"/a\" method=\"get\" %}\n{% endswagger %}\n" +
		"{% openapi src=\"./local.yaml\" path=\"/a\" method=\"get\" %}{% endopenapi %}\n" +
		"{% openapi method=\"get\" src=\"http://x.test/spec.yaml\" path=\"/b\" %}\n`{% swagger src=\"ftp://no\" %}`"
	got := SourceURLs(md)
	if strings.Join(got, " ") != "https://api.example.com/v1/openapi.json http://x.test/spec.yaml" {
		t.Errorf("source URLs %v", got)
	}
	for url, want := range map[string]string{
		"https://api.example.com/v1/openapi.json":              "api-example-com-openapi",
		"http://127.0.0.1:8080/":                               "127-0-0-1",
		"https://h.test/" + strings.Repeat("a", 200) + ".yaml": ("h-test-" + strings.Repeat("a", 200))[:SlugMax],
	} {
		if got := slugFromURL(url); got != want || CheckSlug(got) != nil {
			t.Errorf("slug of %s: %q, want %q", url, got, want)
		}
	}
}
