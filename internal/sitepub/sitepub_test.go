package sitepub

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func TestUnsignedClaimsKeepOnlyWhatTheSchemaAdmits(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"plan":{"type":"string"},"unsigned":{"type":"object",
		"properties":{"beta":{"type":"boolean"},"lang":{"type":"string","enum":["en","fr"]},"seats":{"type":"number","maximum":100}}}}}`)
	cs := CompileClaimSchema(schema)
	got := cs.Unsigned(`{"beta":"yes","lang":"fr","plan":"pro","seats":500}`,
		map[string][]string{"visitor.beta": {"true"}, "visitor.plan": {"pro"}, "visitor.other": {"1"}, "beta": {"false"}, "visitor.seats": {"12"}})
	if len(got) != 3 || got["beta"] != true || got["lang"] != "fr" || got["seats"] != 12.0 {
		t.Fatalf("claims %v, want beta, lang and seats", got)
	}
	if got := cs.Unsigned(`{"lang":"de","seats":5}`, nil); len(got) != 1 || got["seats"] != 5.0 {
		t.Fatalf("a value outside the enum passes: %v", got)
	}
	if got := CompileClaimSchema(nil).Unsigned(`{"beta":true}`, map[string][]string{"visitor.beta": {"true"}}); len(got) != 0 {
		t.Fatalf("without a schema: %v", got)
	}
	if got := cs.Unsigned("not json", map[string][]string{"visitor.beta": {"maybe"}, "visitor.seats": {"x"}}); len(got) != 0 {
		t.Fatalf("bad values: %v", got)
	}
}

func TestConditionsHideOnErrorsAndBudgets(t *testing.T) {
	ev := NewEvaluator()
	c := Claims{Signed: map[string]any{"plan": "pro", "seats": 12.0}, Unsigned: map[string]any{"beta": true}}
	cases := map[string]bool{
		"":                                   true,
		`visitor.claims.plan == "pro"`:       true,
		`visitor.claims.plan == "free"`:      false,
		`visitor.claims.seats > 10`:          true,
		`visitor.claims.unsigned.beta`:       true,
		`visitor.claims.missing == true`:     false,
		`visitor.claims.plan`:                false, // not a boolean
		`visitor.claims.plan ==`:             false, // does not compile
		`len(map(1..1000000, {# * 2})) > 0`:  false, // over the memory budget
		`visitor.claims.nothing.deeper == 1`: false,
	}
	for cond, want := range cases {
		if got := ev.Visible(cond, c); got != want {
			t.Errorf("Visible(%q) = %v, want %v", cond, got, want)
		}
	}
	// Work is bounded too: nested loops run out of memory budget within milliseconds.
	for _, cond := range []string{
		`any(1..99, {any(1..99, {any(1..99, {any(1..99, {# == -1})})})})`,
		`len(join(map(1..100000, {string(#)}))) > 0`,
	} {
		start := time.Now()
		if ev.Visible(cond, c) {
			t.Errorf("%s holds", cond)
		}
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("%s ran for %v", cond, d)
		}
	}
	long := "true" + strings.Repeat(" && true", 300)
	if ev.Visible(long, c) {
		t.Errorf("a condition over the node budget holds")
	}
}

