package site

import (
	"github.com/santhosh-tekuri/jsonschema/v6"

	"docsd/internal/validate"
)

// compileSchema compiles a JSON Schema document; name is its resource URL.
func compileSchema(name string, doc []byte) (*jsonschema.Schema, error) {
	return validate.CompileSchema(name, doc)
}

// mustCompile compiles a schema built into the program.
func mustCompile(name string, doc []byte) *jsonschema.Schema {
	s, err := compileSchema(name, doc)
	if err != nil {
		panic("site: built-in schema " + name + ": " + err.Error())
	}
	return s
}

// validateJSON validates a JSON document against sch (see validate.AgainstSchema).
func validateJSON(field string, sch *jsonschema.Schema, doc []byte) error {
	return validate.AgainstSchema(field, sch, doc)
}
