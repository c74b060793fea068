package wire

import (
	"docsd/internal/richtext"
	"docsd/internal/translate"
)

// Translation is the `translation` object, with docsd's extensions: autoRun (the translation
// runs again when its source changes), provider (who made the latest run) and error (why
// the latest run failed, if it did).
type Translation struct {
	Object       string                `json:"object"`
	ID           string                `json:"id"`
	Status       string                `json:"status"`
	Source       TranslationSource     `json:"source"`
	Language     string                `json:"language"`
	Instructions richtext.Document     `json:"instructions"`
	Result       *TranslationResult    `json:"result,omitempty"`
	CreatedAt    Time                  `json:"createdAt"`
	UpdatedAt    Time                  `json:"updatedAt"`
	Stats        translate.Stats       `json:"stats"`
	Permissions  TranslationPermission `json:"permissions"`
	URLs         LocationURL           `json:"urls"`
	AutoRun      bool                  `json:"autoRun"`
	Provider     string                `json:"provider,omitempty"`
	Error        string                `json:"error,omitempty"`
}

type TranslationSource struct {
	Space    string `json:"space"`
	Language string `json:"language"`
}

// TranslationResult names the result space and the revision the latest run made; language
// is the result's (newer specs require it).
type TranslationResult struct {
	Space    string `json:"space"`
	Revision string `json:"revision"`
	Language string `json:"language"`
}

type TranslationPermission struct {
	View bool `json:"view"`
	Edit bool `json:"edit"`
}

// FromTranslation converts a translation as the caller sees it.
func (u URLs) FromTranslation(v translate.View) Translation {
	t := v.Translation
	out := Translation{Object: "translation", ID: t.ID, Status: t.Status,
		Source:   TranslationSource{Space: t.SourceSpace, Language: t.SourceLanguage},
		Language: t.Language, Instructions: t.Instructions, CreatedAt: Time(t.CreatedAt), UpdatedAt: Time(t.UpdatedAt),
		Stats: t.Stats, Permissions: TranslationPermission{View: true, Edit: v.CanEdit},
		URLs:    LocationURL{Location: u.OrgLocation(t.OrgID) + "/translations/" + Esc(t.ID)},
		AutoRun: t.AutoRun, Provider: t.Provider, Error: t.LastError}
	if t.ResultSpace != "" && t.ResultRevision != "" {
		out.Result = &TranslationResult{Space: t.ResultSpace, Revision: t.ResultRevision, Language: t.Language}
	}
	return out
}

// GlossaryEntry is the `glossary-entry` object.
type GlossaryEntry struct {
	Object       string            `json:"object"`
	ID           string            `json:"id"`
	Translations map[string]string `json:"translations"`
	CreatedAt    Time              `json:"createdAt"`
	UpdatedAt    Time              `json:"updatedAt"`
	URLs         LocationURL       `json:"urls"`
}

// FromGlossaryEntry converts a glossary entry.
func (u URLs) FromGlossaryEntry(e translate.GlossaryEntry) GlossaryEntry {
	return GlossaryEntry{Object: "glossary-entry", ID: e.ID, Translations: e.Translations, CreatedAt: Time(e.CreatedAt),
		UpdatedAt: Time(e.UpdatedAt),
		URLs:      LocationURL{Location: u.OrgLocation(e.OrgID) + "/translations-glossary/" + Esc(e.ID)}}
}
