package apispec

import (
	"os"
	"strings"
	"testing"
)

// testDoc is a small OpenAPI 3.0 document with one case for each rule of the judge.
const testDoc = `{
  "openapi": "3.0.3",
  "servers": [{"url": "{host}/v1"}],
  "paths": {
    "/things/{thingId}": {
      "get": {"operationId": "getThing", "responses": {
        "200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
        "404": {"$ref": "#/components/responses/NotFound"}}},
      "delete": {"operationId": "deleteThing", "responses": {"204": {"description": "deleted"}}}
    },
    "/things/special": {
      "get": {"operationId": "getSpecialThing", "responses": {"200": {"description": "ok",
        "content": {"application/json": {"schema": {"type": "object", "required": ["special"], "properties": {"special": {"type": "boolean"}}}}}}}}
    },
    "/shapes": {
      "post": {"operationId": "createShape", "responses": {"201": {"description": "made",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Shape"}}}}}}
    }
  },
  "components": {
    "responses": {"NotFound": {"description": "nf", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}},
    "schemas": {
      "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "object", "required": ["code", "message"],
        "properties": {"code": {"type": "integer", "format": "int32"}, "message": {"type": "string"}}}}},
      "Thing": {"type": "object", "required": ["id", "createdAt", "parent"], "example": {"id": "x"},
        "properties": {
          "id": {"type": "string", "x-internal": true},
          "createdAt": {"type": "string", "format": "date-time"},
          "parent": {"nullable": true, "allOf": [{"$ref": "#/components/schemas/Thing"}]},
          "label": {"type": "string", "nullable": true, "deprecated": true},
          "any": {}
        }},
      "Shape": {"oneOf": [
        {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string", "enum": ["square"]}, "side": {"type": "number"}}},
        {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}}},
        {"type": "object", "properties": {}, "additionalProperties": false}
      ], "discriminator": {"propertyName": "kind"}}
    }
  }
}`

func parseTestDoc(t *testing.T) *Doc {
	t.Helper()
	d, err := Parse("test", []byte(testDoc))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// judge judges an answer and returns its violations joined, "" when it passes.
func judge(t *testing.T, d *Doc, method, path string, status int, body string) string {
	t.Helper()
	op := d.Find(method, path)
	if op == nil {
		t.Fatalf("no operation for %s %s", method, path)
	}
	ct := ""
	if body != "" {
		ct = "application/json; charset=utf-8"
	}
	var msgs []string
	for _, v := range op.Judge(Answer{Method: method, Path: path, Status: status, ContentType: ct, Body: []byte(body)}) {
		msgs = append(msgs, v.Message)
	}
	return strings.Join(msgs, "\n")
}

const goodThing = `{"id":"a","createdAt":"2026-01-02T03:04:05Z","parent":null}`

func TestJudge(t *testing.T) {
	d := parseTestDoc(t)
	cases := []struct {
		name, method, path string
		status             int
		body               string
		want               string // a fragment of the violation; "" for none
	}{
		{"valid answer passes", "GET", "/v1/things/a", 200, goodThing, ""},
		{"undeclared success status", "GET", "/v1/things/a", 201, goodThing, "status 201 is not declared (declared: 200, 404)"},
		{"undeclared generic error passes with the error body", "GET", "/v1/things/a", 403, `{"error":{"code":403,"message":"no"}}`, ""},
		{"undeclared unusual error status", "GET", "/v1/things/a", 418, `{"error":{"code":418,"message":"tea"}}`, "status 418 is not declared"},
		{"error code differs from the status", "GET", "/v1/things/a", 404, `{"error":{"code":400,"message":"x"}}`, "/error/code is 400, want the status 404"},
		{"error body without the envelope", "GET", "/v1/things/a", 401, `{"message":"x"}`, "error body is not"},
		{"missing required field", "GET", "/v1/things/a", 200, `{"id":"a","parent":null}`, "at /: missing property 'createdAt' (rule /$defs/Thing)"},
		{"nullable allows null", "GET", "/v1/things/a", 200, `{"id":"a","createdAt":"2026-01-02T03:04:05Z","parent":null,"label":null}`, ""},
		{"null where not nullable", "GET", "/v1/things/a", 200, `{"id":null,"createdAt":"2026-01-02T03:04:05Z","parent":null}`, "at /id:"},
		{"recursive reference is followed", "GET", "/v1/things/a", 200, `{"id":"a","createdAt":"2026-01-02T03:04:05Z","parent":{"id":"b","createdAt":"x","parent":null}}`, "at /parent/createdAt:"},
		{"date-time format asserted", "GET", "/v1/things/a", 200, `{"id":"a","createdAt":"yesterday","parent":null}`, "at /createdAt: 'yesterday' is not valid date-time"},
		{"empty schema accepts anything", "GET", "/v1/things/a", 200, `{"id":"a","createdAt":"2026-01-02T03:04:05Z","parent":null,"any":[1,{"x":null}]}`, ""},
		{"no-content status with a body", "DELETE", "/v1/things/a", 204, `{"deleted":true}`, "204 declares no content, but the answer has a body"},
		{"no-content status without a body", "DELETE", "/v1/things/a", 204, "", ""},
		{"content status without a body", "GET", "/v1/things/a", 200, "", "declares content (application/json), but the answer has no body"},
		{"overlapping oneOf variants are anyOf", "POST", "/v1/shapes", 201, `{"kind":"square","side":2}`, ""},
		{"empty object variant accepts any object", "POST", "/v1/shapes", 201, `{"side":2}`, ""},
		{"no variant matches", "POST", "/v1/shapes", 201, `["square"]`, "at /: got array, want object"},
		{"literal path segment wins over a parameter", "GET", "/v1/things/special", 200, `{"special":true}`, ""},
		{"literal path segment's schema applies", "GET", "/v1/things/special", 200, goodThing, "missing property 'special'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := judge(t, d, c.method, c.path, c.status, c.body)
			switch {
			case c.want == "" && got != "":
				t.Errorf("want no violation, got:\n%s", got)
			case c.want != "" && !strings.Contains(got, c.want):
				t.Errorf("want a violation with %q, got:\n%s", c.want, got)
			}
		})
	}
}

