package contentkit_test

import (
	"strings"
	"testing"

	"docsd/internal/contentkit"
)

// The ContentKit elements blocks use become escaped HTML; unsafe URLs are dropped, a webframe
// is a sandboxed iframe whose origin is reported, dynamic bindings read the state, and output
// that is not an element is an error.
func TestRender(t *testing.T) {
	t.Parallel()
	out, err := contentkit.Render([]byte(`{"state":{"code":"x < 1"},"props":{},"element":{"type":"block","children":[
		{"type":"text","style":"italic","children":["a <b>",{"type":"link","target":{"url":"javascript:alert(1)"},"children":["bad"]},
			{"type":"link","target":{"url":{"host":"ex.test","pathname":"/p","query":{"q":"1"}}},"children":["good"]}]},
		{"type":"codeblock","content":{"$state":"code"},"syntax":"js\"><script>"},
		{"type":"image","source":{"url":"data:image/png;base64,AAAA"},"aspectRatio":1},
		{"type":"webframe","source":{"url":"https://frame.test:8443/x?a=\"b\""},"aspectRatio":2},
		{"type":"webframe","source":{"url":"javascript:alert(1)"}},
		{"type":"button","label":"Go","onPress":{"action":"@ui.url.open","url":"https://go.test/"}},
		{"type":"button","label":"Act","onPress":{"action":"save"}},
		{"type":"textinput","state":"x"},
		{"type":"markdown","content":"**hi** <img src=x onerror=alert(1)>"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<em class="ck-text">a &lt;b&gt;<span class="ck-link">bad</span><a class="ck-link" href="https://ex.test/p?q=1"`,
		`<pre class="ck-code-block"><code>x &lt; 1</code></pre>`,
		`<iframe class="ck-webframe" src="https://frame.test:8443/x?a=&#34;b&#34;" sandbox="allow-scripts allow-popups allow-forms"`,
		`width="640" height="320"`,
		`<a class="ck-button" href="https://go.test/"`,
		`<button class="ck-button" type="button" disabled>Act</button>`,
		`<strong>hi</strong>`,
	} {
		if !strings.Contains(out.HTML, want) {
			t.Errorf("lacks %s:\n%s", want, out.HTML)
		}
	}
	for _, bad := range []string{"javascript:", "<script", "data:image", "onerror"} {
		if strings.Contains(out.HTML, bad) {
			t.Errorf("holds %s:\n%s", bad, out.HTML)
		}
	}
	if len(out.Frames) != 1 || out.Frames[0] != "https://frame.test:8443" {
		t.Errorf("frames %q", out.Frames)
	}
	for _, in := range []string{`{"type":"complete","returnValue":{}}`, `{"state":{}}`, `[1]`, `nope`} {
		if _, err := contentkit.Render([]byte(in)); err == nil {
			t.Errorf("%s rendered", in)
		}
	}
	// Deep nesting is cut, not a stack overflow.
	deep := strings.Repeat(`{"type":"box","children":[`, 1000) + strings.Repeat(`]}`, 1000)
	out, err = contentkit.Render([]byte(`{"state":{},"props":{},"element":` + deep + `}`))
	if err != nil || strings.Count(out.HTML, "<div") > 40 {
		t.Errorf("deep nesting: %d divs, %v", strings.Count(out.HTML, "<div"), err)
	}
}
