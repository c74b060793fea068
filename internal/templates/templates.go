// Package templates holds the built-in space templates: GitBook-style markdown trees embedded
// in the binary, read by gitbookimport like any import.
package templates

import (
	"embed"
	"io/fs"
	"slices"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/gitbookimport"
)

//go:embed all:data
var data embed.FS

// IDs are the built-in templates.
var IDs = []string{"api-reference", "getting-started"}

// Get reads a template's tree; an unknown id is a 400 naming the field `id`.
func Get(id string) (*gitbookimport.Result, error) {
	if id == "" {
		return nil, apperr.Invalidf("id: is required (one of %s)", strings.Join(IDs, ", "))
	}
	if !slices.Contains(IDs, id) {
		return nil, apperr.Invalidf("id: unknown template %q (one of %s)", id, strings.Join(IDs, ", "))
	}
	sub, err := fs.Sub(data, "data/"+id)
	if err != nil {
		return nil, err
	}
	return gitbookimport.Import(sub)
}
