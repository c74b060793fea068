package markdoc_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"docsd/internal/markdoc"
	"docsd/internal/richtext"
)

// outline renders a document as indented lines, one per node, for readable expectations:
//
//	paragraph
//	  text "Hello "[] "world"[bold]
//	  link {"ref":{"kind":"url","url":"x"}}
//
// Keys are left out (keys_test.go checks them); data is shown as compact JSON when not empty.
func outline(d *markdoc.Document) string {
	var b strings.Builder
	for _, n := range d.Nodes {
		writeOutline(&b, n, 0)
	}
	return b.String()
}

func writeOutline(b *strings.Builder, n *markdoc.Node, depth int) {
	indent := strings.Repeat("  ", depth)
	if n.Object == markdoc.ObjectText {
		var parts []string
		for _, l := range n.Leaves {
			var marks []string
			for _, m := range l.Marks {
				marks = append(marks, m.Type)
			}
			parts = append(parts, fmt.Sprintf("%q[%s]", l.Text, strings.Join(marks, " ")))
		}
		fmt.Fprintf(b, "%stext %s\n", indent, strings.Join(parts, " "))
		return
	}
	line := indent + n.Type
	if len(n.Data) > 0 {
		data, _ := json.Marshal(n.Data)
		line += " " + string(data)
	}
	if len(n.Meta) > 0 {
		meta, _ := json.Marshal(n.Meta)
		line += " meta=" + string(meta)
	}
	b.WriteString(line + "\n")
	for _, c := range n.Nodes {
		writeOutline(b, c, depth+1)
	}
	for _, f := range n.Fragments {
		fmt.Fprintf(b, "%s  #%s\n", indent, f.Fragment)
		for _, c := range f.Nodes {
			writeOutline(b, c, depth+2)
		}
	}
}

// checkValid fails the test unless doc passes docsd's own document validation and, when the
// public API's OpenAPI document is at hand, its JSONDocument schema.
func checkValid(t *testing.T, doc *markdoc.Document) {
	t.Helper()
	raw := checkStructure(t, doc)
	if schema := publicSchema(t); schema != nil {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
		if err != nil {
			t.Fatalf("unmarshal: %v", err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("not a JSONDocument of the public API: %v\n%s", err, raw)
		}
	}
}

// checkStructure fails the test unless doc passes docsd's own document validation
// (internal/richtext), and returns its JSON. It is the check for large or deeply nested
// documents: the public schema's nested oneOf alternatives take time exponential in depth.
func checkStructure(t *testing.T, doc *markdoc.Document) []byte {
	t.Helper()
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	limits := richtext.DefaultLimits
	limits.MaxBytes, limits.MaxNodes = 64<<20, 1<<20
	if _, err := limits.Validate("document", raw); err != nil {
		t.Errorf("richtext validation: %v\n%s", err, raw)
	}
	return raw
}

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// specPaths are where the public API's OpenAPI document may be: named by
// DOCSD_GITBOOK_OPENAPI, or in the black-box test's installed @gitbook/api package.
func specPaths() []string {
	paths := []string{"../../test/blackbox/node_modules/@gitbook/api/spec/openapi.json"}
	if p := os.Getenv("DOCSD_GITBOOK_OPENAPI"); p != "" {
		paths = append([]string{p}, paths...)
	}
	return paths
}

// publicSchema compiles the JSONDocument schema of the public API's OpenAPI document; nil
// when the document is not found. OpenAPI 3.0 schemas are close to JSON Schema draft 4.
func publicSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	schemaOnce.Do(func() {
		for _, p := range specPaths() {
			raw, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			var spec map[string]any
			if schemaErr = json.Unmarshal(raw, &spec); schemaErr != nil {
				return
			}
			c := jsonschema.NewCompiler()
			c.DefaultDraft(jsonschema.Draft4)
			root := map[string]any{"components": spec["components"], "$ref": "#/components/schemas/JSONDocument"}
			if schemaErr = c.AddResource("openapi.json", root); schemaErr != nil {
				return
			}
			schema, schemaErr = c.Compile("openapi.json")
			return
		}
	})
	if schemaErr != nil {
		t.Fatalf("compiling the public API's JSONDocument schema: %v", schemaErr)
	}
	return schema
}

func TestPublicSchemaIsChecked(t *testing.T) {
	if publicSchema(t) == nil {
		t.Skipf("the public API's OpenAPI document is not at hand (set DOCSD_GITBOOK_OPENAPI or run test/blackbox/run.sh once); documents are checked by internal/richtext only")
	}
	// The schema must refuse what the API refuses, or the checks above prove nothing.
	bad := `{"object":"document","data":{},"nodes":[{"object":"block","type":"hint","data":{"style":"info"},"nodes":[{"object":"block","type":"code","data":{},"nodes":[]}]}]}`
	inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
	if err := publicSchema(t).Validate(inst); err == nil {
		t.Fatal("the schema accepted a code block inside a hint")
	}
}
