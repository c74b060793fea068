package space

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/validate"
)

// Languages are the content languages a space may declare.
var Languages = []string{"en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl",
	"pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr",
	"lt", "lv", "et", "sl"}

func validateTitle(field string, title *string) error {
	if title == nil {
		return nil
	}
	*title = strings.TrimSpace(*title)
	return validate.Length(field, *title, 0, TitleMax)
}

// emojiCodepoints is the codepoint form of an emoji ("1f389", "1f468-200d-1f469").
var emojiCodepoints = regexp.MustCompile(`^[0-9a-f]{2,6}(-[0-9a-f]{2,6})*$`)

// validateEmoji accepts an emoji given as characters or as hexadecimal codepoints. As
// characters it must hold no letters, digits, spaces or control characters.
func validateEmoji(e string) error {
	if err := validate.Length("emoji", e, 1, EmojiMax); err != nil {
		return err
	}
	if emojiCodepoints.MatchString(e) {
		return nil
	}
	for _, r := range e {
		if r < utf8.RuneSelf || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r) || unicode.IsControl(r) {
			return apperr.Invalidf("emoji: must be an emoji, as characters or hexadecimal codepoints (got %q)", e)
		}
	}
	return nil
}

func validateIcon(u string) error { return validate.HTTPURL("icon", u, IconURLMax) }

func validateLanguage(l string) error { return validate.OneOf("language", l, Languages...) }

func validateVisibility(v string) error { return validate.OneOf("visibility", v, Visibilities...) }

func validateEditMode(m string) error {
	return validate.OneOf("editMode", m, string(Live), string(Locked))
}

// ParseLevel reads a default level given as a string ("inherit" or a role name) or null.
func ParseLevel(field string, v *string) (Level, error) {
	if v == nil {
		return NoAccess, nil
	}
	if *v == string(Inherit) {
		return Inherit, nil
	}
	if r, ok := auth.ParseRole(*v); ok {
		return Level(r), nil
	}
	return NoAccess, apperr.Invalidf("%s: must be inherit, one of %s, or null (got %q)", field, auth.RoleNames(), *v)
}

// checkInCollection enforces that only a space inside a collection is open to whoever can
// access that collection.
func checkInCollection(v Visibility, parent string) error {
	if v == InCollection && parent == "" {
		return apperr.Invalidf("visibility: in-collection is only for spaces inside a collection")
	}
	return nil
}
