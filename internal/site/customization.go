package site

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
)

// customizationSchema is the shape of a site's customization, as the public specification
// defines SiteCustomizationSettings, rewritten as a JSON Schema draft-07 document (OpenAPI's
// `nullable` as a null type, references under `definitions`, descriptions left out), with
// one change: the top level is closed (additionalProperties false), so a misspelt or unknown
// setting is refused rather than stored where nothing reads it.
//
//go:embed customization.schema.json
var customizationSchemaDoc []byte

var customizationSchema = mustCompile("docsd:site-customization.json", customizationSchemaDoc)

// defaultCustomization is the customization of a site that has none: every field the
// specification requires, with the values a new site starts with.
var defaultCustomization = []byte(`{
 "styling": {
  "theme": "clean",
  "primaryColor": {"light": "#346DDB", "dark": "#346DDB"},
  "infoColor": {"light": "#787878", "dark": "#787878"},
  "successColor": {"light": "#00C950", "dark": "#00C950"},
  "warningColor": {"light": "#FE9A00", "dark": "#FE9A00"},
  "dangerColor": {"light": "#FB2C36", "dark": "#FB2C36"},
  "corners": "rounded",
  "depth": "subtle",
  "links": "default",
  "font": "Inter",
  "monospaceFont": "IBMPlexMono",
  "background": "plain",
  "icons": "regular",
  "sidebar": {"background": "default", "list": "default"},
  "search": "prominent"
 },
 "internationalization": {"locale": "en"},
 "favicon": {},
 "header": {"preset": "default", "links": []},
 "footer": {"groups": []},
 "themes": {"default": "light", "toggeable": true},
 "pdf": {"enabled": true},
 "feedback": {"enabled": false},
 "ai": {"mode": "none"},
 "advancedCustomization": {"enabled": true},
 "git": {"showEditLink": false},
 "pageActions": {"externalAI": true, "markdown": true, "mcp": true},
 "externalLinks": {"target": "self"},
 "pagination": {"enabled": true},
 "trademark": {"enabled": true},
 "privacyPolicy": {},
 "socialPreview": {},
 "insights": {"trackingCookie": true}
}`)

// ThemedColor is a colour for the light and the dark theme ("#RRGGBB" or "#RGB").
type ThemedColor struct {
	Light string `json:"light"`
	Dark  string `json:"dark"`
}

// ThemedURL is a URL for the light and the dark theme.
type ThemedURL struct {
	Light string `json:"light"`
	Dark  string `json:"dark"`
}

// ContentRef is a link target: kind "url" with URL, or a reference to content (page,
// space, file, ...) by id. Only the fields serving needs are named.
type ContentRef struct {
	Kind  string `json:"kind"`
	URL   string `json:"url,omitempty"`
	Page  string `json:"page,omitempty"`
	Space string `json:"space,omitempty"`
	File  string `json:"file,omitempty"`
}

// ContentLink is a titled link.
type ContentLink struct {
	Title string      `json:"title"`
	To    *ContentRef `json:"to"`
}

// HeaderLink is a link of the header, with optional nested links and a condition.
type HeaderLink struct {
	Title     string        `json:"title"`
	Style     string        `json:"style,omitempty"`
	To        *ContentRef   `json:"to"`
	Links     []ContentLink `json:"links"`
	Condition string        `json:"condition,omitempty"`
}

