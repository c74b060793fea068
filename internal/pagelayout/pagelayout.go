// Package pagelayout holds a document page's layout options as the GitBook API answers them
// (RevisionPageLayoutOptions): their defaults, the presets, and the rules for setting them.
//
// A page stores only what was said about its layout (a preset and the options given, from
// its front matter or an edit); Resolve fills in the rest, so pages stored before an option
// existed answer its default, and a page with nothing said answers the defaults.
package pagelayout

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"docsd/internal/apperr"
)

// Options is a page's complete layout, every field the API requires (the reference spec
// 0.146 and the newest, which adds coverMask, tags, actions and anchors).
type Options struct {
	Width           string `json:"width"`     // default or wide
	Cover           bool   `json:"cover"`     // the cover is shown (when the page has one)
	CoverSize       string `json:"coverSize"` // hero or full
	CoverMask       string `json:"coverMask"` // none or radial
	Title           bool   `json:"title"`
	Description     bool   `json:"description"`
	TableOfContents bool   `json:"tableOfContents"`
	Outline         bool   `json:"outline"`
	Pagination      bool   `json:"pagination"`
	Metadata        bool   `json:"metadata"` // last modified, authors
	Tags            bool   `json:"tags"`
	Actions         bool   `json:"actions"`
	Anchors         bool   `json:"anchors"`
}

// Values each option may take. coverSize "background", which the newest spec adds, is not
// offered: the reference spec's clients would not read it.
var (
	Widths     = []string{"default", "wide"}
	CoverSizes = []string{"hero", "full"}
	CoverMasks = []string{"none", "radial"}
	Presets    = []string{"docs", "editorial", "landing"}
)

// Default is GitBook's layout for a page nothing was said about, the "docs" preset: normal
// width, a hero cover, and every part of the page shown.
func Default() Options {
	return Options{Width: "default", Cover: true, CoverSize: "hero", CoverMask: "none", Title: true, Description: true,
		TableOfContents: true, Outline: true, Pagination: true, Metadata: true, Tags: true, Actions: true, Anchors: true}
}

// preset returns the options a preset stands for. "editorial" reads like an article: a full
// cover, no outline or pagination. "landing" is a front page: wide, a full cover, and none of
// the navigation parts (table of contents, outline, pagination, metadata).
func preset(name string) Options {
	o := Default()
	switch name {
	case "editorial":
		o.CoverSize, o.Outline, o.Pagination = "full", false, false
	case "landing":
		o.Width, o.CoverSize = "wide", "full"
		o.TableOfContents, o.Outline, o.Pagination, o.Metadata = false, false, false, false
	}
	return o
}

// Partial is what was said about a layout: a preset, and options that override it (nil:
// not given). Its JSON is how pages store their layout; front matter's Layout writes the
// same keys.
type Partial struct {
	Preset          string `json:"preset,omitempty"`
	Width           string `json:"width,omitempty"`
	CoverSize       string `json:"coverSize,omitempty"`
	CoverMask       string `json:"coverMask,omitempty"`
	Cover           *bool  `json:"cover,omitempty"`
	Title           *bool  `json:"title,omitempty"`
	Description     *bool  `json:"description,omitempty"`
	TableOfContents *bool  `json:"tableOfContents,omitempty"`
	Outline         *bool  `json:"outline,omitempty"`
	Pagination      *bool  `json:"pagination,omitempty"`
	Metadata        *bool  `json:"metadata,omitempty"`
	Tags            *bool  `json:"tags,omitempty"`
	Actions         *bool  `json:"actions,omitempty"`
	Anchors         *bool  `json:"anchors,omitempty"`
}

