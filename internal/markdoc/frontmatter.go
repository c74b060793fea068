package markdoc

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"docsd/internal/pagelayout"
)

// FrontMatter is what the YAML block at the top of a page may say about it, as GitBook
// writes it:
//
//	---
//	description: A short summary.
//	icon: rocket
//	hidden: true
//	cover: .gitbook/assets/cover.png
//	coverY: 0
//	layout:
//	  width: wide
//	  title:
//	    visible: false
//	---
type FrontMatter struct {
	Description string
	// Icon is an icon name ("rocket"); Emoji an emoji, given as `emoji:` or as an icon that
	// is an emoji character.
	Icon  string
	Emoji string
	// Hidden keeps the page out of the navigation; NoIndex out of search and ask,
	// NoRobotsIndex out of search engines.
	Hidden        bool
	NoIndex       bool
	NoRobotsIndex bool
	// Variables are the page's variables (`vars:`): strings, numbers and booleans.
	Variables map[string]any
	Layout    Layout
	// Cover is the path or URL of the cover image; CoverY its vertical offset.
	Cover  string
	CoverY float64
	// Problem, when not empty, says why the front matter could not be read; the other
	// fields are then empty.
	Problem string
}

// Layout is what a page's front matter says about its layout: a preset, or options (nil:
// not given). It is stored as is; pagelayout fills in what it leaves out.
type Layout = pagelayout.Partial

var frontMatterBlock = regexp.MustCompile(`(?m)\A\x{FEFF}?---[ \t]*\r?\n((?s:.*?))^(?:---|\.\.\.)[ \t]*(?:\r?\n|\z)`)

// frontMatter finds the front matter block at the start of src: its YAML, and the offset at
// which the markdown after it starts.
func frontMatter(src string) (yamlText string, end int, ok bool) {
	m := frontMatterBlock.FindStringSubmatchIndex(src)
	if m == nil {
		return "", 0, false
	}
	return src[m[2]:m[3]], m[1], true
}

// withoutFrontMatter blanks out the front matter a page's markdown may start with, so that
// it is not read as a divider and a heading. The block's lines are kept, empty, so that line
// numbers still match the source. A block that is not a YAML mapping is left as markdown.
func withoutFrontMatter(src string) string {
	yamlText, end, ok := frontMatter(src)
	if !ok {
		return src
	}
	var fields map[string]any
	if yaml.Unmarshal([]byte(yamlText), &fields) != nil {
		return src
	}
	return strings.Repeat("\n", strings.Count(src[:end], "\n")) + src[end:]
}

// ParseFrontMatter splits a page into its front matter and the markdown after it. Without a
// front matter block, meta is empty and body is src. A block that is not valid YAML, or not
// a mapping, is still removed from body, with meta.Problem saying what is wrong.
func ParseFrontMatter(src string) (meta FrontMatter, body string) {
	yamlText, end, ok := frontMatter(src)
	if !ok {
		return FrontMatter{}, src
	}
	body = src[end:]
	var fields map[string]any
	if err := yaml.Unmarshal([]byte(yamlText), &fields); err != nil {
		return FrontMatter{Problem: "front matter: " + err.Error()}, body
	}
	meta.Description = strings.TrimSpace(str(fields["description"]))
	meta.Icon = strings.TrimSpace(str(fields["icon"]))
	meta.Emoji = strings.TrimSpace(str(fields["emoji"]))
	if meta.Emoji == "" && isEmoji(meta.Icon) {
		meta.Emoji, meta.Icon = meta.Icon, ""
	}
	meta.Hidden, _ = boolish(fields["hidden"])
	meta.NoIndex, _ = boolish(fields["noIndex"])
	meta.NoRobotsIndex, _ = boolish(fields["noRobotsIndex"])
	meta.Variables = Variables(fields["vars"])
	meta.Cover = strings.TrimSpace(str(fields["cover"]))
	meta.CoverY, _ = number(fields["coverY"])
	meta.Layout = layout(fields["layout"])
	return meta, body
}

func layout(v any) Layout {
	var l Layout
	switch v := v.(type) {
	case string:
		if slices.Contains(pagelayout.Presets, v) {
			l.Preset = v
		}
	case map[string]any:
		if w := str(v["width"]); slices.Contains(pagelayout.Widths, w) {
			l.Width = w
		}
		if cover, ok := v["cover"].(map[string]any); ok {
			if s := str(cover["size"]); slices.Contains(pagelayout.CoverSizes, s) {
				l.CoverSize = s
			}
			if m := str(cover["mask"]); slices.Contains(pagelayout.CoverMasks, m) {
				l.CoverMask = m
			}
		}
		l.Cover = visible(v["cover"])
		l.Title = visible(v["title"])
		l.Description = visible(v["description"])
		l.TableOfContents = visible(v["tableOfContents"])
		l.Outline = visible(v["outline"])
		l.Pagination = visible(v["pagination"])
		l.Metadata = visible(v["metadata"])
		l.Tags = visible(v["tags"])
		l.Actions = visible(v["actions"])
		l.Anchors = visible(v["anchors"])
	}
	return l
}

// visible reads a layout option written `{visible: true}` or `true`.
func visible(v any) *bool {
	if m, ok := v.(map[string]any); ok {
		v = m["visible"]
	}
	if b, ok := boolish(v); ok {
		return &b
	}
	return nil
}

func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case nil:
		return ""
	case int, float64, bool:
		return fmt.Sprint(v)
	}
	return ""
}

func boolish(v any) (value, ok bool) {
	switch v := v.(type) {
	case bool:
		return v, true
	case string:
		b, err := strconv.ParseBool(v)
		return b, err == nil
	}
	return false, false
}

func number(v any) (float64, bool) {
	switch v := v.(type) {
	case int:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

// isEmoji reports whether s is one emoji (with its modifiers and joiners), not a name.
func isEmoji(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < 0x2000 && r != 0x00A9 && r != 0x00AE {
			return false
		}
	}
	return len([]rune(s)) <= 12
}

// Variables keeps the entries of a YAML mapping that are valid variable values (strings of at
// most 256 characters, numbers, booleans), as GitBook's variables are; nil when none are.
func Variables(v any) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := map[string]any{}
	for k, val := range m {
		switch val := val.(type) {
		case string:
			if utf8.RuneCountInString(val) <= 256 {
				out[k] = val
			}
		case int, int64, uint64, float64, bool:
			out[k] = val
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