// Customization is the effective customization of a site or site space, as serving reads
// it: the fields a page needs, typed. The whole document stays available as Raw.
type Customization struct {
	Title   string `json:"title,omitempty"`
	Styling struct {
		Theme        string      `json:"theme"`
		PrimaryColor ThemedColor `json:"primaryColor"`
		InfoColor    ThemedColor `json:"infoColor"`
		SuccessColor ThemedColor `json:"successColor"`
		WarningColor ThemedColor `json:"warningColor"`
		DangerColor  ThemedColor `json:"dangerColor"`
		Tint         *struct {
			Color ThemedColor `json:"color"`
		} `json:"tint,omitempty"`
		Corners string `json:"corners"`
		Search  string `json:"search"`
	} `json:"styling"`
	Favicon struct {
		Icon  *ThemedURL `json:"icon,omitempty"`
		Emoji string     `json:"emoji,omitempty"`
	} `json:"favicon"`
	Header struct {
		Preset string       `json:"preset"`
		Logo   *ThemedURL   `json:"logo,omitempty"`
		Links  []HeaderLink `json:"links"`
	} `json:"header"`
	Footer struct {
		Logo   *ThemedURL `json:"logo,omitempty"`
		Groups []struct {
			Title string        `json:"title"`
			Links []ContentLink `json:"links"`
		} `json:"groups"`
		Copyright string `json:"copyright,omitempty"`
	} `json:"footer"`
	Announcement *struct {
		Enabled bool         `json:"enabled"`
		Message string       `json:"message"`
		Link    *ContentLink `json:"link,omitempty"`
		Style   string       `json:"style"`
	} `json:"announcement,omitempty"`
	Themes struct {
		Default   string `json:"default"`
		Toggeable bool   `json:"toggeable"`
	} `json:"themes"`
	Pagination struct {
		Enabled bool `json:"enabled"`
	} `json:"pagination"`
	ExternalLinks struct {
		Target string `json:"target"`
	} `json:"externalLinks"`
	Raw json.RawMessage `json:"-"`
}

func decodeCustomization(raw []byte) (Customization, error) {
	var c Customization
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, fmt.Errorf("site: stored customization: %w", err)
	}
	c.Raw = raw
	return c, nil
}

// effectiveSite is a site's customization document.
func effectiveSite(st Site) json.RawMessage {
	if len(st.Customization) == 0 {
		return completeCustomization(defaultCustomization)
	}
	return completeCustomization(st.Customization)
}

// completeCustomization adds to a customization document the settings newer versions of the
// public spec require and older documents (and older clients) lack, with what they mean
// there: the code themes docsd highlights with, no social accounts, and the page actions as
// a list as well as booleans (each derived from the other, so clients of either version read
// the actions enabled). A document that cannot be read is left as it is.
func completeCustomization(raw json.RawMessage) json.RawMessage {
	var doc map[string]any
	if json.Unmarshal(raw, &doc) != nil || doc == nil {
		return raw
	}
	if _, ok := doc["socialAccounts"]; !ok {
		doc["socialAccounts"] = []any{}
	}
	if styling, ok := doc["styling"].(map[string]any); ok {
		if _, ok := styling["codeTheme"]; !ok {
			themed := map[string]any{"light": "default-light", "dark": "default-dark"}
			styling["codeTheme"] = map[string]any{"default": themed, "openapi": themed}
		}
	}
	if pa, ok := doc["pageActions"].(map[string]any); ok {
		flags := []struct{ flag, item string }{{"externalAI", "external-ai"}, {"markdown", "markdown"}, {"mcp", "mcp"}}
		if items, ok := pa["items"].([]any); ok {
			for _, f := range flags {
				if _, set := pa[f.flag]; !set {
					pa[f.flag] = slices.Contains(items, any(f.item))
				}
			}
		} else {
			items := []any{}
			for _, f := range flags {
				if pa[f.flag] == true {
					items = append(items, f.item)
				}
			}
			pa["items"] = items
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return raw
	}
	return out
}

// effectiveSiteSpace is the site's customization with a site space's overrides merged in.
func effectiveSiteSpace(st Site, ss SiteSpace) (json.RawMessage, error) {
	base := effectiveSite(st)
	if len(ss.Customization) == 0 {
		return base, nil
	}
	return mergePatch(base, ss.Customization)
}

// mergePatch applies patch to doc as a JSON merge patch (RFC 7396): objects merge key by
// key, null removes a key, anything else replaces.
func mergePatch(doc, patch []byte) (json.RawMessage, error) {
	var d, p any
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(patch, &p); err != nil {
		return nil, err
	}
	return json.Marshal(mergeValue(d, p))
}

func mergeValue(doc, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	dm, ok := doc.(map[string]any)
	if !ok {
		dm = map[string]any{}
	}
	for k, v := range pm {
		if v == nil {
			delete(dm, k)
			continue
		}
		dm[k] = mergeValue(dm[k], v)
	}
	return dm
}