// Apply returns base with what p says over it: its preset first, then its options.
func (p Partial) Apply(base Options) Options {
	o := base
	if p.Preset != "" {
		o = preset(p.Preset)
	}
	if p.Width != "" {
		o.Width = p.Width
	}
	if p.CoverSize != "" {
		o.CoverSize = p.CoverSize
	}
	if p.CoverMask != "" {
		o.CoverMask = p.CoverMask
	}
	for _, f := range []struct {
		dst *bool
		src *bool
	}{{&o.Cover, p.Cover}, {&o.Title, p.Title}, {&o.Description, p.Description},
		{&o.TableOfContents, p.TableOfContents}, {&o.Outline, p.Outline}, {&o.Pagination, p.Pagination},
		{&o.Metadata, p.Metadata}, {&o.Tags, p.Tags}, {&o.Actions, p.Actions}, {&o.Anchors, p.Anchors}} {
		if f.src != nil {
			*f.dst = *f.src
		}
	}
	return o.valid()
}

// valid replaces values outside the enums (stored before a rule existed) by the defaults'.
func (o Options) valid() Options {
	d := Default()
	if !slices.Contains(Widths, o.Width) {
		o.Width = d.Width
	}
	if !slices.Contains(CoverSizes, o.CoverSize) {
		o.CoverSize = d.CoverSize
	}
	if !slices.Contains(CoverMasks, o.CoverMask) {
		o.CoverMask = d.CoverMask
	}
	return o
}

// Resolve returns the complete layout of a page whose stored layout is stored (nil or empty:
// nothing was said). A stored value that does not read as a layout answers the defaults.
func Resolve(stored json.RawMessage) Options {
	var p Partial
	if len(stored) == 0 || json.Unmarshal(stored, &p) != nil {
		return Default()
	}
	return p.Apply(Default())
}

// Encode returns the JSON to store for a page with layout o: nil for the defaults, so that a
// page set back to them is the same page as one nothing was said about.
func Encode(o Options) json.RawMessage {
	if o == Default() {
		return nil
	}
	b, _ := json.Marshal(o)
	return b
}

// Edit applies an edit's `layout` value to the stored layout of a page and returns what to
// store. raw is a preset name, an object with some of the options (the others keep their
// values), or null (back to the defaults). Bad input is an error naming field.
func Edit(field string, stored, raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		if !slices.Contains(Presets, name) {
			return nil, apperr.Invalidf("%s: %q is not a layout preset (%s) or an object of layout options", field, name, strings.Join(Presets, ", "))
		}
		return Encode(preset(name)), nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, apperr.Invalidf("%s: must be a layout preset (%s) or an object of layout options", field, strings.Join(Presets, ", "))
	}
	var p Partial
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := fields[k]
		var err error
		switch k {
		case "width":
			p.Width, err = enum(field+"."+k, v, Widths)
		case "coverSize":
			p.CoverSize, err = enum(field+"."+k, v, CoverSizes)
		case "coverMask":
			p.CoverMask, err = enum(field+"."+k, v, CoverMasks)
		default:
			dst, known := p.flags()[k]
			if !known {
				return nil, apperr.Invalidf("%s.%s: unknown layout option (the options are %s)", field, k, strings.Join(optionNames(), ", "))
			}
			var b bool
			if json.Unmarshal(v, &b) != nil {
				return nil, apperr.Invalidf("%s.%s: must be true or false", field, k)
			}
			*dst = &b
		}
		if err != nil {
			return nil, err
		}
	}
	return Encode(p.Apply(Resolve(stored))), nil
}

// flags maps the boolean options' names to p's fields.
func (p *Partial) flags() map[string]**bool {
	return map[string]**bool{"cover": &p.Cover, "title": &p.Title, "description": &p.Description,
		"tableOfContents": &p.TableOfContents, "outline": &p.Outline, "pagination": &p.Pagination,
		"metadata": &p.Metadata, "tags": &p.Tags, "actions": &p.Actions, "anchors": &p.Anchors}
}

func optionNames() []string {
	names := []string{"width", "coverSize", "coverMask"}
	flags := make([]string, 0, 10)
	for k := range (&Partial{}).flags() {
		flags = append(flags, k)
	}
	sort.Strings(flags)
	return append(names, flags...)
}

func enum(field string, raw json.RawMessage, allowed []string) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) != nil || !slices.Contains(allowed, s) {
		return "", apperr.Invalidf("%s: must be one of %s (got %s)", field, strings.Join(allowed, ", "), shorten(raw))
	}
	return s, nil
}

func shorten(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}
