package httpapi_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/site"

	"github.com/chromedp/chromedp"
)

// TestOpenAPIReferenceInARealBrowser opens a published page that embeds an operation in
// headless Chromium: the reference's parameters and responses are rendered and visible, the
// page fits a phone's width, and a screenshot is saved (openapi-reference.png).
func TestOpenAPIReferenceInARealBrowser(t *testing.T) {
	chrome := chromiumPath()
	if chrome == "" {
		t.Skip("no chromium on PATH: install it (apt-get install -y chromium, as .ci/run does) to run the real-browser test")
	}
	srv := newSpecServer(t, map[string]string{"api/openapi.yaml": petStoreDoc, "api/schemas/pet.yaml": petSchemas})
	e := apitest.New(t)
	e.Post(e.Admin, "/v1/orgs/"+e.Org+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{"url": srv.URL + "/api/openapi.yaml"}}).Expect(201)
	processed(t, e, "pets")
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "API"})
	md := "# Pets\n\n{% openapi-operation spec=\"pets\" path=\"/pets/{petId}\" method=\"post\" %}\n{% endopenapi-operation %}\n"
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("home", "", "Pets", "home", md).tree)
	f := newSiteFixture(t, e, site.Public)
	f.siteSpace(f.section("", "API", "api", true, nil), sp, "", true, nil)
	url := e.URL + f.path("")

	ctx := browserContext(t, chrome)

	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(".openapi-operation")),
	); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	shown, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(".openapi-operation")))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"POST", "/pets/{petId}", "Update a pet", "petId", "notify", "required", "owner",
		"Request body", "cat", "200", "The pet as changed", "404", "curl -X POST"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the rendered reference lacks %q: %s", want, shown)
		}
	}
	desktop, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(".openapi-operation")),
	); err != nil {
		t.Fatal(err)
	}
	fits, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth <= window.innerWidth`))
	if err != nil {
		t.Fatal(err)
	}
	if !fits {
		t.Error("the reference is wider than a phone's screen")
	}
	dir := t.TempDir()
	if keep := os.Getenv("DOCSD_TEST_ARTIFACTS"); keep != "" {
		dir = keep
	}
	if !bytes.HasPrefix(desktop, []byte("\x89PNG")) || len(desktop) < 1000 {
		t.Fatalf("not a PNG screenshot (%d bytes)", len(desktop))
	}
	if err := os.WriteFile(filepath.Join(dir, "openapi-reference.png"), desktop, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot saved in %s", dir)
}
