package jsrun

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/evanw/esbuild/pkg/api"
	"modernc.org/quickjs"
)

// moduleGlobal is the global the prepared script leaves its module namespace in.
const moduleGlobal = "__docsdModule"

// Script is a prepared integration script: validated and compiled once, run many times. It is
// immutable and safe for concurrent use.
type Script struct {
	bytecode []byte
	hash     string // sha256 of the source, hex
}

// Version identifies the script's source (its sha256, hex).
func (s *Script) Version() string { return s.hash }

// ParseError is a script that does not parse: the integrations publish handler answers 400
// with its message, which names the line.
type ParseError struct {
	Line    int // 1-based
	Column  int // 0-based, in bytes, as esbuild counts
	Message string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("the script does not parse: line %d, column %d: %s", e.Line, e.Column, e.Message)
}

// Prepare validates source, an ES module (what @gitbook/cli builds: ESM, target ES2020), and
// turns it into a script the engine evaluates: esbuild rewrites the module as a plain script
// that leaves its exports in a global (the engine's own module loader would need a resolver
// and gains nothing for one self-contained file), then QuickJS compiles it to bytecode so each
// invocation's fresh VM skips parsing. A script without a default export holding a fetch
// function is refused too: nothing could be dispatched to it.
func Prepare(source string) (*Script, error) {
	res := api.Transform(source, api.TransformOptions{
		Loader:     api.LoaderJS,
		Format:     api.FormatIIFE,
		GlobalName: moduleGlobal,
		Target:     api.ES2020,
		Sourcefile: "script.js",
		LogLevel:   api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		m := res.Errors[0]
		pe := &ParseError{Message: m.Text}
		if m.Location != nil {
			pe.Line, pe.Column = m.Location.Line, m.Location.Column
		}
		return nil, pe
	}
	code := string(res.Code)
	if !hasDefaultExport(source) {
		return nil, &ParseError{Line: 1, Message: "the script has no default export (export default { fetch(request, env, ctx) })"}
	}
	bc, err := compile(code, "script.js")
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(source))
	return &Script{bytecode: bc, hash: hex.EncodeToString(sum[:])}, nil
}

// hasDefaultExport asks esbuild's metafile whether the module exports "default", so a script
// missing it is refused at publish rather than failing every event.
func hasDefaultExport(source string) bool {
	res := api.Build(api.BuildOptions{
		Stdin:    &api.StdinOptions{Contents: source, Sourcefile: "script.js", Loader: api.LoaderJS},
		Format:   api.FormatESModule,
		Metafile: true,
		Write:    false,
		LogLevel: api.LogLevelSilent,
		Bundle:   false,
	})
	if len(res.Errors) > 0 {
		return false
	}
	var meta struct {
		Outputs map[string]struct {
			Exports []string `json:"exports"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(res.Metafile), &meta); err != nil {
		return false
	}
	for _, out := range meta.Outputs {
		if slices.Contains(out.Exports, "default") {
			return true
		}
	}
	return false
}

// compile turns a plain script into QuickJS bytecode in a throwaway VM.
func compile(code, name string) ([]byte, error) {
	vm, err := quickjs.NewVM()
	if err != nil {
		return nil, err
	}
	defer vm.Close()
	bc, err := vm.Compile(code, quickjs.EvalGlobal)
	if err != nil {
		if e, ok := err.(*quickjs.Error); ok && e.LineNumber > 0 {
			return nil, &ParseError{Line: e.LineNumber, Column: e.ColumnNumber, Message: e.Message}
		}
		return nil, fmt.Errorf("compiling %s: %w", name, err)
	}
	return bc, nil
}
