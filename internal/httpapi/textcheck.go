package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"docsd/internal/apperr"
	"docsd/internal/ids"
	"docsd/internal/validate"
)

// Requests are checked here, once per route, for what no handler can store or look up: path
// parameters that cannot be ids, and bytes that are not UTF-8 or NUL characters in the path
// and in query values (PostgreSQL refuses both in a text parameter, which would surface as a
// 500). Authenticated routes check after the token (a request without one gets its 401 first).
// JSON bodies are checked by decode (see checkJSONText).

// textError answers the error as the route would: published sites answer a browser with HTML.
func (s *Server) textError(w http.ResponseWriter, r *http.Request, err error) {
	if s.PublishedSites != nil && strings.HasPrefix(r.URL.Path, "/sites/") {
		s.PublishedSites.Fail(w, r, err)
		return
	}
	writeError(w, r, s.log, err)
}

// wildcard matches a path parameter of a ServeMux pattern.
var wildcard = regexp.MustCompile(`\{([A-Za-z0-9_]+)(\.\.\.)?\}`)

// isIDParam reports whether a path parameter holds an id (or a change request's number, in
// the same alphabet): the name says so.
func isIDParam(name string) bool {
	return strings.HasSuffix(name, "Id") || strings.HasSuffix(name, "ID")
}

// textChecker checks the path parameters of one route and the query of its requests. A path
// parameter that cannot name anything is a 404: an id parameter outside the id alphabet, or
// any parameter (basenames, page paths, domains, signed tokens) that is not UTF-8 text without
// NUL. A DELETE is the exception: deleting what does not exist answers as the handler answers
// for an absent id (204 mostly, after its permission checks), so the handler runs with
// absentID in place of the parameter. A query value that is not such text is a 400 naming it.
type textChecker struct {
	names []string
	ids   []bool // names[i] holds an id
}

func newTextChecker(pattern string) textChecker {
	var tc textChecker
	for _, m := range wildcard.FindAllStringSubmatch(pattern, -1) {
		tc.names = append(tc.names, m[1])
		tc.ids = append(tc.ids, isIDParam(m[1]) && !clientChosenID(pattern, m[1]))
	}
	return tc
}

// clientChosenID reports the id parameters whose values clients choose, in an alphabet
// wider than docsd's ids (UUIDs, nanoids): an agent conversation's id. The service checks
// them as text.
func clientChosenID(pattern, name string) bool {
	return name == "conversationId" && (strings.Contains(pattern, "/agent/conversations/{conversationId}") ||
		strings.Contains(pattern, "/change-requests/{changeRequestId}/conversations/{conversationId}"))
}

func (tc textChecker) check(r *http.Request) error {
	for i, name := range tc.names {
		v := r.PathValue(name)
		if tc.ids[i] && ids.Valid(v) || !tc.ids[i] && validate.IsText(v) {
			continue
		}
		if r.Method == http.MethodDelete {
			r.SetPathValue(name, absentID)
			continue
		}
		if tc.ids[i] {
			return apperr.NotFoundf("%s not found", paramNoun(name))
		}
		return apperr.NotFoundf("no route for %s: the path must be UTF-8 text without NUL characters", r.Method)
	}
	return validate.Query(r.URL.RawQuery)
}

// absentID is an id in the id alphabet that nothing has: ids are 20 characters or more, and
// change request numbers start at 1.
const absentID = "0"

// paramNoun names what an id parameter identifies: "changeRequestId" is "change request".
func paramNoun(name string) string {
	name = strings.TrimSuffix(strings.TrimSuffix(name, "Id"), "ID")
	var b strings.Builder
	for i, c := range name {
		if unicode.IsUpper(c) {
			if i > 0 {
				b.WriteByte(' ')
			}
			c = unicode.ToLower(c)
		}
		b.WriteRune(c)
	}
	return b.String()
}

// checkJSONText refuses a JSON body with a string (a value or a key) that is not UTF-8 or
// holds a NUL character, naming where it is (`title`, `items[2].name`). Go's decoder would
// pass the NUL on to the database and quietly turn invalid bytes into U+FFFD; the client
// should hear about both. Bodies with neither (nearly all) cost one scan.
func checkJSONText(body []byte) error {
	if utf8.Valid(body) && !bytes.Contains(body, []byte(`\u0000`)) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	type frame struct {
		object  bool
		wantKey bool
		key     string
		index   int
	}
	var stack []frame
	where := func() string {
		var b strings.Builder
		for _, f := range stack {
			switch {
			case f.object && f.key != "":
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			case !f.object:
				fmt.Fprintf(&b, "[%d]", f.index)
			}
		}
		if b.Len() == 0 {
			return "request body"
		}
		return b.String()
	}
	// advance moves the innermost container past the value just read.
	advance := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].object {
				stack[n-1].wantKey, stack[n-1].key = true, ""
			} else {
				stack[n-1].index++
			}
		}
	}
	prev := dec.InputOffset()
	for {
		tok, err := dec.Token()
		if err != nil {
			// io.EOF, or malformed JSON, which decoding reports with its own message; bytes
			// that are not UTF-8 outside any string are a syntax error there too.
			return nil
		}
		raw := body[prev:dec.InputOffset()]
		prev = dec.InputOffset()
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, frame{object: true, wantKey: true})
			case '[':
				stack = append(stack, frame{})
			default:
				stack = stack[:len(stack)-1]
				advance()
			}
		case string:
			isKey := len(stack) > 0 && stack[len(stack)-1].object && stack[len(stack)-1].wantKey
			field := where()
			if isKey {
				if field == "request body" {
					field = "request body: a key"
				} else {
					field += ": a key"
				}
			}
			if !utf8.Valid(raw) {
				return apperr.Invalidf("%s: must be valid UTF-8", field)
			}
			if strings.IndexByte(t, 0) >= 0 {
				return apperr.Invalidf("%s: must not contain NUL characters (U+0000)", field)
			}
			if isKey {
				stack[len(stack)-1].key, stack[len(stack)-1].wantKey = t, false
			} else {
				advance()
			}
		default:
			advance()
		}
	}
}
