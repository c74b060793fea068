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
