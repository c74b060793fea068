package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/config"
	"docsd/internal/docxconv/docxtest"
)

const docxType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

// uploadedBytes puts a file through an upload URL and returns its key.
func uploadedBytes(t *testing.T, e *apitest.Env, name, typ string, data []byte) string {
	t.Helper()
	url, key := uploadURL(t, e, name, typ, len(data))
	if code, body := put(t, url, data); code != 200 {
		t.Fatalf("PUT: %d %s", code, body)
	}
	return key
}

func TestFileImportRunOfWordDocument(t *testing.T) {
	docxtest.NeedPandoc(t)
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	doc, err := docxtest.Sample().Build()
	if err != nil {
		t.Fatal(err)
	}
	key := uploadedBytes(t, e, "Release guide.docx", docxType, doc)
	id := e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{
		"source": map[string]any{"type": "file", "files": []string{key}}, "target": map[string]any{"space": sp}}).Expect(201).Str("id")
	waitRun(t, e, id)
	run := readRun(t, e, "/v1/org/"+e.Org+"/imports/"+id)
	checkRunPages(t, e, sp, run)
	if len(run.Pages) != 1 || len(run.Errors) != 0 {
		t.Fatalf("run %+v", run)
	}
	page := pageAt(e, sp, "", run.Pages[0].ID).Expect(200)
	if page.Str("title") != "Release guide" {
		t.Errorf("title %q", page.Str("title"))
	}
	md := page.Str("markdown")
	for _, want := range []string{
		"## Before you start", "[the changelog](https://example.com/changelog)", "-   Back up the data", "1.  Stop the server",
		"| 2.1", "June", "![Architecture diagram](.gitbook/assets/release-guide-image1.png)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	files := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/files").Expect(200).Items()
	if len(files) != 1 || files[0]["name"] != "release-guide-image1.png" || files[0]["contentType"] != "image/png" {
		t.Fatalf("files: %v", files)
	}
	if dims, _ := files[0]["dimensions"].(map[string]any); dims["width"] != float64(docxtest.ImageWidth) || dims["height"] != float64(docxtest.ImageHeight) {
		t.Errorf("dimensions: %v", files[0]["dimensions"])
	}
	document := string(e.Get(e.Admin, "/v1/spaces/"+sp+"/content/page/"+run.Pages[0].ID).Expect(200).Body)
	for _, block := range []string{`"heading-1"`, `"list-unordered"`, `"list-ordered"`, `"table"`, `"images"`, `"link"`} {
		if !strings.Contains(document, block) {
			t.Errorf("the page's document has no %s block: %.2000s", block, document)
		}
	}
	links := e.Get(e.Admin, "/v1/spaces/"+sp+"/links").Expect(200)
	if n := links.Num("stats.broken.total"); n != 0 {
		t.Errorf("%v broken links: %s", n, links.Body)
	}

	t.Run("a file that is not a Word document fails the run, writing nothing", func(t *testing.T) {
		head := headOf(e, sp)
		key := uploadedBytes(t, e, "broken.docx", docxType, []byte("PK not really a zip"))
		id := e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{
			"source": map[string]any{"type": "file", "files": []string{key}}, "target": map[string]any{"space": sp}}).Expect(201).Str("id")
		r := waitRun(t, e, id)
		if r.Str("status") != "failed" || !strings.Contains(r.Str("reason"), "broken.docx") {
			t.Fatalf("run: %s", r.Body)
		}
		if headOf(e, sp) != head {
			t.Error("a failed run moved the head")
		}
	})
}

func TestWordImportRefusedWithoutConverter(t *testing.T) {
	t.Parallel()
	e := apitest.NewWithConfig(t, func(c *config.Config) { c.Pandoc = "off" })
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	e.Post(e.Admin, "/v1/orgs/"+e.Org+"/storage/upload", map[string]any{
		"file": map[string]any{"name": "guide.docx", "type": docxType, "size": 100}, "kind": "import_file"}).
		ExpectError(400).ExpectMessage("file.name", ".docx", "pandoc")
	// A font of that name is no import: only imports need the converter.
	e.Post(e.Admin, "/v1/orgs/"+e.Org+"/storage/upload", map[string]any{
		"file": map[string]any{"name": "guide.docx", "type": docxType, "size": 100}, "kind": "customization_font"}).Expect(201)
	key := uploaded(t, e, "fine.md", "# Fine\n")
	e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{
		"source": map[string]any{"type": "file", "files": []string{key}}, "target": map[string]any{"space": sp}}).Expect(201)
}
