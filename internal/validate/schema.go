package validate

import (
	"bytes"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"docsd/internal/apperr"
)

var printer = message.NewPrinter(language.English)

// CompileSchema compiles a JSON Schema document (draft-07 unless it says otherwise); name is
// its resource URL.
func CompileSchema(name string, doc []byte) (*jsonschema.Schema, error) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource(name, inst); err != nil {
		return nil, err
	}
	return c.Compile(name)
}

// AgainstSchema validates a JSON document against sch; a failure is a 400 naming field, the
// place inside the value and the first reason.
func AgainstSchema(field string, sch *jsonschema.Schema, doc []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return apperr.Invalidf("%s: not valid JSON: %v", field, err)
	}
	err = sch.Validate(inst)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return apperr.Invalidf("%s: %v", field, err)
	}
	// The innermost first cause is the most precise reason; a oneOf failure lists every
	// branch, and the first one is as good a reason as any.
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	where := field
	if len(ve.InstanceLocation) > 0 {
		where += "." + strings.Join(ve.InstanceLocation, ".")
	}
	return apperr.Invalidf("%s: %s", where, ve.ErrorKind.LocalizedString(printer))
}
