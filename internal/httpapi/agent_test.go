package httpapi_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/richtext"
)

const sampleInstructions = `{"object":"document","data":{"schemaVersion":1},"nodes":[
	{"object":"block","type":"heading-1","key":"h","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Tone","marks":[]}]}]},
	{"object":"block","type":"paragraph","key":"p","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Answer ","marks":[]},{"object":"leaf","text":"briefly","marks":[{"object":"mark","type":"bold"}]}]}]},
	{"object":"block","type":"list-unordered","nodes":[{"object":"block","type":"list-item","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"cite pages","marks":[]}]}]}]}]}]}`

// instructionsOf returns the compact JSON of an answer's `instructions`.
func instructionsOf(t *testing.T, r *apitest.Resp) string {
	t.Helper()
	var body struct {
		Instructions json.RawMessage `json:"instructions"`
	}
	r.JSON(&body)
	var out bytes.Buffer
	if err := json.Compact(&out, body.Instructions); err != nil {
		t.Fatalf("instructions: %v; body %s", err, r.Body)
	}
	return out.String()
}

func compact(t *testing.T, s string) string {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestAgentInstructions(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := "/v1/orgs/" + e.Org + "/agent-instructions"
	reader := e.Member("reader", auth.Read)

	t.Run("before any PUT: an empty document, dated from the organization's creation by its owner", func(t *testing.T) {
		orgCreated := e.Get(e.Admin, "/v1/orgs/"+e.Org).Expect(200).Str("createdAt")
		if orgCreated == "" {
			t.Fatal("the organization has no createdAt")
		}
		for _, a := range []apitest.Actor{e.Admin, reader} {
			r := e.Get(a, path).Expect(200)
			if r.Str("object") != "agent-instructions" || r.Str("urls.location") != e.URL+path {
				t.Errorf("shape: %s", r.Body)
			}
			if got := instructionsOf(t, r); got != `{"object":"document","data":{},"nodes":[]}` {
				t.Errorf("instructions = %s, want the empty document", got)
			}
			// The API requires both: the organization's creation, by the admin who made it.
			if r.Str("updatedAt") != orgCreated || r.Str("updatedBy") != e.Admin.ID {
				t.Errorf("updatedAt/updatedBy before any PUT: %s, want %s by %s", r.Body, orgCreated, e.Admin.ID)
			}
		}
	})

	at := time.Date(2026, 3, 4, 5, 6, 7, 891000000, time.UTC)
	e.Clock.Set(at)
	r := e.Put(e.Admin, path, `{"instructions": `+sampleInstructions+`}`).Expect(200)
	if instructionsOf(t, r) != compact(t, sampleInstructions) || r.Str("updatedAt") != "2026-03-04T05:06:07.891Z" ||
		r.Str("updatedBy") != e.Admin.ID || r.Str("object") != "agent-instructions" || r.Str("urls.location") != e.URL+path {
		t.Fatalf("PUT answer: %s", r.Body)
	}
	for _, a := range []apitest.Actor{e.Admin, reader} {
		g := e.Get(a, path).Expect(200)
		if instructionsOf(t, g) != compact(t, sampleInstructions) || g.Str("updatedAt") != "2026-03-04T05:06:07.891Z" || g.Str("updatedBy") != e.Admin.ID {
			t.Errorf("GET after PUT: %s", g.Body)
		}
	}

	t.Run("another admin replaces them", func(t *testing.T) {
		admin2 := e.Member("admin2", auth.Admin)
		e.Clock.Set(at.Add(time.Hour))
		doc := `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Be kind.","marks":[]}]}]}]}`
		e.Put(admin2, path, map[string]json.RawMessage{"instructions": json.RawMessage(doc)}).Expect(200)
		g := e.Get(reader, path).Expect(200)
		if instructionsOf(t, g) != doc || g.Str("updatedBy") != admin2.ID || g.Str("updatedAt") != "2026-03-04T06:06:07.891Z" {
			t.Errorf("after the second PUT: %s", g.Body)
		}
	})

	t.Run("permissions", func(t *testing.T) {
		before := e.Get(e.Admin, path).Expect(200)
		body := map[string]json.RawMessage{"instructions": json.RawMessage(sampleInstructions)}
		e.Put(reader, path, body).Expect(403)
		e.Put(e.Member("editor", auth.Edit), path, body).Expect(403)
		outsider := e.NewUser("outsider")
		e.Put(outsider, path, body).Expect(404)
		e.Get(outsider, path).Expect(404)
		e.Get(e.Member("guest", auth.Guest), path).Expect(403)
		e.Get(e.Admin, "/v1/orgs/nosuchorg/agent-instructions").Expect(404)
		e.Get(apitest.Anonymous, path).Expect(401)
		if after := e.Get(e.Admin, path).Expect(200); string(after.Body) != string(before.Body) {
			t.Errorf("refused PUTs changed the instructions: %s", after.Body)
		}
	})
}

func TestAgentInstructionsValidation(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := "/v1/orgs/" + e.Org + "/agent-instructions"
	para := func(s string) string {
		return `{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"` + s + `","marks":[]}]}]}`
	}
	cases := []struct {
		name, body string
		msg        []string
	}{
		{"instructions missing", `{}`, []string{"instructions", "required"}},
		{"instructions null", `{"instructions": null}`, []string{"instructions", "document", "null"}},
		{"not a document", `{"instructions": "Be brief"}`, []string{"instructions: must be a rich-text document object"}},
		{"wrong object", `{"instructions": {"object":"page","data":{},"nodes":[]}}`, []string{`instructions.object: must be "document"`}},
		{"unknown block type", `{"instructions": {"object":"document","data":{},"nodes":[` + para("a") + `,` + para("b") + `,{"object":"block","type":"foo","nodes":[]}]}}`,
			[]string{`instructions.nodes[2].type: unknown block type "foo"`}},
		{"list item at the top", `{"instructions": {"object":"document","data":{},"nodes":[{"object":"block","type":"list-item","nodes":[]}]}}`,
			[]string{`instructions.nodes[0].type`, "list-item"}},
		{"bad leaf", `{"instructions": {"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf"}]}]}]}}`,
			[]string{`instructions.nodes[0].nodes[0].leaves[0].text: is required`}},
		{"unknown body field", `{"instructions": {"object":"document","data":{},"nodes":[]}, "title": "x"}`, []string{"title", "unknown"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.Put(e.Admin, path, c.body).Expect(400).ExpectMessage(c.msg...)
		})
	}
	orgCreated := e.Get(e.Admin, "/v1/orgs/"+e.Org).Expect(200).Str("createdAt")
	if g := e.Get(e.Admin, path).Expect(200); g.Str("updatedAt") != orgCreated || instructionsOf(t, g) != `{"object":"document","data":{},"nodes":[]}` {
		t.Errorf("a refused PUT stored instructions: %s", g.Body)
	}

	t.Run("size: at the limit and one byte beyond", func(t *testing.T) {
		max := richtext.DefaultLimits.MaxBytes
		skeleton := `{"object":"document","data":{},"nodes":[` + para("") + `]}`
		fill := max - len(skeleton)
		atLimit := strings.Replace(skeleton, `"text":""`, `"text":"`+strings.Repeat("x", fill)+`"`, 1)
		if len(atLimit) != max {
			t.Fatalf("document is %d bytes, want %d", len(atLimit), max)
		}
		r := e.Put(e.Admin, path, `{"instructions": `+atLimit+`}`).Expect(200)
		if len(instructionsOf(t, r)) != max {
			t.Error("the stored document lost bytes")
		}
		over := strings.Replace(atLimit, `"text":"x`, `"text":"xx`, 1)
		e.Put(e.Admin, path, `{"instructions": `+over+`}`).Expect(400).ExpectMessage("instructions", "524288")
		if len(instructionsOf(t, e.Get(e.Admin, path).Expect(200))) != max {
			t.Error("the refused document replaced the stored one")
		}
	})
	t.Run("depth beyond the limit", func(t *testing.T) {
		inner := para("deep")
		for i := 0; i < richtext.DefaultLimits.MaxDepth; i++ {
			inner = `{"object":"block","type":"blockquote","nodes":[` + inner + `]}`
		}
		e.Put(e.Admin, path, `{"instructions": {"object":"document","data":{},"nodes":[`+inner+`]}}`).
			Expect(400).ExpectMessage("instructions.nodes[0]", "32 levels")
	})
}
