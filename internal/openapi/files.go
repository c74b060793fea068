package openapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxFiles bounds the files one spec may gather through external references.
const MaxFiles = 100

// decodeFile parses one file of a spec, JSON or YAML, into a tree; a syntax error names the
// file, line and column so its author can find it.
func decodeFile(name string, text []byte) (any, *ProblemItem) {
	trimmed := bytes.TrimLeft(text, " \t\r\n\ufeff")
	if len(trimmed) == 0 {
		return nil, &ProblemItem{Code: "syntax", Message: name + ": the file is empty"}
	}
	if trimmed[0] == '{' || trimmed[0] == '[' {
		var v any
		if err := json.Unmarshal(text, &v); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				line, col := lineCol(text, se.Offset)
				return nil, &ProblemItem{Code: "syntax", Message: fmt.Sprintf("%s:%d:%d: invalid JSON: %s", name, line, col, se.Error())}
			}
			return nil, &ProblemItem{Code: "syntax", Message: fmt.Sprintf("%s: invalid JSON: %s", name, err)}
		}
		return v, nil
	}
	var v any
	if err := yaml.Unmarshal(text, &v); err != nil {
		// yaml.v3's messages read "yaml: line N: ..."; keep the line, name the file.
		return nil, &ProblemItem{Code: "syntax", Message: name + ": invalid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	return stringKeys(v), nil
}

// stringKeys turns YAML mappings with non-string keys (response codes such as 200) into
// string-keyed ones, as JSON has them.
func stringKeys(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = stringKeys(e)
		}
		return t
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[fmt.Sprint(k)] = stringKeys(e)
		}
		return out
	case []any:
		for i, e := range t {
			t[i] = stringKeys(e)
		}
		return t
	}
	return v
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(text []byte, offset int64) (int, int) {
	offset = min(max(offset, 0), int64(len(text)))
	before := text[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(offset) - bytes.LastIndexByte(before, '\n')
	return line, max(col-1, 1)
}

// fileRef is an external reference found in a file: the file it names (relative to the
// referring file) and where it was found, as a JSON pointer.
type fileRef struct {
	target  string
	pointer string
}

// externalRefs lists the $refs of tree that name another file ("common.yaml#/Pet"),
// leaving references inside the same document ("#/components/...") aside.
func externalRefs(tree any) []fileRef {
	var out []fileRef
	for _, r := range allRefs(tree) {
		if file, _, _ := strings.Cut(r.target, "#"); file != "" {
			out = append(out, fileRef{target: file, pointer: r.pointer})
		}
	}
	return out
}

// allRefs lists every $ref of tree, whole ("common.yaml#/Pet", "#/components/schemas/Pet"),
// with where it was found, in a stable order.
func allRefs(tree any) []fileRef {
	var out []fileRef
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch t := v.(type) {
		case map[string]any:
			if ref, ok := t["$ref"].(string); ok {
				out = append(out, fileRef{target: ref, pointer: ptr + "/$ref"})
			}
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(t[k], ptr+"/"+escapePointer(k))
			}
		case []any:
			for i, e := range t {
				walk(e, fmt.Sprintf("%s/%d", ptr, i))
			}
		}
	}
	walk(tree, "")
	return out
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// relativeTarget resolves ref, found in file from, to a path of the spec's filesystem; refs
// with a scheme or leaving the entry's folder are refused: a spec gathers only its own files.
func relativeTarget(from, ref string) (string, error) {
	if strings.Contains(ref, "://") || strings.HasPrefix(ref, "//") {
		return "", errors.New("references to other servers are not followed; only files next to the specification are")
	}
	p := ref
	if !strings.HasPrefix(ref, "/") {
		p = path.Join(path.Dir(from), ref)
	}
	p = path.Clean(p)
	if strings.HasPrefix(p, "../") || p == ".." || strings.HasPrefix(p, "/") {
		return "", errors.New("the reference leaves the specification's folder")
	}
	return p, nil
}

// contentHash is the hash of a filesystem normalised: each file's tree re-encoded as JSON
// with sorted keys, so a change of formatting, key order or JSON/YAML alone is no new version.
func contentHash(files map[string]string) (string, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		tree, problem := decodeFile(n, []byte(files[n]))
		if problem != nil {
			return "", errors.New(problem.Message)
		}
		canon, err := json.Marshal(tree)
		if err != nil {
			return "", fmt.Errorf("%s: %w", n, err)
		}
		fmt.Fprintf(h, "%d:%s\n%d:", len(n), n, len(canon))
		h.Write(canon)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