func TestVerifyToken(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	key := []byte("k")
	sign := func(m jwt.SigningMethod, k any, claims jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(m, claims).SignedString(k)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ok := sign(jwt.SigningMethodHS256, key, jwt.MapClaims{"exp": now.Add(time.Minute).Unix(), "plan": "pro"})
	if c, err := VerifyToken(ok, key, now); err != nil || c["plan"] != "pro" {
		t.Fatalf("valid token: %v %v", c, err)
	}
	for name, tc := range map[string]struct {
		token string
		want  error
	}{
		"expired":     {sign(jwt.SigningMethodHS256, key, jwt.MapClaims{"exp": now.Add(-time.Second).Unix()}), ErrTokenExpired},
		"no expiry":   {sign(jwt.SigningMethodHS256, key, jwt.MapClaims{"plan": "pro"}), ErrTokenInvalid},
		"other alg":   {sign(jwt.SigningMethodHS512, key, jwt.MapClaims{"exp": now.Add(time.Minute).Unix()}), ErrTokenInvalid},
		"unsigned":    {sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, jwt.MapClaims{"exp": now.Add(time.Minute).Unix()}), ErrTokenInvalid},
		"other key":   {sign(jwt.SigningMethodHS256, []byte("x"), jwt.MapClaims{"exp": now.Add(time.Minute).Unix()}), ErrTokenInvalid},
		"empty":       {"", ErrNoToken},
		"too large":   {strings.Repeat("a", maxTokenBytes+1), ErrTokenInvalid},
		"not a token": {"a.b.c", ErrTokenInvalid},
	} {
		if _, err := VerifyToken(tc.token, key, now); err != tc.want {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
	if _, err := VerifyToken(ok, nil, now); err != ErrNoSigningKey {
		t.Errorf("no key: %v", err)
	}
}

func TestLocate(t *testing.T) {
	st := Structure{Top: []Node{
		{Section: &Section{ID: "s1", Path: "guides", Default: true, SiteSpaces: []SiteSpace{
			{ID: "a", Path: "v2", Default: true}, {ID: "b", Path: "v1"}}}},
		{Group: &Group{ID: "g", Children: []Node{{Section: &Section{ID: "s2", Path: "api", SiteSpaces: []SiteSpace{{ID: "c", Path: "rest", Default: true}}}}}}},
	}}
	for path, want := range map[string][3]string{
		"":                 {"s1", "a", ""},
		"setup/linux":      {"s1", "a", "setup/linux"},
		"v1/setup":         {"s1", "b", "setup"},
		"v1":               {"s1", "b", ""},
		"api/":             {"s2", "c", ""},
		"api/auth/tokens":  {"s2", "c", "auth/tokens"},
		"apis/x":           {"s1", "a", "apis/x"},
		"/v1/setup/":       {"s1", "b", "setup"},
		"api/rest/history": {"s2", "c", "rest/history"}, // the default site space takes no segment
	} {
		loc, ok := Locate(st, path)
		if !ok || loc.Section.ID != want[0] || loc.SiteSpace.ID != want[1] || loc.PagePath != want[2] {
			t.Errorf("Locate(%q) = %s %s %q, want %v", path, loc.Section.ID, loc.SiteSpace.ID, loc.PagePath, want)
		}
	}
	if _, ok := Locate(Structure{}, ""); ok {
		t.Errorf("an empty site locates something")
	}
	// When a condition hides the default section, the first visible one becomes the default.
	cond := "false"
	st.Top[0].Section.Condition = cond
	vis := Visible(st, NewEvaluator(), Claims{})
	if loc, _ := Locate(vis, ""); loc.Section.ID != "s2" || Prefix(loc.Section, loc.SiteSpace) != "" {
		t.Errorf("with the default section hidden: %s, prefix %q", loc.Section.ID, Prefix(loc.Section, loc.SiteSpace))
	}
}

func TestConditionalBlocks(t *testing.T) {
	s := &Service{eval: NewEvaluator()}
	md := "Intro\n{% if visitor.claims.beta %}\nBeta text\n{% if visitor.claims.pro %}\nBeta pro\n{% else %}\nBeta free\n{% endif %}\n{% else %}\nStable text\n{% endif %}\n" +
		"```\n{% if false %}\nin code\n{% endif %}\n```\nOutro\n{% endif %}\n"
	cases := map[string]struct {
		claims map[string]any
		want   string
	}{
		"none":     {nil, "Intro\nStable text\n```\n{% if false %}\nin code\n{% endif %}\n```\nOutro\n{% endif %}\n"},
		"beta":     {map[string]any{"beta": true}, "Intro\nBeta text\nBeta free\n```\n{% if false %}\nin code\n{% endif %}\n```\nOutro\n{% endif %}\n"},
		"beta pro": {map[string]any{"beta": true, "pro": true}, "Intro\nBeta text\nBeta pro\n```\n{% if false %}\nin code\n{% endif %}\n```\nOutro\n{% endif %}\n"},
		"pro only": {map[string]any{"pro": true}, "Intro\nStable text\n```\n{% if false %}\nin code\n{% endif %}\n```\nOutro\n{% endif %}\n"},
	}
	for name, tc := range cases {
		if got := s.Conditional(md, Claims{Signed: tc.claims}); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", name, got, tc.want)
		}
	}
	if got := s.Conditional("A\n{% if broken ( %}\nB\n", Claims{}); got != "A\n" {
		t.Errorf("an unclosed, broken condition: %q", got)
	}
}

func TestCanonical(t *testing.T) {
	st := Structure{Top: []Node{
		{Section: &Section{ID: "s1", Path: "guides", Default: true, SiteSpaces: []SiteSpace{
			{ID: "a", Path: "v2", Default: true}, {ID: "b", Path: "v1"}}}},
		{Section: &Section{ID: "s2", Path: "api", SiteSpaces: []SiteSpace{{ID: "c", Path: "rest", Default: true}}}},
	}}
	for path, want := range map[string]string{
		"guides/v2/setup": "setup",
		"guides/setup":    "setup",
		"v2/setup":        "setup",
		"guides/v1/setup": "v1/setup",
		"api/rest/auth":   "api/auth",
		"guides":          "",
	} {
		if got, ok := Canonical(st, path); !ok || got != want {
			t.Errorf("Canonical(%q) = %q %v, want %q", path, got, ok, want)
		}
	}
	for _, path := range []string{"setup", "api/auth", "v1/setup"} {
		if got, ok := Canonical(st, path); ok {
			t.Errorf("Canonical(%q) = %q, want nothing to rewrite", path, got)
		}
	}
}
