// Package api holds docsd's own OpenAPI document, embedded in the binary so the server can
// serve the description of exactly the API it implements.
package api

import (
	_ "embed"
	"sync"
)

// YAML is the OpenAPI document as written.
//
//go:embed openapi.yaml
var YAML []byte

// JSON returns the document converted to JSON, keeping the order of keys as written. The
// conversion runs once.
var JSON = sync.OnceValues(func() ([]byte, error) { return yamlToJSON(YAML) })
