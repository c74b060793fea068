package gitbookimport

import (
	"io/fs"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"docsd/internal/apperr"
)

// config is what a .gitbook.yaml may change: where README.md and SUMMARY.md are, relative to
// the content root.
type config struct {
	readme   string
	summary  string
	warnings []string
}

type gitbookYAML struct {
	Root      string `yaml:"root"`
	Structure struct {
		Readme  string `yaml:"readme"`
		Summary string `yaml:"summary"`
	} `yaml:"structure"`
}

// findRoot returns the content root of fsys, its path inside fsys, and its configuration.
func findRoot(fsys fs.FS) (fs.FS, string, config, error) {
	var prefix []string
	cfg := config{readme: "README.md", summary: "SUMMARY.md"}
	// An archive of a repository usually holds one directory ("docs-main/"): look inside.
	for range 4 {
		dir, ok := soleDirectory(fsys)
		if !ok {
			break
		}
		sub, err := fs.Sub(fsys, dir)
		if err != nil {
			break
		}
		fsys = sub
		prefix = append(prefix, dir)
	}
	raw, err := fs.ReadFile(fsys, ".gitbook.yaml")
	if err != nil {
		return fsys, strings.Join(prefix, "/"), cfg, nil
	}
	var y gitbookYAML
	if err := yaml.Unmarshal(raw, &y); err != nil {
		cfg.warnings = append(cfg.warnings, ".gitbook.yaml: not valid YAML, ignored: "+err.Error())
		return fsys, strings.Join(prefix, "/"), cfg, nil
	}
	if root := cleanRelative(y.Root); root != "" {
		if climbsOut(root) {
			return nil, "", cfg, apperr.Invalidf(".gitbook.yaml: root %q: must be inside the repository", y.Root)
		}
		sub, err := fs.Sub(fsys, root)
		if err != nil {
			return nil, "", cfg, apperr.Invalidf(".gitbook.yaml: root %q: is not a directory", y.Root)
		}
		if _, err := fs.Stat(sub, "."); err != nil {
			return nil, "", cfg, apperr.Invalidf(".gitbook.yaml: root %q: is not a directory", y.Root)
		}
		fsys = sub
		prefix = append(prefix, root)
	}
	if p := cleanRelative(y.Structure.Readme); p != "" && !climbsOut(p) {
		cfg.readme = p
	}
	if p := cleanRelative(y.Structure.Summary); p != "" && !climbsOut(p) {
		cfg.summary = p
	}
	return fsys, strings.Join(prefix, "/"), cfg, nil
}

// cleanRelative cleans a path written relative to the repository ("./docs/"); "" for none.
func cleanRelative(p string) string {
	p = path.Clean(strings.TrimLeft(strings.TrimSpace(p), "/"))
	if p == "." {
		return ""
	}
	return p
}

func climbsOut(p string) bool { return p == ".." || strings.HasPrefix(p, "../") }

// soleDirectory reports the one directory fsys holds when it holds nothing else of note.
func soleDirectory(fsys fs.FS) (string, bool) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return "", false
	}
	dir := ""
	for _, e := range entries {
		name := e.Name()
		if name == ".gitbook.yaml" || name == ".gitbook" {
			return "", false
		}
		if strings.HasPrefix(name, ".") || name == "__MACOSX" {
			continue
		}
		if !e.IsDir() || dir != "" {
			return "", false
		}
		dir = name
	}
	return dir, dir != ""
}
