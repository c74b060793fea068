package httpapi_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/site"

	"github.com/chromedp/chromedp"
)

// chromiumPath finds a Chromium or Chrome binary; CI installs Debian's chromium (.ci/run).
func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestSitesServeInARealBrowser opens a published site in headless Chromium through the
// DevTools protocol: it reads the page and its navigation as rendered, follows a link of the
// page tree, checks that a phone-sized window needs no sideways scrolling, and saves
// screenshots under the test's temporary directory.
func TestSitesServeInARealBrowser(t *testing.T) {
	chrome := chromiumPath()
	if chrome == "" {
		t.Skip("no chromium on PATH: install it (apt-get install -y chromium, as .ci/run does) to run the real-browser test")
	}
	e := apitest.New(t)
	v2 := docSpace(t, e, "Guide v2", "Alpha")
	v1 := docSpace(t, e, "Guide v1", "Beta")
	f := newSiteFixture(t, e, site.Public)
	guides := f.section("", "Guides", "guides", true, nil)
	f.siteSpace(guides, v2, "v2", true, nil)
	f.siteSpace(guides, v1, "v1", false, nil)
	ref := f.group("", "Reference")
	f.siteSpace(f.section(ref, "API", "api", false, nil), v1, "api", true, nil)
	base := e.URL + f.path("")

	ctx := browserContext(t, chrome)

	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(css string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(css)))
		must("text of "+css, err)
		return s
	}
	must("open "+base, chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(base),
		chromedp.WaitVisible(chromedp.CSS("main h1")),
	))
	heading, sections, variants, tree := text("main h1"), text(`nav[aria-label="Sections"]`),
		text(`nav[aria-label="Versions"]`), text(`nav[aria-label="Pages"]`)
	desktop, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	must("screenshot", err)
	if heading != "Alpha home" {
		t.Fatalf("heading %q", heading)
	}
	for what, want := range map[string][]string{sections: {"Guides", "Reference", "API"}, variants: {"Guide v2", "Guide v1"},
		tree: {"Alpha home", "Install Alpha", "Linux Alpha"}} {
		for _, w := range want {
			if !strings.Contains(what, w) {
				t.Fatalf("navigation %q lacks %q", what, w)
			}
		}
	}
	if strings.Contains(tree, "Hidden Alpha") {
		t.Fatalf("the hidden page shows in the page tree")
	}

	// Follow the nested page's link in the page tree, then a link of the page's own content.
	must("follow the page tree", chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`nav[aria-label="Pages"] a[href$="/install/linux"]`)),
		chromedp.WaitVisible(chromedp.Search(`//main//h1[text()="Linux Alpha"]`)),
	))
	location, err := chromedp.Run(ctx, chromedp.Location())
	must("location", err)
	nested := text("main h1")
	must("follow a content link", chromedp.Do(ctx,
		chromedp.Click(chromedp.Search(`//article//a[text()="back home"]`)),
		chromedp.WaitVisible(chromedp.Search(`//main//h1[text()="Alpha home"]`)),
	))
	back := text("main h1")
	if location != base+"install/linux" || nested != "Linux Alpha" || back != "Alpha home" {
		t.Fatalf("after the clicks: location %s, headings %q then %q", location, nested, back)
	}

	// On a phone-sized window the page fits its width.
	must("phone view", chromedp.Do(ctx,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		chromedp.Navigate(base+"install/linux"),
		chromedp.WaitVisible(chromedp.CSS("main h1")),
	))
	fits, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth <= window.innerWidth`))
	must("measure the phone view", err)
	if !fits {
		t.Fatalf("the page is wider than a phone's screen")
	}
	phone, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	must("phone screenshot", err)

	// Screenshots go to the test's temporary directory, or to DOCSD_TEST_ARTIFACTS when set
	// (a directory CI may keep).
	dir := t.TempDir()
	if keep := os.Getenv("DOCSD_TEST_ARTIFACTS"); keep != "" {
		dir = keep
	}
	for name, img := range map[string][]byte{"desktop.png": desktop, "phone.png": phone} {
		if !bytes.HasPrefix(img, []byte("\x89PNG")) || len(img) < 1000 {
			t.Fatalf("%s is not a PNG screenshot (%d bytes)", name, len(img))
		}
		if err := os.WriteFile(filepath.Join(dir, name), img, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("screenshots saved in %s", dir)
}

// browserContext is a headless Chromium (at path chrome) for one test, with the options given
// added to the defaults; it is closed when the test ends, and each run is bounded to 90s.
func browserContext(t *testing.T, chrome string, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.UserDataDir(t.TempDir()))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(opts, extra...)...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelTimeout)
	return ctx
}
