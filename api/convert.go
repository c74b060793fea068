package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// yamlToJSON converts a YAML document to JSON. It walks the parsed node tree rather than
// decoding into maps, so that objects keep their keys in the order written (paths in the
// order of the file, fields in their documented order).
func yamlToJSON(src []byte) ([]byte, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc, more yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, fmt.Errorf("want exactly one YAML document")
	}
	var buf bytes.Buffer
	if err := writeNode(&buf, doc.Content[0]); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeNode(b *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.AliasNode:
		return writeNode(b, n.Alias)
	case yaml.MappingNode:
		b.WriteByte('{')
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: mapping keys must be scalars", k.Line)
			}
			if seen[k.Value] {
				return fmt.Errorf("line %d: key %q appears twice", k.Line, k.Value)
			}
			seen[k.Value] = true
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k.Value)
			b.WriteByte(':')
			if err := writeNode(b, n.Content[i+1]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeNode(b, c); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case yaml.ScalarNode:
		return writeScalar(b, n)
	default:
		return fmt.Errorf("line %d: unexpected YAML node", n.Line)
	}
	return nil
}

// writeScalar renders a scalar by its resolved YAML tag: quoted strings stay strings, and
// plain true, 12 or null become JSON's boolean, number and null.
func writeScalar(b *bytes.Buffer, n *yaml.Node) error {
	switch n.ShortTag() {
	case "!!null":
		b.WriteString("null")
	case "!!bool":
		v, err := strconv.ParseBool(n.Value)
		if err != nil {
			// YAML 1.1 spellings (yes, on) are not booleans in YAML 1.2; refuse the ambiguity.
			return fmt.Errorf("line %d: write booleans as true or false (got %q)", n.Line, n.Value)
		}
		b.WriteString(strconv.FormatBool(v))
	case "!!int", "!!float":
		var v any
		if err := n.Decode(&v); err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		out, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("line %d: number %q has no JSON form", n.Line, n.Value)
		}
		b.Write(out)
	default:
		writeString(b, n.Value)
	}
	return nil
}

// writeString quotes s as a JSON string, leaving <, > and & as they are (the document is
// not embedded in HTML, and readers of the raw JSON should see the text as written).
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode ends with a newline
}
