package markdoc_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"docsd/internal/markdoc"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/ from the current output")

// TestGolden converts each testdata/*.md (pages as GitBook exports them) and compares the
// document, the HTML and the sections with the golden files beside it.
func TestGolden(t *testing.T) {
	t.Parallel()
	pages, err := filepath.Glob("testdata/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no testdata pages: %v", err)
	}
	for _, page := range pages {
		name := strings.TrimSuffix(page, ".md")
		t.Run(filepath.Base(name), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			doc := markdoc.ToDocument(string(src))
			checkValid(t, doc)
			docJSON, _ := json.MarshalIndent(doc, "", "  ")
			sections, _ := json.MarshalIndent(markdoc.Sections(string(src)), "", "  ")
			links, _ := json.MarshalIndent(markdoc.Links(string(src)), "", "  ")
			compareGolden(t, name+".document.json", docJSON)
			compareGolden(t, name+".html", []byte(markdoc.ToHTML(string(src))))
			compareGolden(t, name+".sections.json", sections)
			compareGolden(t, name+".links.json", links)
		})
	}
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if !bytes.HasSuffix(got, []byte("\n")) {
		got = append(got, '\n')
	}
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run go test -update and review the diff):\n%s", path, firstDifference(string(got), string(want)))
	}
}

// firstDifference shows the first line where got and want part.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n  got  " + gl + "\n  want " + wl
		}
	}
	return ""
}
