package comment

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckEmoji(t *testing.T) {
	for _, ok := range []string{"👍", "🎉", "❤️", "👍🏽", "👨‍👩‍👧", "🇫🇷", "1️⃣", "#️⃣", "🏳️‍🌈", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "✅"} {
		if err := checkEmoji("e", ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a", "1", "👍 ", " 👍", "ok👍", "\u200d", "\ufe0f", "👍\n", strings.Repeat("👍", EmojiMax+1), "\xff"} {
		if err := checkEmoji("e", bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if err := checkEmoji("e", strings.Repeat("👍", EmojiMax)); err != nil {
		t.Errorf("%d emoji refused: %v", EmojiMax, err)
	}
}

func TestNormalizeEmoji(t *testing.T) {
	for in, want := range map[string]string{
		"👍": "👍", "1f44d": "👍", "1F44D": "👍", "U+1F44D": "👍", "1f44d-1f3fd": "👍🏽",
		"1f468-200d-1f469-200d-1f467": "👨\u200d👩\u200d👧", "2764-fe0f": "❤️", "31-fe0f-20e3": "1️⃣",
		"1f1eb-1f1f7": "🇫🇷",
	} {
		got, err := normalizeEmoji("e", in)
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"1", "41", "d800", "110000", "1f44d-", "-1f44d", "1f44d--1f44d", "ok", "1f44dz",
		strings.Repeat("1f44d-", 9) + "1f44d"} {
		if got, err := normalizeEmoji("e", bad); err == nil || !strings.Contains(err.Error(), "e:") {
			t.Errorf("%q accepted as %q (%v)", bad, got, err)
		}
	}
}

func TestBodyMarkdown(t *testing.T) {
	for raw, want := range map[string]string{`{"markdown":"hi"}`: "hi", ` {"markdown":"**x**"} `: "**x**"} {
		got, err := BodyMarkdown("body", json.RawMessage(raw))
		if err != nil || got != want {
			t.Errorf("%s: %q, %v", raw, got, err)
		}
	}
	for raw, field := range map[string]string{
		``: "body", `null`: "body", `[]`: "body", `{}`: "body.markdown", `{"markdown":1}`: "body.markdown",
		`{"markdown":" "}`: "body.markdown", `{"document":{}}`: "body.document", `{"markdown":"x","y":1}`: "body.y",
	} {
		_, err := BodyMarkdown("body", json.RawMessage(raw))
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: error %v does not name %s", raw, err, field)
		}
	}
}
