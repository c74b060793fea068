package httpapi_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/config"
	"docsd/internal/jsrun/jsruntest"

	"github.com/chromedp/chromedp"
)

// blocksSite publishes a site over one space whose home page holds markdown, with the test
// integration (test/jsrun/integration) published as "blocky" with its blocks and a
// contentSecurityPolicy, installed on the site when installOnSite. It returns the site's
// address, its id and the space's.
func blocksSite(t *testing.T, e *apitest.Env, markdown string, installOnSite bool) (siteURL, siteID, spaceID string) {
	t.Helper()
	script := jsruntest.Bundle(t, "../../test/jsrun", "integration/index.tsx")
	sp := titledSpace(t, e, "Blocks")
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("home", "", "Home", "home", markdown).tree)
	st := e.Post(e.Admin, sitesPath(e), map[string]any{"title": "Docs", "spaces": []string{sp}}).Expect(201)
	siteID = st.Str("id")
	e.Post(e.Admin, sitesPath(e)+"/"+siteID+"/publish", nil).Expect(200)
	blocks := []map[string]any{{"id": "card", "title": "Card"}, {"id": "fresh", "title": "Fresh"}, {"id": "broken", "title": "Broken"}, {"id": "spin", "title": "Spin"}}
	publish(e, "blocky", map[string]any{"script": script, "blocks": blocks, "scopes": []string{"site:script:inject"},
		"configurations":        map[string]any{"site": map[string]any{"properties": map[string]any{"trackingId": map[string]any{"type": "string"}}}},
		"contentSecurityPolicy": map[string]string{"connect-src": "https://api.blocky.test", "script-src": "https://cdn.blocky.test", "frame-ancestors": "*"}})
	if installOnSite {
		in := e.Post(e.Admin, "/v1/integrations/blocky/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
		e.Post(e.Admin, "/v1/integrations/blocky/installations/"+in+"/sites", map[string]any{"siteId": siteID}).Expect(201)
	}
	return e.URL + "/sites/" + e.Org + "/" + st.Str("basename") + "/", siteID, sp
}

var cardBlock = regexp.MustCompile(`(?s)<div class="integration-block" data-integration="blocky" data-block="card"><div class="ck-block">.*?</iframe>`)

