package apispec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"slices"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Answer is one HTTP exchange to judge.
type Answer struct {
	Method string
	Path   string // the request's path, without the query
	Status int
	// ContentType is the answer's Content-Type header.
	ContentType string
	Body        []byte
}

var printer = message.NewPrinter(language.English)

// Violation is one rule an answer breaks.
type Violation struct {
	Doc, Operation string
	// Pointer is the JSON pointer of the offending value in the body ("" for the status,
	// the media type or the body as a whole).
	Pointer string
	// Message names the document, the operation id, the method and path, the status, and
	// for a body, the JSON pointer and the rule.
	Message string
}

func (v Violation) String() string { return v.Message }

// Judge returns what is wrong with answer a by the operation, one violation per rule
// broken; none when the operation allows it.
func (op *Operation) Judge(a Answer) []Violation {
	var out []Violation
	fail := func(format string, args ...any) {
		out = append(out, Violation{Doc: op.doc.Label, Operation: op.ID,
			Message: fmt.Sprintf("%s %s (%s %s) answered %d: %s", op.doc.Label, op.ID, a.Method, a.Path, a.Status,
				fmt.Sprintf(format, args...))})
	}
	resp, key := op.response(a.Status)
	if resp == nil && !(a.Status >= 400 && GenericErrors[a.Status]) {
		fail("status %d is not declared (declared: %s)", a.Status, strings.Join(op.statuses(), ", "))
		return out
	}
	bodyless := a.Method == "HEAD" || a.Status == 304
	mediaType, _, _ := mime.ParseMediaType(a.ContentType)
	isJSON := mediaType == "application/json" || strings.HasSuffix(mediaType, "+json")

	if a.Status >= 400 && (resp == nil || resp.declaresJSON() || len(resp.Content) == 0) {
		if msg := errorShape(a); msg != "" {
			fail("%s", msg)
		}
	}
	if resp == nil || bodyless {
		return out
	}
	if len(resp.Content) == 0 {
		if len(bytes.TrimSpace(a.Body)) > 0 {
			fail("%s declares no content, but the answer has a body (%s)", key, clip(a.Body))
		}
		return out
	}
	if len(a.Body) == 0 {
		fail("%s declares content (%s), but the answer has no body", key, strings.Join(resp.mediaTypes(), ", "))
		return out
	}
	schemaName, ok := resp.match(mediaType)
	if !ok {
		fail("media type %q is not declared for %s (declared: %s)", mediaType, key, strings.Join(resp.mediaTypes(), ", "))
		return out
	}
	if schemaName == "" || !isJSON {
		return out
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(a.Body))
	if err != nil {
		fail("body is not JSON: %v", err)
		return out
	}
	sch, err := op.doc.schema(schemaName)
	if err != nil {
		fail("the document's schema does not compile: %v", err)
		return out
	}
	if err := sch.Validate(inst); err != nil {
		for _, l := range leaves(err) {
			fail("%s", l.text)
			out[len(out)-1].Pointer = l.ptr
		}
	}
	return out
}

// errorShape checks {"error":{"code":status,"message":"..."}}.
func errorShape(a Answer) string {
	var body struct {
		Error *struct {
			Code    *int    `json:"code"`
			Message *string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(a.Body, &body); err != nil || body.Error == nil || body.Error.Code == nil || body.Error.Message == nil {
		return fmt.Sprintf("error body is not {\"error\":{\"code\":%d,\"message\":\"...\"}}: %s", a.Status, clip(a.Body))
	}
	if *body.Error.Code != a.Status {
		return fmt.Sprintf("/error/code is %d, want the status %d", *body.Error.Code, a.Status)
	}
	return ""
}

// leaves turns a validation error into one line per innermost cause: the JSON pointer in
// the answer, the schema rule (its keyword location) and the reason. Of a failed anyOf,
// only the causes of the variant the answer most likely meant are kept (bestVariant).
type leaf struct{ ptr, text string }

func leaves(err error) []leaf {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []leaf{{"", err.Error()}}
	}
	var out []leaf
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			ptr := "/" + strings.Join(escapePtr(e.InstanceLocation), "/")
			rule := e.SchemaURL
			if i := strings.Index(rule, "#"); i >= 0 {
				rule = rule[i+1:]
			}
			out = append(out, leaf{ptr, fmt.Sprintf("at %s: %s (rule %s)", ptr, e.ErrorKind.LocalizedString(printer), rule)})
			return
		}
		if _, ok := e.ErrorKind.(*kind.AnyOf); ok {
			// Of the variants, the one that got furthest into the value (its deepest
			// failure, then its fewest) is the one the answer meant: report only it.
			walk(bestVariant(e))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.Slice(out, func(i, j int) bool { return out[i].text < out[j].text })
	return slices.Compact(out)
}

func escapePtr(l []string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
	}
	return out
}

func bestVariant(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	var best *jsonschema.ValidationError
	bestTag, bestDepth, bestCount := true, -1, 0
	for _, c := range e.Causes {
		tag := wrongTag(c, len(e.InstanceLocation)+1)
		depth, count := reach(c)
		better := best == nil || bestTag && !tag ||
			tag == bestTag && (depth > bestDepth || depth == bestDepth && count < bestCount)
		if better {
			best, bestTag, bestDepth, bestCount = c, tag, depth, count
		}
	}
	return best
}

// wrongTag reports whether a variant failed on an enum or const of a property of the value
// itself (kind: "group" where the variant wants "link"): the answer did not mean it.
func wrongTag(e *jsonschema.ValidationError, depth int) bool {
	if len(e.Causes) == 0 {
		switch e.ErrorKind.(type) {
		case *kind.Enum, *kind.Const:
			return len(e.InstanceLocation) == depth
		}
		return false
	}
	for _, c := range e.Causes {
		if wrongTag(c, depth) {
			return true
		}
	}
	return false
}

// reach returns the depth of the deepest failure below e and the number of failures.
func reach(e *jsonschema.ValidationError) (depth, count int) {
	if len(e.Causes) == 0 {
		return len(e.InstanceLocation), 1
	}
	for _, c := range e.Causes {
		d, n := reach(c)
		depth = max(depth, d)
		count += n
	}
	return depth, count
}

func (op *Operation) statuses() []string {
	var out []string
	for k := range op.Responses {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (r *Response) mediaTypes() []string {
	var out []string
	for k := range r.Content {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (r *Response) declaresJSON() bool {
	for mt := range r.Content {
		if mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "*/*" {
			return true
		}
	}
	return false
}

// match returns the schema declared for a media type, trying type/* and */* after it.
func (r *Response) match(mediaType string) (string, bool) {
	if s, ok := r.Content[mediaType]; ok {
		return s, true
	}
	if i := strings.IndexByte(mediaType, '/'); i >= 0 {
		if s, ok := r.Content[mediaType[:i]+"/*"]; ok {
			return s, true
		}
	}
	s, ok := r.Content["*/*"]
	return s, ok
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}
