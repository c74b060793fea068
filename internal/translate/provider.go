package translate

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"docsd/internal/apperr"
)

// Request is one call to a provider: segments (HTML fragments whose `<x id="N"/>`
// placeholders must come back unchanged) from one language to another. Instructions are the
// translation's, as plain text; only the language model reads them.
type Request struct {
	From, To     string
	Instructions string
	Segments     []string
}

// Provider translates text. Implementations: Apertium (offline, for the pairs installed), an
// OpenAI-compatible language model, LibreTranslate and DeepL.
type Provider interface {
	Name() string
	// Covers reports whether the provider can translate from one API language to another.
	Covers(from, to string) bool
	// Translate returns one translation per segment, in order.
	Translate(ctx context.Context, req Request) ([]string, error)
}

// Providers picks the provider of a run: the one configured by name, or with "auto" the
// language model when one is configured, else the first of the others that covers the pair.
type Providers struct {
	choice string     // auto, llm, apertium, libretranslate, deepl
	all    []Provider // in the order auto tries them
}

// NewProviders returns the set; choice is DOCSD_TRANSLATE_PROVIDER.
func NewProviders(choice string, all ...Provider) *Providers {
	var present []Provider
	for _, p := range all {
		if p != nil {
			present = append(present, p)
		}
	}
	return &Providers{choice: choice, all: present}
}

// Names lists the configured providers.
func (ps *Providers) Names() []string {
	var out []string
	for _, p := range ps.all {
		out = append(out, p.Name())
	}
	return out
}

// For returns the provider for a pair, or a 400 that names the pair and how to add one.
func (ps *Providers) For(from, to string) (Provider, error) {
	for _, p := range ps.all {
		if (ps.choice == "auto" || ps.choice == "" || ps.choice == p.Name()) && p.Covers(from, to) {
			return p, nil
		}
	}
	configured := "none"
	if names := ps.Names(); len(names) > 0 {
		configured = strings.Join(names, ", ")
	}
	return nil, apperr.Invalidf("no translation provider covers %s → %s (DOCSD_TRANSLATE_PROVIDER=%s; configured: %s). "+
		"Add one: a language model with DOCSD_LLM_BASE_URL and DOCSD_LLM_MODEL, Apertium with the pair's package "+
		"(apt-get install apertium-<pair>, e.g. apertium-eng-spa), LibreTranslate with DOCSD_LIBRETRANSLATE_URL, "+
		"or DeepL with DOCSD_DEEPL_API_KEY", from, to, cmpOr(ps.choice, "auto"), configured)
}

func cmpOr(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// iso639_3 maps the API's languages to the three-letter codes Apertium's pairs use.
var iso639_3 = map[string]string{"en": "eng", "fr": "fra", "de": "deu", "es": "spa", "it": "ita", "pt": "por",
	"pt-br": "por", "ru": "rus", "ja": "jpn", "zh": "zho", "ko": "kor", "ar": "ara", "hi": "hin", "nl": "nld",
	"pl": "pol", "tr": "tur", "sv": "swe", "no": "nob", "da": "dan", "fi": "fin", "el": "ell", "cs": "ces",
	"hu": "hun", "ro": "ron", "th": "tha", "vi": "vie", "id": "ind", "ms": "msa", "he": "heb", "uk": "ukr",
	"sk": "slk", "bg": "bul", "hr": "hrv", "lt": "lit", "lv": "lav", "et": "est", "sl": "slv"}

// sortedPairs formats pairs for logs and errors.
func sortedPairs(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// errorf wraps a provider failure with its name.
func errorf(name string, format string, args ...any) error {
	return fmt.Errorf("%s: "+format, append([]any{name}, args...)...)
}
