package search

import (
	"reflect"
	"strings"
	"testing"

	"docsd/internal/apperr"
	"docsd/internal/contenttree"
)

func TestTokens(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{
		"Hello, World!":        {"hello", "world"},
		"Crème brûlée à CAFÉ":  {"creme", "brulee", "a", "cafe"},
		"e-mail v2.0":          {"e", "mail", "v2", "0"},
		"这是文档 system":          {"这", "是", "文", "档", "system"},
		"ｆｕｌｌ ｗｉｄｔｈ ①":         {"full", "width", "1"},
		"Ελληνικά кириллица":   {"ελληνικα", "кириллица"},
		"  ...  ":              nil,
		"straße ĳssel":         {"straße", "ijssel"},
		"emoji 🎉 between":      {"emoji", "between"},
		"tab\tand\nnewline_ok": {"tab", "and", "newline", "ok"},
	} {
		if got := Tokens(in, 0); !reflect.DeepEqual(got, want) {
			t.Errorf("Tokens(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Tokens("a b c d", 2); len(got) != 2 {
		t.Errorf("capped tokens %q", got)
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]Term{
		"install guide":          {{Words: []string{"install"}}, {Words: []string{"guide"}}},
		"instal*":                {{Words: []string{"instal"}, Prefix: true}},
		`"getting started" now`:  {{Words: []string{"getting", "started"}}, {Words: []string{"now"}}},
		`say "unclosed phrase`:   {{Words: []string{"say"}}, {Words: []string{"unclosed", "phrase"}}},
		"e-mail":                 {{Words: []string{"e", "mail"}}},
		"文档":                     {{Words: []string{"文", "档"}}},
		`* "" -- !!`:             nil,
		`AND OR NOT NEAR scope:`: {{Words: []string{"and"}}, {Words: []string{"or"}}, {Words: []string{"not"}}, {Words: []string{"near"}}, {Words: []string{"scope"}}},
	} {
		q, err := Parse(in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", in, err)
		}
		if !reflect.DeepEqual(q.Terms, want) {
			t.Errorf("Parse(%q) = %+v, want %+v", in, q.Terms, want)
		}
	}
	for _, in := range []string{"", "   ", strings.Repeat("x", MaxQueryLength+1)} {
		if _, err := Parse(in); !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), "query") {
			t.Errorf("Parse(%.20q) = %v, want a 400 naming query", in, err)
		}
	}
	if _, err := Parse(strings.Repeat("é", MaxQueryLength)); err != nil {
		t.Errorf("512 two-byte characters: %v", err)
	}
	q, _ := Parse(strings.Repeat("w ", 100))
	if len(q.Terms) != maxTerms {
		t.Errorf("%d terms kept, want %d", len(q.Terms), maxTerms)
	}
}

func TestExcerpt(t *testing.T) {
	t.Parallel()
	marks := func(s string) []Term { q, _ := Parse(s); return q.highlights() }
	long := strings.Repeat("filler words go here ", 20) + "the Kestrel hovers " + strings.Repeat("more text after ", 20)
	got := Excerpt(long, marks("kestrel"))
	if !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || !strings.Contains(got, "the Kestrel hovers") || len(got) > excerptBytes+10 {
		t.Errorf("excerpt %q", got)
	}
	if got := Excerpt(long, marks("kestr*")); !strings.Contains(got, "Kestrel") {
		t.Errorf("prefix excerpt %q", got)
	}
	if got := Excerpt(long, marks("absent")); !strings.HasPrefix(got, "filler") {
		t.Errorf("no-match excerpt %q", got)
	}
	if got := Excerpt("short  text\n here", marks("text")); got != "short text here" {
		t.Errorf("short excerpt %q", got)
	}
	accents := strings.Repeat("word ", 60) + "un café noir " + strings.Repeat("word ", 60)
	if got := Excerpt(accents, marks("cafe")); !strings.Contains(got, "café") {
		t.Errorf("folded excerpt %q", got)
	}
}

func TestScorer(t *testing.T) {
	t.Parallel()
	q, _ := Parse("kestrel hunt*")
	s := NewScorer(q, Corpus{Sections: 1000, AvgWords: 20}, []int{10, 500})
	inTitle, short := s.Score("birds", "kestrel hunts kestrel hunting")
	_, long := s.Score("birds", "kestrel hunts "+strings.Repeat("filler ", 200))
	titled, _ := s.Score("kestrel hunting", "nothing")
	if inTitle || !titled || short <= long || long <= 0 {
		t.Errorf("inTitle %v titled %v short %v long %v", inTitle, titled, short, long)
	}
	// The rarer word weighs more.
	_, rare := s.Score("x", "kestrel kestrel kestrel hunts")
	_, common := s.Score("x", "kestrel hunts hunts hunts")
	if rare <= common {
		t.Errorf("rare-term tf %v <= common-term tf %v", rare, common)
	}
	p, _ := Parse(`"brown fox"`)
	ps := NewScorer(p, Corpus{Sections: 10, AvgWords: 5}, []int{1})
	if _, sc := ps.Score("", "fox brown"); sc != 0 {
		t.Errorf("reversed phrase scored %v", sc)
	}
}

func TestPageRows(t *testing.T) {
	t.Parallel()
	p := contenttree.Page{ID: "p", Kind: contenttree.KindDocument, Title: "Guide", Description: "About it.",
		Markdown: "Intro text.\n\n# Install\n\nRun it.\n\n## Configure\n\nSet it.\n"}
	rows := PageRows("s", p)
	if len(rows) != 3 || rows[0].Title != "Guide" || rows[0].Body != "About it.\nIntro text." || rows[0].SectionID != "" ||
		rows[1].Title != "Install" || rows[1].SectionID == "" || rows[1].Position != 1 || rows[2].Title != "Configure" {
		t.Errorf("rows %+v", rows)
	}
	p.NoIndex = true
	if len(PageRows("s", p)) != 0 {
		t.Error("a noIndex page was indexed")
	}
	if len(PageRows("s", contenttree.Page{ID: "g", Kind: contenttree.KindGroup, Title: "Group"})) != 0 {
		t.Error("a group was indexed")
	}
}
