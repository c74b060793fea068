package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/markdoc"
	"docsd/internal/spacelinks"
)

func applyTemplate(e *apitest.Env, a apitest.Actor, spaceID string, body any) *apitest.Resp {
	return e.Post(a, "/v1/spaces/"+spaceID+"/content/template", body)
}

// linksResolve checks that every relative link of the space's head points at one of its pages
// or files, and returns how many were checked.
func linksResolve(t *testing.T, e *apitest.Env, spaceID string) int {
	t.Helper()
	tree, err := e.App.Content.Tree(t.Context(), headOf(e, spaceID))
	if err != nil {
		t.Fatal(err)
	}
	r := spacelinks.New(tree)
	n := 0
	for id, p := range tree.Pages {
		for _, l := range markdoc.Links(p.Markdown) {
			if l.Kind != markdoc.LinkPage && l.Kind != markdoc.LinkFile {
				continue
			}
			n++
			if _, ok := r.Resolve(id, l.Dest); !ok {
				t.Errorf("page %q: link %q resolves to nothing", p.Title, l.Dest)
			}
		}
	}
	return n
}

func TestApplyTemplate(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)

	t.Run("getting-started: linked pages with headings and an image, as a new revision", func(t *testing.T) {
		sp := newSpace(t, e, e.Admin, e.Org, nil)
		before := headOf(e, sp)
		r := applyTemplate(e, e.Admin, sp, map[string]any{"id": "getting-started", "params": map[string]any{"contentRefs": map[string]any{}}}).Expect(201)
		head := headOf(e, sp)
		// The spec declares 201 with no content: no body, no Content-Type.
		if head == before || len(r.Body) != 0 || r.Header.Get("Content-Type") != "" ||
			!strings.HasSuffix(r.Header.Get("Location"), "/revisions/"+head) {
			t.Fatalf("head %s, answer %q, headers %v", head, r.Body, r.Header)
		}
		pages := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200)
		if pages.Str("pages.0.title") != "Welcome" || pages.Str("pages.1.title") != "Quickstart" ||
			pages.Str("pages.2.pages.0.path") != "guides/writing-pages" {
			t.Fatalf("pages %s", pages.Body)
		}
		md := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/path/quickstart?format=markdown").Expect(200).Str("markdown")
		if !strings.Contains(md, "## Install") || !strings.Contains(md, "](guides/writing-pages.md#structure)") {
			t.Errorf("quickstart markdown %q", md)
		}
		files := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/files").Expect(200)
		if files.Str("items.0.name") != "welcome.png" || files.Str("items.0.contentType") != "image/png" {
			t.Errorf("files %s", files.Body)
		}
		if n := linksResolve(t, e, sp); n < 8 {
			t.Errorf("only %d links checked", n)
		}
		t.Run("a space with pages refuses another template: 409, nothing written", func(t *testing.T) {
			applyTemplate(e, e.Admin, sp, map[string]any{"id": "api-reference"}).ExpectError(409).ExpectMessage("already has")
			if headOf(e, sp) != head {
				t.Error("the head moved")
			}
		})
	})
	t.Run("api-reference: an API reference skeleton", func(t *testing.T) {
		sp := newSpace(t, e, e.Admin, e.Org, nil)
		applyTemplate(e, e.Admin, sp, map[string]any{"id": "api-reference"}).Expect(201)
		pages := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200)
		if pages.Str("pages.0.title") != "Overview" || pages.Str("pages.2.type") != "group" ||
			pages.Str("pages.2.pages.0.pages.1.title") != "Create an item" {
			t.Fatalf("pages %s", pages.Body)
		}
		linksResolve(t, e, sp)
	})
	t.Run("bad input", func(t *testing.T) {
		sp := newSpace(t, e, e.Admin, e.Org, nil)
		applyTemplate(e, e.Admin, sp, map[string]any{}).ExpectError(400).ExpectMessage("id", "required")
		applyTemplate(e, e.Admin, sp, map[string]any{"id": "blog"}).ExpectError(400).ExpectMessage("id", "getting-started")
		applyTemplate(e, e.Admin, sp, map[string]any{"id": "api-reference", "params": 3}).ExpectError(400).ExpectMessage("params")
		applyTemplate(e, e.Admin, sp, map[string]any{"id": "api-reference", "params": map[string]any{"x": 1}}).
			ExpectError(400).ExpectMessage("params.x")
		applyTemplate(e, e.Admin, sp, map[string]any{"id": "api-reference", "theme": "dark"}).ExpectError(400).ExpectMessage("theme")
		if n := len(e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200).Map()["pages"].([]any)); n != 0 {
			t.Errorf("%d pages after refused templates", n)
		}
	})
	t.Run("permissions and locks", func(t *testing.T) {
		sp := newSpace(t, e, e.Admin, e.Org, nil)
		reader := e.Member("tpl-reader", auth.Read)
		grant(t, e, e.Admin, "/v1/spaces/"+sp, "read", []string{reader.ID}, nil)
		applyTemplate(e, reader, sp, map[string]any{"id": "getting-started"}).ExpectError(403)
		applyTemplate(e, e.NewUser("tpl-outsider"), sp, map[string]any{"id": "blog"}).ExpectError(404)
		applyTemplate(e, e.Admin, "nope", map[string]any{"id": "getting-started"}).ExpectError(404)
		e.Patch(e.Admin, "/v1/spaces/"+sp, map[string]any{"editMode": "locked"}).Expect(200)
		applyTemplate(e, e.Admin, sp, map[string]any{"id": "getting-started"}).ExpectError(409)
	})
}
