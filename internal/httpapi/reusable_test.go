package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"docsd/internal/apitest"
	"docsd/internal/gitbookimport"
	"docsd/internal/richtext"
	"docsd/internal/site"
)

// blocksTree is the fixture repository holding every GitBook block, as files.
func blocksTree(t testing.TB) map[string]string {
	t.Helper()
	root := "../gitbookimport/testdata/blocks"
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil || len(files) < 4 {
		t.Fatalf("reading the fixture: %v (%d files)", err, len(files))
	}
	return files
}

var (
	docSchemaOnce sync.Once
	docSchema     *jsonschema.Schema
	docSchemaErr  error
)

// checkDocument fails the test unless raw is a valid document for docsd's own validation
// and, when DOCSD_GITBOOK_OPENAPI names the public spec, for its JSONDocument schema.
func checkDocument(t *testing.T, raw []byte) {
	t.Helper()
	limits := richtext.DefaultLimits
	if _, err := limits.Validate("document", raw); err != nil {
		t.Errorf("richtext validation: %v\n%s", err, raw)
	}
	docSchemaOnce.Do(func() {
		p := os.Getenv("DOCSD_GITBOOK_OPENAPI")
		if p == "" {
			return
		}
		b, err := os.ReadFile(p)
		if docSchemaErr = err; err != nil {
			return
		}
		var spec map[string]any
		if docSchemaErr = json.Unmarshal(b, &spec); docSchemaErr != nil {
			return
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft4)
		if docSchemaErr = c.AddResource("openapi.json", map[string]any{"components": spec["components"], "$ref": "#/components/schemas/JSONDocument"}); docSchemaErr != nil {
			return
		}
		docSchema, docSchemaErr = c.Compile("openapi.json")
	})
	if docSchemaErr != nil {
		t.Fatalf("public spec: %v", docSchemaErr)
	}
	if docSchema == nil {
		return
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	if err := docSchema.Validate(inst); err != nil {
		t.Errorf("not a JSONDocument of the public API: %v\n%s", err, raw)
	}
}

// rawTagOutsideCode finds GitBook tag text in HTML outside <pre> and <code>.
var (
	codeHTML = regexp.MustCompile(`(?s)<pre.*?</pre>|<code.*?</code>`)
	tagText  = regexp.MustCompile(`\{%|%\}`)
)

func TestEveryGitBookBlockRoundTrips(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	base := "/v1/spaces/" + sp
	tree := blocksTree(t)
	e.Upload(e.Admin, "POST", base+"/content/import", "application/zip", zipOf(t, tree)).Expect(201)

	rev := e.Get(e.Admin, base+"/content").Expect(200)
	homeID := rev.Str("pages.0.id") // the README, first in the tree
	home := e.Get(e.Admin, base+"/content/page/"+homeID).Expect(200)
	changelog := e.Get(e.Admin, base+"/content/path/changelog").Expect(200).Str("id")

	t.Run("the document format maps every block and validates", func(t *testing.T) {
		for _, id := range []string{homeID, changelog} {
			r := e.Get(e.Admin, base+"/revisions/"+rev.Str("id")+"/page/"+id+"/document").Expect(200)
			checkDocument(t, r.Body)
			body := string(r.Body)
			if strings.Contains(strings.ReplaceAll(body, "// {% hint %} in code stays", ""), "{%") {
				t.Errorf("raw tag text in the document of %s: %s", id, body)
			}
			if id != homeID {
				continue
			}
			for _, want := range []string{`"type":"hint"`, `"type":"tabs"`, `"type":"stepper"`, `"type":"embed"`,
				`"type":"content-ref"`, `"type":"reusable-content"`, `"kind":"reusable-content"`, `"type":"openapi-operation"`,
				`"type":"openapi-schemas"`, `"type":"openapi-webhook"`, `"type":"swagger"`, `"type":"code"`,
				"Left column.", "For pro readers.", "Inside an unknown tag."} {
				if !strings.Contains(body, want) {
					t.Errorf("the document lacks %s: %s", want, body)
				}
			}
		}
		// The page's own answer carries the same document.
		checkDocument(t, mustRaw(t, home, "document"))
	})

	t.Run("export gives the same tags back", func(t *testing.T) {
		md := e.Get(e.Admin, base+"/content/page/"+homeID+"?format=markdown").Expect(200).Str("markdown")
		want := strings.TrimPrefix(tree["README.md"], "# Every block\n\n")
		if md != want {
			t.Errorf("markdown changed by the import:\n%s\nwant:\n%s", md, want)
		}
		for _, tag := range regexp.MustCompile(`\{%[^%]*%\}`).FindAllString(tree["README.md"], -1) {
			if !strings.Contains(md, tag) {
				t.Errorf("export lost %s", tag)
			}
		}
	})

	t.Run("the published page shows every block and no tag text outside code", func(t *testing.T) {
		f := newSiteFixture(t, e, site.Public)
		f.siteSpace(f.section("", "Docs", "docs", true, nil), sp, "docs", true, nil)
		rd := newReader(t, e)
		for _, path := range []string{"", "changelog"} {
			pg := rd.get(f.path(path)).expect(t, 200)
			if loc := tagText.FindStringIndex(codeHTML.ReplaceAllString(pg.Body, "")); loc != nil {
				t.Errorf("%s: tag text leaks: %q", path, pg.Body[max(0, loc[0]-100):min(len(pg.Body), loc[1]+100)])
			}
		}
		pg := rd.get(f.path("")).expect(t, 200)
		for _, want := range []string{"Written once, shown everywhere.", `<div class="columns">`, "Left column.", "Inside an unknown tag.",
			`<div class="hint hint-warning">`, "<code>GET /pets</code>"} {
			if !strings.Contains(pg.Body, want) {
				t.Errorf("the published page lacks %s", want)
			}
		}
	})
}

func mustRaw(t *testing.T, r *apitest.Resp, path string) []byte {
	t.Helper()
	v, ok := r.Get(path)
	if !ok {
		t.Fatalf("%s: no %s in %s", r.Path, path, r.Body)
	}
	b, _ := json.Marshal(v)
	return b
}

func TestReusableContentRoundTrip(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	base := "/v1/spaces/" + sp
	files := map[string]string{
		"README.md":                         "# Home\n\nIntro.\n",
		"SUMMARY.md":                        "# Table of contents\n\n* [Home](README.md)\n* [Guide](guides/guide.md)\n",
		"guides/guide.md":                   "# Guide\n\nBefore.\n\n{% include \"../.gitbook/includes/support.md\" %}\n\nAfter.\n",
		".gitbook/includes/support.md":      "---\ntitle: Support\n---\n\nWrite to **support**.\n",
		".gitbook/includes/unused-block.md": "Never included.\n",
	}
	e.Upload(e.Admin, "POST", base+"/content/import", "application/zip", zipOf(t, files)).Expect(201)

	rev := e.Get(e.Admin, base+"/content").Expect(200)
	var rcs []map[string]any
	v, _ := rev.Get("reusableContents")
	b, _ := json.Marshal(v)
	json.Unmarshal(b, &rcs)
	if len(rcs) != 2 || rcs[0]["title"] != "Support" || rcs[1]["title"] != "Unused block" {
		t.Fatalf("reusableContents = %v", rcs)
	}
	id := rcs[0]["id"].(string)
	if git, _ := rcs[0]["git"].(map[string]any); git["path"] != ".gitbook/includes/support.md" || git["oid"] == "" {
		t.Errorf("git = %v", rcs[0]["git"])
	}
	revID := rev.Str("id")

	t.Run("the four reads", func(t *testing.T) {
		for _, path := range []string{base + "/content/reusable-contents/" + id, base + "/revisions/" + revID + "/reusable-contents/" + id} {
			r := e.Get(e.Admin, path).Expect(200)
			if r.Str("id") != id || r.Str("title") != "Support" || r.Str("document") == "" {
				t.Errorf("%s: %s", path, r.Body)
			}
			if r := e.Get(e.Admin, path+"?metadata=false").Expect(200); r.Has("git") {
				t.Errorf("metadata=false keeps git: %s", r.Body)
			}
		}
		doc := e.Get(e.Admin, base+"/revisions/"+revID+"/reusable-contents/"+id+"/document").Expect(200)
		checkDocument(t, doc.Body)
		if !strings.Contains(string(doc.Body), `"support"`) {
			t.Errorf("document: %s", doc.Body)
		}
		e.Get(e.Admin, base+"/content/reusable-contents/nope").Expect(404)
		e.Get(e.Admin, base+"/revisions/"+revID+"/reusable-contents/nope/document").Expect(404)
		outsider := e.NewUser("outsider")
		e.Get(outsider, base+"/content/reusable-contents/"+id).Expect(404)
	})

	cr := newChangeRequest(t, e, e.Admin, sp, "Better support note")
	crBase := base + "/change-requests/" + cr
	t.Run("edited in a change request", func(t *testing.T) {
		e.Patch(e.Admin, crBase+"/reusable-contents/"+id, map[string]any{"markdown": "Write to **the support team**.\n"}).Expect(200)
		r := e.Get(e.Admin, crBase+"/content/reusable-contents/"+id).Expect(200)
		if r.Str("title") != "Support" {
			t.Errorf("change request read: %s", r.Body)
		}
		if e.Get(e.Admin, base+"/content/reusable-contents/"+id).Expect(200).Str("document") == r.Str("document") {
			t.Error("the head's reusable content changed before the merge")
		}
		e.Patch(e.Admin, crBase+"/reusable-contents/"+id, map[string]any{"title": ""}).Expect(400).ExpectMessage("title")
		e.Patch(e.Admin, crBase+"/reusable-contents/nope", map[string]any{"title": "x"}).Expect(404)
		e.Post(e.Admin, crBase+"/reusable-contents", map[string]any{"markdown": "x"}).Expect(400).ExpectMessage("title")
		made := e.Post(e.Admin, crBase+"/reusable-contents", map[string]any{"title": "Made here", "markdown": "New block.\n"}).Expect(201)
		if made.Str("reusableContent") == "" || made.Header.Get("Location") == "" {
			t.Errorf("create: %s", made.Body)
		}
		e.Delete(e.Admin, crBase+"/reusable-contents/"+rcs[1]["id"].(string)).Expect(204)
	})

	t.Run("merged and read back", func(t *testing.T) {
		e.Post(e.Admin, crBase+"/merge", nil).Expect(200)
		head := e.Get(e.Admin, base+"/content").Expect(200)
		v, _ := head.Get("reusableContents")
		b, _ := json.Marshal(v)
		if !strings.Contains(string(b), "Made here") || strings.Contains(string(b), "Unused block") {
			t.Errorf("after the merge: %s", b)
		}
		doc := e.Get(e.Admin, base+"/revisions/"+head.Str("id")+"/reusable-contents/"+id+"/document").Expect(200)
		if !strings.Contains(string(doc.Body), "the support team") {
			t.Errorf("merged document: %s", doc.Body)
		}
		docID := e.Get(e.Admin, base+"/content/reusable-contents/"+id).Expect(200).Str("document")
		byID := e.Get(e.Admin, base+"/documents/"+docID).Expect(200)
		if string(byID.Body) != string(doc.Body) {
			t.Errorf("getDocumentById %s differs from the revision's document %s", byID.Body, doc.Body)
		}
		e.Get(e.Admin, base+"/documents/"+strings.Repeat("0", 64)).Expect(404)
		// Another process, with nothing in memory, decodes the same from the database: the
		// merged head, and the change request's revisions stored as changes.
		peer := e.Peer()
		if got := peer.Get(e.Admin, base+"/content/reusable-contents/"+id).Expect(200).Str("document"); got != docID {
			t.Errorf("another process reads document %s, want %s", got, docID)
		}
		pb := peer.Get(e.Admin, base+"/content").Expect(200)
		if v, _ := pb.Get("reusableContents"); len(v.([]any)) != 2 {
			t.Errorf("another process reads %s", pb.Body)
		}
		if got := peer.Get(e.Admin, crBase+"/content/reusable-contents/"+made0(t, peer, crBase)).Expect(200).Str("title"); got != "Made here" {
			t.Errorf("another process reads the change request's new reusable content as %q", got)
		}
		e.Get(e.NewUser("stranger"), base+"/documents/"+docID).Expect(404)
	})

	t.Run("the published page shows it in place", func(t *testing.T) {
		f := newSiteFixture(t, e, site.Public)
		f.siteSpace(f.section("", "Docs", "docs", true, nil), sp, "docs", true, nil)
		pg := newReader(t, e).get(f.path("guide")).expect(t, 200)
		if !strings.Contains(pg.Body, "<strong>the support team</strong>") || strings.Contains(pg.Body, "{%") {
			t.Errorf("published page: %s", pg.Body)
		}
		if strings.Index(pg.Body, "Before.") > strings.Index(pg.Body, "the support team") {
			t.Error("the reusable content is not in place")
		}
	})

	t.Run("export writes the include and its file, which import back the same", func(t *testing.T) {
		// SUMMARY.md puts the guide at the top level, so its include is written from there.
		guide := e.Get(e.Admin, base+"/content/path/guide?format=markdown").Expect(200).Str("markdown")
		if !strings.Contains(guide, `{% include ".gitbook/includes/support.md" %}`) {
			t.Fatalf("page markdown: %q", guide)
		}
		rc := e.Get(e.Admin, base+"/content/reusable-contents/"+id).Expect(200)
		again := newSpace(t, e, e.Admin, e.Org, nil)
		exported := map[string]string{
			"README.md":                    "# Home\n\nIntro.\n",
			"SUMMARY.md":                   "# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md)\n",
			"guide.md":                     "# Guide\n\n" + guide,
			".gitbook/includes/support.md": string(gitbookimport.IncludeFile(rc.Str("title"), "Write to **the support team**.\n")),
		}
		e.Upload(e.Admin, "POST", "/v1/spaces/"+again+"/content/import", "application/zip", zipOf(t, exported)).Expect(201)
		back := e.Get(e.Admin, "/v1/spaces/"+again+"/content").Expect(200)
		v, _ := back.Get("reusableContents.0.title")
		if v != "Support" {
			t.Errorf("re-imported: %s", back.Body)
		}
		if d := e.Get(e.Admin, "/v1/spaces/"+again+"/content/reusable-contents/"+back.Str("reusableContents.0.id")).Expect(200).Str("document"); d != rc.Str("document") {
			t.Errorf("re-imported markdown differs: document %s, want %s", d, rc.Str("document"))
		}
	})
}

func TestReusableContentMergeConflictNamesIt(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	base := "/v1/spaces/" + sp
	files := map[string]string{
		"README.md":                    "# Home\n\n{% include \".gitbook/includes/note.md\" %}\n",
		".gitbook/includes/note.md":    "---\ntitle: Note\n---\n\nLine one.\n\nLine two.\n\nLine three.\n",
		".gitbook/includes/other.md":   "Other.\n",
		".gitbook/includes/deleted.md": "Deleted.\n",
	}
	e.Upload(e.Admin, "POST", base+"/content/import", "application/zip", zipOf(t, files)).Expect(201)
	ids := map[string]string{}
	for _, rc := range e.Get(e.Admin, base+"/content").Expect(200).Map()["reusableContents"].([]any) {
		m := rc.(map[string]any)
		ids[m["title"].(string)] = m["id"].(string)
	}
	note := ids["Note"]
	first := "/v1/spaces/" + sp + "/change-requests/" + newChangeRequest(t, e, e.Admin, sp, "first")
	second := "/v1/spaces/" + sp + "/change-requests/" + newChangeRequest(t, e, e.Admin, sp, "second")

	t.Run("edits of different lines merge", func(t *testing.T) {
		e.Patch(e.Admin, first+"/reusable-contents/"+note, map[string]any{"markdown": "Line ONE.\n\nLine two.\n\nLine three.\n"}).Expect(200)
		e.Patch(e.Admin, second+"/reusable-contents/"+note, map[string]any{"markdown": "Line one.\n\nLine two.\n\nLine THREE.\n"}).Expect(200)
		e.Post(e.Admin, first+"/merge", nil).Expect(200)
		e.Post(e.Admin, second+"/merge", nil).Expect(200)
		doc := e.Get(e.Admin, base+"/revisions/"+e.Get(e.Admin, base+"/content").Str("id")+"/reusable-contents/"+note+"/document").Expect(200)
		if !strings.Contains(string(doc.Body), "Line ONE.") || !strings.Contains(string(doc.Body), "Line THREE.") {
			t.Errorf("merged: %s", doc.Body)
		}
	})

	t.Run("edits of the same line are a 409 naming the reusable content", func(t *testing.T) {
		a := "/v1/spaces/" + sp + "/change-requests/" + newChangeRequest(t, e, e.Admin, sp, "a")
		b := "/v1/spaces/" + sp + "/change-requests/" + newChangeRequest(t, e, e.Admin, sp, "b")
		e.Patch(e.Admin, a+"/reusable-contents/"+note, map[string]any{"markdown": "Line 1 (a).\n\nLine two.\n\nLine THREE.\n"}).Expect(200)
		e.Patch(e.Admin, b+"/reusable-contents/"+note, map[string]any{"markdown": "Line 1 (b).\n\nLine two.\n\nLine THREE.\n"}).Expect(200)
		e.Post(e.Admin, a+"/merge", nil).Expect(200)
		e.Post(e.Admin, b+"/merge", nil).Expect(409).ExpectMessage(`reusable content "`+note+`"`, "markdown")
	})

	t.Run("deleted on one side and edited on the other is a 409 naming it", func(t *testing.T) {
		a := "/v1/spaces/" + sp + "/change-requests/" + newChangeRequest(t, e, e.Admin, sp, "del")
		b := "/v1/spaces/" + sp + "/change-requests/" + newChangeRequest(t, e, e.Admin, sp, "edit")
		e.Delete(e.Admin, a+"/reusable-contents/"+ids["Deleted"]).Expect(204)
		e.Patch(e.Admin, b+"/reusable-contents/"+ids["Deleted"], map[string]any{"title": "Kept"}).Expect(200)
		e.Post(e.Admin, a+"/merge", nil).Expect(200)
		e.Post(e.Admin, b+"/merge", nil).Expect(409).ExpectMessage(`reusable content "` + ids["Deleted"] + `"`)
	})

	t.Run("only editors edit", func(t *testing.T) {
		e.Patch(e.NewUser("outsider"), first+"/reusable-contents/"+ids["Other"], map[string]any{"title": "x"}).Expect(404)
	})
}

func TestPageDocumentInRevision(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	base := "/v1/spaces/" + sp
	files := map[string]string{
		"README.md":          "# Home\n\nVersion <code class=\"expression\">space.vars.version</code>.\n",
		"SUMMARY.md":         "# Table of contents\n\n* [Home](README.md)\n\n## Group\n\n* [Inside](inside.md)\n",
		"inside.md":          "# Inside\n\nIn.\n",
		".gitbook/vars.yaml": "version: \"2.1\"\n",
	}
	e.Upload(e.Admin, "POST", base+"/content/import", "application/zip", zipOf(t, files)).Expect(201)
	rev := e.Get(e.Admin, base+"/content").Expect(200)
	home := rev.Str("pages.0.id")
	group := rev.Str("pages.1.id")
	path := base + "/revisions/" + rev.Str("id") + "/page/" + home + "/document"
	doc := e.Get(e.Admin, path).Expect(200)
	checkDocument(t, doc.Body)
	if doc.Str("object") != "document" || !strings.Contains(string(doc.Body), "space.vars.version") {
		t.Errorf("document: %s", doc.Body)
	}
	if got := e.Get(e.Admin, path+"?evaluated=true").Expect(200); !strings.Contains(string(got.Body), "Version 2.1.") {
		t.Errorf("evaluated document: %s", got.Body)
	}
	e.Get(e.Admin, path+"?evaluated=maybe").Expect(400).ExpectMessage("evaluated")
	e.Get(e.Admin, base+"/revisions/"+rev.Str("id")+"/page/"+group+"/document").Expect(404).ExpectMessage("group")
	e.Get(e.Admin, base+"/revisions/"+rev.Str("id")+"/page/nope/document").Expect(404)
	e.Get(e.Admin, base+"/revisions/nope/page/"+home+"/document").Expect(404)
	e.Get(e.NewUser("outsider"), path).Expect(404)
}

func TestComputedContentNamesTheUnsupportedSource(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	base := "/v1/spaces/" + sp + "/content/computed/"
	openapi := map[string]any{"type": "builtin:openapi", "props": map[string]any{"doc": "models"},
		"dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "petstore"}}}}
	for _, kind := range []string{"document", "revision"} {
		t.Run(kind, func(t *testing.T) {
			// Supported (openapi_reference_test.go), and refused for a spec the organization lacks.
			src := openapi
			if kind == "revision" {
				src = map[string]any{"type": "builtin:openapi", "props": map[string]any{"models": true}, "dependencies": openapi["dependencies"]}
			}
			e.Post(e.Admin, base+kind, map[string]any{"source": src, "seed": "s1"}).Expect(400).
				ExpectMessage("source.dependencies.spec.ref.spec", `"petstore"`)
			e.Post(e.Admin, base+kind, map[string]any{"source": map[string]any{"type": "integration:app:src", "props": map[string]any{}}, "seed": "s"}).
				Expect(400).ExpectMessage(`"integration:app:src"`, "not supported")
			e.Post(e.Admin, base+kind, map[string]any{"seed": "s"}).Expect(400).ExpectMessage("source")
			e.Post(e.Admin, base+kind, map[string]any{"source": openapi}).Expect(400).ExpectMessage("seed")
			e.Post(e.Admin, base+kind, map[string]any{"source": map[string]any{"props": map[string]any{}}, "seed": "s"}).Expect(400).ExpectMessage("source.type")
			e.Post(e.NewUser("outsider"), base+kind, map[string]any{"source": openapi, "seed": "s"}).Expect(404)
		})
	}
}

// made0 finds the id of the reusable content titled "Made here" in a change request's content.
func made0(t *testing.T, e *apitest.Env, crBase string) string {
	t.Helper()
	v, _ := e.Get(e.Admin, crBase+"/content").Expect(200).Get("reusableContents")
	for _, rc := range v.([]any) {
		if m := rc.(map[string]any); m["title"] == "Made here" {
			return m["id"].(string)
		}
	}
	t.Fatalf("no reusable content titled Made here in %v", v)
	return ""
}

// A change request's revisions are stored as changes up to a depth, then whole again: a
// reusable content edited past that depth reads the same here and from another process.
func TestReusableContentLongEditChain(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	base := "/v1/spaces/" + sp
	e.Upload(e.Admin, "POST", base+"/content/import", "application/zip", zipOf(t, map[string]string{
		"README.md": "# Home\n", ".gitbook/includes/n.md": "Edit 0.\n"})).Expect(201)
	id := e.Get(e.Admin, base+"/content").Expect(200).Str("reusableContents.0.id")
	crBase := base + "/change-requests/" + newChangeRequest(t, e, e.Admin, sp, "many edits")
	const edits = 40 // past the 32 revisions stored as changes
	for i := 1; i <= edits; i++ {
		e.Patch(e.Admin, crBase+"/reusable-contents/"+id, map[string]any{"markdown": fmt.Sprintf("Edit %d.\n", i)}).Expect(200)
	}
	peer := e.Peer()
	crRev := e.Get(e.Admin, crBase).Expect(200).Str("revision")
	for _, env := range []*apitest.Env{e, peer} {
		doc := env.Get(e.Admin, base+"/revisions/"+crRev+"/reusable-contents/"+id+"/document").Expect(200)
		if !strings.Contains(string(doc.Body), fmt.Sprintf("Edit %d.", edits)) {
			t.Errorf("%s: the change request's revision: %s", env.URL, doc.Body)
		}
	}
	e.Post(e.Admin, crBase+"/merge", nil).Expect(200)
	for _, env := range []*apitest.Env{e, peer} {
		revID := env.Get(e.Admin, base+"/content").Expect(200).Str("id")
		doc := env.Get(e.Admin, base+"/revisions/"+revID+"/reusable-contents/"+id+"/document").Expect(200)
		if !strings.Contains(string(doc.Body), fmt.Sprintf("Edit %d.", edits)) {
			t.Errorf("%s: %s", env.URL, doc.Body)
		}
	}
}

// The PDF of content holding every block shows the blocks' content and the reusable content
// in place, and no tag text.
func TestEveryGitBookBlockInPDF(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, blocksTree(t))).Expect(201)
	cr := newChangeRequest(t, e, e.Admin, sp, "Print")
	url := pdfLink(e, e.Admin, sp, cr, "").Expect(200).Str("url")
	// The only tag text is the code block's, which prints as written.
	words := strings.Replace(pdfWords(t, url), "package main // {% hint %} in code stays", "", 1)
	expectWords(t, words,
		[]string{"Written once, shown everywhere.", "Left column.", "Right column.", "For pro readers.", "Inside an unknown tag.",
			"The pets API is out.", "Ask the assistant about pets.", "2024-05-01 · api,new", "2024-04-01"},
		[]string{"{%", "%}", "endhint", "sparkle"})
}
