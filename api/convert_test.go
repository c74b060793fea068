package api

import (
	"encoding/json"
	"testing"
)

func TestYAMLToJSONKeepsOrderAndTypes(t *testing.T) {
	src := `
zeta: 1
alpha:
  - true
  - null
  - "007"
  - 1.5
  - plain text
  - "a <b> & c"
"200": { description: OK }
`
	got, err := yamlToJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"zeta":1,"alpha":[true,null,"007",1.5,"plain text","a <b> & c"],"200":{"description":"OK"}}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestYAMLToJSONRefusesAmbiguity(t *testing.T) {
	for name, src := range map[string]string{
		"duplicate key": "a: 1\na: 2\n",
		"two documents": "a: 1\n---\nb: 2\n",
		"not YAML":      "a: [1, 2\n",
	} {
		if out, err := yamlToJSON([]byte(src)); err == nil {
			t.Errorf("%s: converted to %s, want an error", name, out)
		}
	}
}

func TestEmbeddedDocumentConverts(t *testing.T) {
	doc, err := JSON()
	if err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	var v struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatalf("converted document is not JSON: %v", err)
	}
	if v.OpenAPI != "3.0.3" || len(v.Paths) == 0 {
		t.Fatalf("openapi %q with %d paths", v.OpenAPI, len(v.Paths))
	}
}
