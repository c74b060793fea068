package httpapi_test

import (
	"fmt"
	"testing"

	"docsd/internal/apitest"
)

func TestChangeRequestContentReads(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	head, _ := replaceContent(t, e, e.Admin, sp, sampleTree(t, e).tree)
	cr := newChangeRequest(t, e, e.Admin, sp, "edit intro")
	number := fmt.Sprint(e.Get(e.Admin, crPath(sp, cr)).Expect(200).Num("number"))
	rev := editPage(t, e, sp, cr, "intro", map[string]any{"title": "Getting started", "markdown": "## Changed\n"})

	for _, ref := range []string{cr, number} {
		base := crPath(sp, ref) + "/content"
		if r := e.Get(e.Admin, base).Expect(200); r.Str("object") != "revision" || r.Str("id") != rev || r.Str("parents.0") != head.ID {
			t.Fatalf("%s: %v", base, r.Map())
		}
		if got := e.Get(e.Admin, base+"/pages").Expect(200).Str("pages.1.pages.0.title"); got != "Getting started" {
			t.Fatalf("pages: intro is titled %q", got)
		}
		if got := e.Get(e.Admin, base+"/page/intro?format=markdown").Expect(200).Str("markdown"); got != "## Changed\n" {
			t.Fatalf("page markdown %q", got)
		}
		if r := e.Get(e.Admin, base+"/page/intro").Expect(200); r.Str("document.nodes.0.type") != "heading-1" {
			t.Fatalf("page document: %v", r.Map())
		}
		if got := e.Get(e.Admin, base+"/path/guide/intro/deeper").Expect(200).Str("id"); got != "deep" {
			t.Fatalf("page by path: %s", got)
		}
		files := e.Get(e.Admin, base+"/files").Expect(200)
		if files.Num("count") != 1 || files.Str("items.0.id") != "logo" {
			t.Fatalf("files: %v", files.Map())
		}
		if got := e.Get(e.Admin, base+"/files/logo").Expect(200).Str("name"); got != "logo.png" {
			t.Fatalf("file name %q", got)
		}
		e.Get(e.Admin, base+"/page/nope").ExpectError(404)
		e.Get(e.Admin, base+"/files/nope").ExpectError(404)
		e.Get(e.Admin, base+"/path/nowhere").ExpectError(404)
		e.Get(e.Admin, base+"/page/intro?format=html").ExpectError(400).ExpectMessage("format")
		e.Get(e.Admin, base+"?metadata=maybe").ExpectError(400).ExpectMessage("metadata")
	}
	// The space's head still has the old page.
	if got := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/page/intro").Expect(200).Str("title"); got != "Introduction" {
		t.Fatalf("head's intro is titled %q", got)
	}
	e.Get(e.Admin, crPath(sp, "nope")+"/content").ExpectError(404)
	e.Get(e.Admin, crPath(sp, "999")+"/content/pages").ExpectError(404)
	stranger := e.NewUser("stranger")
	e.Get(stranger, crPath(sp, cr)+"/content").ExpectError(404)

	// A merged change request still shows its content.
	e.Post(e.Admin, crPath(sp, cr)+"/merge", nil).Expect(200)
	if got := e.Get(e.Admin, crPath(sp, number)+"/content").Expect(200).Str("id"); got != rev {
		t.Fatalf("merged change request's content %s, want %s", got, rev)
	}
}
