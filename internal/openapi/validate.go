package openapi

import (
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"
	"testing/fstest"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
)

// basePath roots the spec's files for the library; nothing is read from the disk, the files
// come from an in-memory filesystem.
const basePath = "/spec"

// validate builds the spec's model with libopenapi (Swagger 2.0, OpenAPI 3.0 and 3.1), its
// external references resolved among files only, and reports what stops it.
func validate(files map[string]string, entry string) []ProblemItem {
	tree, problem := decodeFile(entry, []byte(files[entry]))
	if problem != nil {
		return []ProblemItem{*problem}
	}
	root, ok := tree.(map[string]any)
	if !ok {
		return []ProblemItem{{Code: "structure", Message: entry + ": at /: the document is not an object"}}
	}
	_, isSwagger := root["swagger"]
	_, isOpenAPI := root["openapi"]
	if !isSwagger && !isOpenAPI {
		return []ProblemItem{{Code: "structure", Message: entry + ": at /: neither an \"openapi\" nor a \"swagger\" field says which specification this is"}}
	}
	if problems := brokenRefs(files, entry); len(problems) > 0 {
		return problems
	}
	mapFS := fstest.MapFS{}
	for name, text := range files {
		mapFS[name] = &fstest.MapFile{Data: []byte(text)}
	}
	cfg := &datamodel.DocumentConfiguration{
		BasePath:            basePath,
		SpecFilePath:        entry,
		LocalFS:             mapFS,
		AllowFileReferences: true,
		Logger:              slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	doc, err := libopenapi.NewDocumentWithConfiguration([]byte(files[entry]), cfg)
	if err != nil {
		return problems(entry, err)
	}
	defer doc.Release()
	if isSwagger {
		_, err = doc.BuildV2Model()
	} else {
		_, err = doc.BuildV3Model()
	}
	if err != nil {
		return problems(entry, err)
	}
	return nil
}

// problems splits the library's joined errors into items, each naming the entry file when
// it names no file of its own.
func problems(entry string, err error) []ProblemItem {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	var out []ProblemItem
	for _, e := range errs {
		if e == nil {
			continue
		}
		msg := strings.ReplaceAll(e.Error(), basePath+"/", "")
		if !strings.Contains(msg, entry) {
			msg = entry + ": " + msg
		}
		out = append(out, ProblemItem{Code: "structure", Message: msg})
	}
	if len(out) == 0 {
		out = []ProblemItem{{Code: "structure", Message: entry + ": " + err.Error()}}
	}
	return out
}

// brokenRefs reports each $ref that points at nothing, with the file and JSON pointer where
// it is written: the library names only the missing target.
func brokenRefs(files map[string]string, entry string) []ProblemItem {
	t, _ := newDocTree(Version{Entry: entry, Files: files})
	names := make([]string, 0, len(t.files))
	for n := range t.files {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []ProblemItem
	for _, name := range names {
		for _, r := range allRefs(t.files[name]) {
			if _, ok := t.resolve(name, r.target); !ok {
				out = append(out, ProblemItem{Code: "reference", Message: fmt.Sprintf("%s: at %s: %q points at nothing", name, r.pointer, r.target)})
			}
		}
	}
	return out
}
