package jsrun

import (
	"embed"
	"sort"
	"strings"
	"sync"
)

// The web APIs, as JavaScript over the host operations, evaluated in order (their names sort
// as they depend on one another) into every fresh VM before the script.
//
//go:embed js/*.js
var polyfills embed.FS

var prelude struct {
	once sync.Once
	code []byte
	err  error
}

func preludeBytecode() ([]byte, error) {
	prelude.once.Do(func() {
		entries, err := polyfills.ReadDir("js")
		if err != nil {
			prelude.err = err
			return
		}
		names := make([]string, 0, len(entries))
		for _, e := range entries {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		var sb strings.Builder
		sb.WriteString("(function(){\n")
		for _, n := range names {
			b, err := polyfills.ReadFile("js/" + n)
			if err != nil {
				prelude.err = err
				return
			}
			sb.Write(b)
			sb.WriteString("\n")
		}
		sb.WriteString("})();\n")
		prelude.code, prelude.err = compile(sb.String(), "prelude.js")
	})
	return prelude.code, prelude.err
}