func TestViolationNamesOperationPathStatusAndPointer(t *testing.T) {
	d := parseTestDoc(t)
	got := judge(t, d, "GET", "/v1/things/a", 200, `{"id":1,"createdAt":"2026-01-02T03:04:05Z","parent":null}`)
	for _, want := range []string{"test getThing (GET /v1/things/a) answered 200", "at /id:", "rule /$defs/Thing/properties/id"} {
		if !strings.Contains(got, want) {
			t.Errorf("message %q lacks %q", got, want)
		}
	}
}

func TestFind(t *testing.T) {
	d := parseTestDoc(t)
	for path, want := range map[string]string{
		"/v1/things/a":       "getThing",
		"/v1/things/special": "getSpecialThing",
		"/v1/things":         "",
		"/v1/things/a/b":     "",
		"/things/a":          "",
	} {
		got := ""
		if op := d.Find("GET", path); op != nil {
			got = op.ID
		}
		if got != want {
			t.Errorf("Find(GET %s) = %q, want %q", path, got, want)
		}
	}
}

func TestOpenAPI31NullTypes(t *testing.T) {
	doc := strings.Replace(testDoc, `"openapi": "3.0.3"`, `"openapi": "3.1.0"`, 1)
	doc = strings.Replace(doc, `"label": {"type": "string", "nullable": true, "deprecated": true}`, `"label": {"type": ["string", "null"]}`, 1)
	doc = strings.Replace(doc, `"parent": {"nullable": true, "allOf": [{"$ref": "#/components/schemas/Thing"}]}`,
		`"parent": {"anyOf": [{"$ref": "#/components/schemas/Thing"}, {"type": "null"}]}`, 1)
	d, err := Parse("test31", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if got := judge(t, d, "GET", "/v1/things/a", 200, `{"id":"a","createdAt":"2026-01-02T03:04:05Z","parent":null,"label":null}`); got != "" {
		t.Errorf("want no violation, got %s", got)
	}
	if got := judge(t, d, "GET", "/v1/things/a", 200, `{"id":"a","createdAt":"2026-01-02T03:04:05Z","parent":null,"label":3}`); !strings.Contains(got, "at /label:") {
		t.Errorf("want a violation at /label, got %q", got)
	}
}

// TestPublicSpecsCompile converts and compiles every response schema of the public specs
// the suite judges by, so a version bump that brings a schema the judge cannot read fails
// here rather than in the middle of another test.
func TestPublicSpecsCompile(t *testing.T) {
	for _, v := range PublicVersions {
		d, err := Public(v)
		if err != nil {
			if os.Getenv("DOCSD_TEST_PUBLIC_SPEC") == "required" {
				t.Fatal(err)
			}
			t.Skipf("public spec unavailable (set DOCSD_TEST_PUBLIC_SPEC=required to fail instead): %v", err)
		}
		n := 0
		for _, op := range d.Operations() {
			for status, r := range op.Responses {
				for mt, name := range r.Content {
					if name == "" {
						continue
					}
					n++
					if _, err := d.schema(name); err != nil {
						t.Errorf("%s %s %s %s: %v", v, op.ID, status, mt, err)
					}
				}
			}
		}
		if n < 300 {
			t.Errorf("%s: only %d response schemas", v, n)
		}
	}
}
