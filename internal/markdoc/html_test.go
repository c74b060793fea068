package markdoc_test

import (
	"strings"
	"testing"

	"docsd/internal/markdoc"
)

func TestToHTML(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, markdown string
		want, notWant  []string
	}{
		{
			name:     "headings carry the anchors of the document",
			markdown: "## Getting started\n\n## Getting started\n\n## Install {#setup}\n\n## Usage <a href=\"#use\" id=\"use\"></a>",
			want:     []string{`<h2 id="getting-started">Getting started</h2>`, `<h2 id="getting-started-1">`, `<h2 id="setup">Install</h2>`, `<h2 id="use">Usage</h2>`},
		},
		{
			name:     "GFM: tables with alignment, strikethrough, task lists",
			markdown: "| a | b |\n|:-:|--:|\n| 1 | 2 |\n\n~~old~~\n\n- [x] done",
			want:     []string{`<th style="text-align: center">a</th>`, `<td style="text-align: right">2</td>`, `<del>old</del>`, `<input checked="" disabled="" type="checkbox">`},
		},
		{
			name:     "GitBook blocks become classed elements",
			markdown: "{% hint style=\"warning\" %}\nCareful.\n{% endhint %}\n\n{% tabs %}\n{% tab title=\"One\" %}\nx\n{% endtab %}\n{% endtabs %}\n\n{% code title=\"a.go\" %}\n```go\nx\n```\n{% endcode %}\n\n{% embed url=\"https://e.example/v\" %}",
			want: []string{`<div class="hint hint-warning">`, "<p>Careful.</p>", `<div class="tabs">`, `<div class="tab"><p class="tab-title">One</p>`,
				`<div class="code-block"><p class="code-title">a.go</p>`, `<code class="language-go">`, `<div class="embed"><a href="https://e.example/v" rel="nofollow">https://e.example/v</a>`},
		},
		{
			name:     "footnotes and math",
			markdown: "Claim[^1] and $$x^2$$.\n\n[^1]: Source.\n\n$$\na<b\n$$",
			want:     []string{`<sup id="fnref:1"><a href="#fn:1" class="footnote-ref" role="doc-noteref">1</a></sup>`, `<li id="fn:1">`, `<span class="math">x^2</span>`, `<div class="math">a&lt;b</div>`},
		},
		{
			name:     "GitBook figures and expandables survive sanitizing",
			markdown: "<figure><img src=\".gitbook/assets/a.png\" alt=\"A\" width=\"300\"><figcaption><p>Cap</p></figcaption></figure>\n\n<details>\n<summary>More</summary>\n\nBody\n\n</details>",
			want:     []string{`<figure><img src=".gitbook/assets/a.png" alt="A" width="300"><figcaption><p>Cap</p></figcaption></figure>`, "<details>", "<summary>More</summary>", "<p>Body</p>"},
		},
		{
			name:     "relative links are kept, external ones get nofollow",
			markdown: "[in](setup.md#x) [out](https://other.example)",
			want:     []string{`<a href="setup.md#x">in</a>`, `<a href="https://other.example" rel="nofollow">out</a>`},
		},
		{
			name:     "scripts, event handlers, styles and javascript URLs are removed",
			markdown: "<script>alert(1)</script>\n\n<img src=\"x.png\" onerror=\"alert(2)\">\n\n[click](javascript:alert(3))\n\n<p style=\"position:fixed\" onclick=\"alert(4)\">text</p>\n\n<iframe src=\"https://evil.example\"></iframe>\n\n{% embed url=\"javascript:alert(5)\" %}",
			want:     []string{`<img src="x.png">`, "<p>text</p>"},
			notWant:  []string{"<script", "alert(1)", "alert(2)", "onerror", "onclick", "alert(4)", `href="javascript`, "style=", "<iframe"},
		},
		{
			name:     "heading ids cannot be made unsafe",
			markdown: "## A {#\"><script>x</script>}",
			notWant:  []string{"<script"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := markdoc.ToHTML(tc.markdown)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("HTML lacks %s:\n%s", w, got)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(got, w) {
					t.Errorf("HTML has %s:\n%s", w, got)
				}
			}
		})
	}
}