// An integration block on a page ({% @integration/block props %}, the content model's
// integration block) renders on the published site through the integration's script
// (ui_render with the block's props): its ContentKit is HTML made by docsd, every text escaped,
// the webframe a sandboxed iframe whose origin the page's policy lets in, beside the policy the
// installed integration declares. The script's max-age keeps the block (and the page) from
// running the script again; a failing script and one stopped by the time limit show a small
// error box on a page that still answers 200, as does a block of an integration not
// installed. The document API shows the block as an integration block.
func TestIntegrationBlocksRenderOnPublishedPages(t *testing.T) {
	t.Parallel()
	e := apitest.NewWithConfig(t, func(c *config.Config) { c.Script.Time = 2 * time.Second })
	md := "Before.\n\n{% @blocky/card title=\"Ann & <Bob>\" %}\n\nAfter.\n"
	siteURL, _, sp := blocksSite(t, e, md, true)

	h, page := publicGet(t, siteURL, 200)
	block := cardBlock.FindString(page)
	if block == "" {
		t.Fatalf("no rendered card block in the page:\n%s", page)
	}
	for _, want := range []string{
		`<strong class="ck-text">Card: Ann &amp; &lt;Bob&gt;</strong>`,
		`<div class="ck-markdown"><p>Some <strong>markdown</strong> </p>`,
		`<pre class="ck-code-block"><code class="language-javascript">if (a &lt; b) run();</code></pre>`,
		`<img class="ck-image" src="https://img.example.test/a.png"`,
		`<a class="ck-button" href="https://docs.example.test/" rel="nofollow noopener" target="_blank">Open docs</a>`,
		`<iframe class="ck-webframe" src="https://embed.example.test/frame?x=1" sandbox="allow-scripts allow-popups allow-forms"`,
		`width="640" height="360"`,
	} {
		if !strings.Contains(block, want) {
			t.Errorf("the block lacks %s:\n%s", want, block)
		}
	}
	if strings.Contains(page, "<script>alert") || !strings.Contains(page, "<p>Before.</p>") || !strings.Contains(page, "<p>After.</p>") {
		t.Errorf("page around the block:\n%s", page)
	}
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "frame-src https://embed.example.test", "connect-src https://api.blocky.test",
		"script-src 'self' https://cdn.blocky.test", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("page CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "frame-ancestors *") {
		t.Errorf("an integration's policy loosened frame-ancestors: %q", csp)
	}

	// Kept a minute, as the script said (each render shows a new random id): the page is
	// served again from the cache, and when the page changes around it the block is not
	// rendered again; past the minute it is. A block that says nothing of caching renders
	// anew for each read, and its page is not cached.
	renderID := func(page, block string) string {
		t.Helper()
		m := regexp.MustCompile(`data-block="` + block + `"><div class="ck-block">.*?<code class="ck-text">render ([0-9a-f-]{36})</code>`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("no %s render id in the page:\n%s", block, page)
		}
		return m[1]
	}
	first := renderID(page, "card")
	if _, again := publicGet(t, siteURL, 200); again != page {
		t.Errorf("the page read again differs from the first")
	}
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("home", "", "Home", "home", md+"\nMore.\n\n{% @blocky/fresh %}\n").tree)
	_, page = publicGet(t, siteURL, 200)
	_, page2 := publicGet(t, siteURL, 200)
	if !strings.Contains(page, "<p>More.</p>") || renderID(page, "card") != first || renderID(page2, "card") != first {
		t.Errorf("the card was rendered again within its minute")
	}
	if renderID(page, "fresh") == renderID(page2, "fresh") {
		t.Errorf("a block without Cache-Control was kept")
	}
	// The cost of a page read that runs one block's script (the card's answer is kept).
	start := time.Now()
	for range 10 {
		publicGet(t, siteURL, 200)
	}
	t.Logf("a page read rendering one block through the script: %s on average", time.Since(start)/10)
	e.Clock.Advance(61 * time.Second)
	_, page = publicGet(t, siteURL, 200)
	if renderID(page, "card") == first {
		t.Errorf("the card was kept past its max-age")
	}

	// The document API reads the tag as an integration block.
	doc := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/path/home?format=document").Expect(200)
	if got := doc.Str("document.nodes.1.type"); got != "integration" {
		t.Fatalf("node 1 is %q: %s", got, doc.Body)
	}
	if doc.Str("document.nodes.1.data.integration") != "blocky" || doc.Str("document.nodes.1.data.block") != "card" ||
		doc.Str("document.nodes.1.data.props.title") != "Ann & <Bob>" {
		t.Fatalf("integration block data: %s", doc.Body)
	}

	// Failures are boxes, never a failed page; the page is not cached, so each read tries.
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("home", "", "Home", "home",
		"{% @blocky/broken %}\n\n{% @blocky/spin %}\n\n{% @blocky/nothing %}\n\n{% @ghost/card %}\n\nStill here.\n").tree)
	e.RunDue()
	start = time.Now()
	_, page = publicGet(t, siteURL, 200)
	if took := time.Since(start); took > 8*time.Second {
		t.Errorf("the page took %s: the 2s script time limit did not stop the spinning block", took)
	}
	for _, want := range []string{
		// @gitbook/runtime answers a render that throws with a 500.
		`Integration block blocky/broken could not be shown.</strong> integration blocky: the script answered 500`,
		`Integration block blocky/spin could not be shown.`,
		`Integration block blocky/nothing could not be shown.</strong> integration blocky has no block nothing`,
		`Integration block ghost/card could not be shown.</strong> integration ghost is not installed on this site or its space`,
		`<p>Still here.</p>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	if !strings.Contains(page, "time limit") {
		t.Errorf("the spinning block's box does not say it reached the time limit:\n%s", page)
	}
}

// The page's policy merges the contentSecurityPolicy of the integrations installed on the
// site, and only of those: the same integration published but not installed adds nothing, and
// a block of it is not rendered (it is installed neither on the site nor on the space).
func TestIntegrationPoliciesOnlyFromInstalledIntegrations(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	siteURL, siteID, sp := blocksSite(t, e, "Plain page.\n\n{% @blocky/card %}\n", false)
	h, page := publicGet(t, siteURL, 200)
	csp := h.Get("Content-Security-Policy")
	if strings.Contains(csp, "blocky.test") || strings.Contains(csp, "frame-src") {
		t.Errorf("page CSP %q names an integration that is not installed", csp)
	}
	if !strings.Contains(page, "integration blocky is not installed on this site or its space") {
		t.Errorf("the block of an integration not installed:\n%s", page)
	}
	// Installed on the space, its block renders and its policy joins the page's.
	in := e.Post(e.Admin, "/v1/integrations/blocky/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	e.Post(e.Admin, "/v1/integrations/blocky/installations/"+in+"/spaces", map[string]any{"space": sp}).Expect(201)
	h, page = publicGet(t, siteURL, 200)
	if cardBlock.FindString(page) == "" {
		t.Fatalf("no card block once installed on the space:\n%s", page)
	}
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src https://api.blocky.test") ||
		!strings.Contains(csp, "frame-src https://embed.example.test") {
		t.Errorf("page CSP %q with the block of a space installation", csp)
	}
	// On the site: every page of the site carries the policy, blocks or not.
	e.Post(e.Admin, "/v1/integrations/blocky/installations/"+in+"/sites", map[string]any{"siteId": siteID}).Expect(201)
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("home", "", "Home", "home", "No blocks.\n").tree)
	h, _ = publicGet(t, siteURL, 200)
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src https://api.blocky.test") || strings.Contains(csp, "frame-src") {
		t.Errorf("page CSP %q of a site with the integration installed", csp)
	}
}

// In a real browser (headless Chromium), a published page with the test integration installed
// on its site runs the script the integration injects (it marks the page's root element with
// the site installation's configuration) under the page's Content-Security-Policy, and shows
// the integration's block rendered, its webframe an iframe in a sandbox. No request leaves the
// machine: the browser resolves no name but the server's.
func TestIntegrationScriptAndBlockInARealBrowser(t *testing.T) {
	chrome := chromiumPath()
	if chrome == "" {
		t.Skip("no chromium on PATH: install it (apt-get install -y chromium, as .ci/run does) to run the real-browser test")
	}
	e := apitest.New(t)
	siteURL, siteID, _ := blocksSite(t, e, "Before the block.\n\n{% @blocky/card title=\"In a browser\" %}\n", true)
	in := e.Get(e.Admin, "/v1/integrations/blocky/installations").Expect(200).Str("items.0.id")
	e.Patch(e.Admin, "/v1/integrations/blocky/installations/"+in+"/sites/"+siteID,
		map[string]any{"configuration": map[string]any{"trackingId": "T-browser"}}).Expect(200)

	ctx := browserContext(t, chrome, chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"))

	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(siteURL),
		chromedp.WaitVisible(chromedp.CSS(`.integration-block[data-block="card"] .ck-text`)),
		// The injected script is deferred: it has run once the attribute is there.
		chromedp.WaitReady(chromedp.CSS(`html[data-docsd-tracking]`)),
	); err != nil {
		t.Fatalf("open %s: %v", siteURL, err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](`(() => {
		const f = document.querySelector('.integration-block iframe.ck-webframe');
		return {
			tracking: document.documentElement.getAttribute('data-docsd-tracking'),
			global: String(window.docsdTracking),
			card: document.querySelector('.integration-block[data-block="card"] .ck-text').textContent,
			code: document.querySelector('.integration-block pre.ck-code-block code').textContent,
			frameSandbox: f ? f.getAttribute('sandbox') : null,
			frameSrc: f ? f.src : null,
			button: document.querySelector('.integration-block a.ck-button').href,
		};
	})()`))
	if err != nil {
		t.Fatalf("read the page: %v", err)
	}
	want := map[string]any{"tracking": "T-browser", "global": "T-browser", "card": "Card: In a browser", "code": "if (a < b) run();",
		"frameSandbox": "allow-scripts allow-popups allow-forms", "frameSrc": "https://embed.example.test/frame?x=1",
		"button": "https://docs.example.test/"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %v, want %v", k, got[k], v)
		}
	}
}
