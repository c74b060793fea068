package httpapi_test

import (
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/config"
	"docsd/internal/gitfetch/gittest"
)

// NUL characters and bytes that are not UTF-8 reach no database: PostgreSQL refuses both in a
// text parameter, which used to answer 500. Both engines answer alike.
func TestNULAndInvalidUTF8AreRefusedBeforeTheDatabase(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)

	t.Run("a path id that cannot be an id is 404", func(t *testing.T) {
		for _, p := range []string{"/v1/spaces/%00", "/v1/spaces/%FF", "/v1/spaces/" + sp + "%00", "/v1/spaces/a%C3%28",
			"/v1/orgs/%00", "/v1/orgs/" + e.Org + "/teams/%ED%A0%80", "/v1/spaces/" + sp + "/change-requests/%00",
			"/v1/spaces/never-existed", "/v1/spaces/" + sp + "/revisions/%FF/pages"} {
			e.Get(e.Admin, p).Expect(404)
		}
	})
	t.Run("without a token, 401 comes first", func(t *testing.T) {
		e.Get(apitest.Anonymous, "/v1/spaces/%00").Expect(401)
		e.Get(apitest.Anonymous, "/v1/orgs/"+e.Org+"/teams?title=a%00b").Expect(401)
		e.Get(apitest.Anonymous, "/v1/spaces/"+sp+"/revisions/%FF/files/x/download").Expect(401)
	})
	t.Run("published sites, anonymously: 404", func(t *testing.T) {
		for _, p := range []string{"/sites/%00/x", "/sites/" + e.Org + "/%00", "/sites/" + e.Org + "/docs/%FF%FE", "/sites/%FF/a%2Fb"} {
			e.Get(apitest.Anonymous, p).Expect(404)
		}
	})
	t.Run("deleting what no id names is 204, as deleting an absent thing is", func(t *testing.T) {
		e.Delete(e.Admin, "/v1/spaces/%00").Expect(204)
		e.Delete(e.Admin, "/v1/orgs/"+e.Org+"/teams/a%FFb").Expect(204)
		e.Get(e.Admin, "/v1/spaces/"+sp).Expect(200)
	})
	t.Run("a query value is 400 naming the parameter", func(t *testing.T) {
		e.Get(e.Admin, "/v1/orgs/"+e.Org+"/teams?title=a%00b").ExpectError(400).ExpectMessage("title", "NUL")
		e.Get(e.Admin, "/v1/orgs/"+e.Org+"/teams?owner=%FF%FE").ExpectError(400).ExpectMessage("owner", "UTF-8")
		e.Get(e.Admin, "/v1/spaces/"+sp+"?shareKey=%00").ExpectError(400).ExpectMessage("shareKey")
		e.Get(apitest.Anonymous, "/sites/"+e.Org+"/docs/~search?q=%00").ExpectError(400).ExpectMessage("q", "NUL")
	})
	t.Run("a JSON string is 400 naming the field", func(t *testing.T) {
		e.Patch(e.Admin, "/v1/spaces/"+sp, `{"title":"a\u0000b"}`).ExpectError(400).ExpectMessage("title", "NUL")
		e.Patch(e.Admin, "/v1/spaces/"+sp, "{\"title\":\"a\xff\xfeb\"}").ExpectError(400).ExpectMessage("title", "UTF-8")
		e.Post(e.Admin, "/v1/orgs/"+e.Org+"/spaces", `{"title":"ok","zz\u0000":1}`).ExpectError(400).ExpectMessage("a key", "NUL")
		e.Post(e.Admin, "/v1/spaces/"+sp+"/comments", `{"body":{"markdown":"x\u0000"}}`).ExpectError(400).ExpectMessage("body.markdown", "NUL")
		if got := e.Get(e.Admin, "/v1/spaces/"+sp).Expect(200).Str("title"); got == "a\x00b" {
			t.Fatalf("title %q was stored", got)
		}
		// A backslash followed by u0000 is text, not a NUL.
		e.Patch(e.Admin, "/v1/spaces/"+sp, `{"title":"a\\u0000b"}`).Expect(200)
	})
	t.Run("an uploaded archive or a Git tree with NUL bytes or invalid UTF-8 is refused, not a 500", func(t *testing.T) {
		for name, files := range map[string]map[string]string{
			"NUL in a page":           {"README.md": "# Home\n\nA NUL \x00 byte.\n"},
			"invalid UTF-8 in a page": {"README.md": "# H\xffme\n"},
			"NUL in a title":          {"README.md": "# Home\n", "SUMMARY.md": "* [Ho\x00me](README.md)\n"},
			"NUL in front matter":     {"README.md": "---\ndescription: \"a\\0b\"\n---\n# Home\n"},
			"NUL in a variable":       {"README.md": "# Home\n", ".gitbook/vars.yaml": "a: \"x\\0y\"\n"},
			"a name that is not UTF-8": {"README.md": "# Home\n", "SUMMARY.md": "* [Home](README.md)\n* [P](p\xff.md)\n",
				"p\xff.md": "# P\n"},
		} {
			r := e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/x-tar", fuzzTar(files, false))
			if r.Status >= 500 {
				t.Errorf("upload, %s: %d %s", name, r.Status, r.Body)
			}
			if r.Status >= 400 {
				r.ExpectError(r.Status)
			}
			repo := gittest.Serve(t, files)
			g := gitImport(e, e.Admin, sp, map[string]any{"url": repo.URL, "ref": "main"})
			if g.Status >= 500 {
				t.Errorf("git import, %s: %d %s", name, g.Status, g.Body)
			}
			if g.Status >= 400 {
				g.ExpectError(g.Status)
			}
		}
	})
}

// A tree large enough to be committed by a job is checked in the request: a page with a NUL
// is refused there (400), not acknowledged and then lost when the job cannot commit it.
func TestQueuedImportWithNULIsRefusedInTheRequest(t *testing.T) {
	t.Parallel()
	e := apitest.NewWithConfig(t, func(c *config.Config) { c.ImportSyncPages, c.GitImportSyncPages = 1, 1 })
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	head := headOf(e, sp)
	files := map[string]string{"README.md": "# Home\n", "SUMMARY.md": "* [Home](README.md)\n* [A](a.md)\n* [B](b.md)\n",
		"a.md": "# A\n", "b.md": "# B\n\nx \x00 y\n"}
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/x-tar", fuzzTar(files, false)).
		ExpectError(400).ExpectMessage("markdown", "b.md", "NUL")
	repo := gittest.Serve(t, files)
	gitImport(e, e.Admin, sp, map[string]any{"url": repo.URL, "ref": "main"}).ExpectError(400).ExpectMessage("markdown", "b.md", "NUL")
	if headOf(e, sp) != head {
		t.Error("the head moved")
	}
	files["b.md"] = "# B\n\nfine\n"
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/x-tar", fuzzTar(files, false)).Expect(202)
}
