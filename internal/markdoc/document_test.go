package markdoc_test

import (
	"strings"
	"testing"

	"docsd/internal/markdoc"
)

type documentCase struct {
	name, markdown, want string
}

func runDocumentCases(t *testing.T, cases []documentCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := markdoc.ToDocument(tc.markdown)
			if got, want := strings.TrimSpace(outline(doc)), strings.TrimSpace(tc.want); got != want {
				t.Errorf("markdown:\n%s\ngot:\n%s\nwant:\n%s", tc.markdown, got, want)
			}
			checkValid(t, doc)
		})
	}
}

func TestToDocumentTextBlocks(t *testing.T) {
	t.Parallel()
	runDocumentCases(t, []documentCase{
		{"empty markdown is an empty document", "", ""},
		{"paragraph", "Hello world.", `
paragraph
  text "Hello world."[]`},
		{"soft break is a space, hard break a newline", "one\ntwo\\\nthree  \nfour", `
paragraph
  text "one two\nthree\nfour"[]`},
		{"# and ## are heading-1, ### heading-2, deeper heading-3", "# A\n\n## B\n\n### C\n\n#### D\n\n###### E", `
heading-1 meta={"id":"a"}
  text "A"[]
heading-1 meta={"id":"b"}
  text "B"[]
heading-2 meta={"id":"c"}
  text "C"[]
heading-3 meta={"id":"d"}
  text "D"[]
heading-3 meta={"id":"e"}
  text "E"[]`},
		{"heading ids are slugs, repeated ones numbered", "## Getting Started!\n\n## Getting started\n\n## Ça va?\n\n## 日本語", `
heading-1 meta={"id":"getting-started"}
  text "Getting Started!"[]
heading-1 meta={"id":"getting-started-1"}
  text "Getting started"[]
heading-1 meta={"id":"ca-va"}
  text "Ça va?"[]
heading-1 meta={"id":"h-77710aed"}
  text "日本語"[]`},
		{"written heading ids win and go to data.id", "## Setup\n\n## Install {#setup}\n\n## Usage <a href=\"#use-it\" id=\"use-it\"></a>", `
heading-1 meta={"id":"setup-1"}
  text "Setup"[]
heading-1 {"id":"setup"} meta={"id":"setup"}
  text "Install"[]
heading-1 {"id":"use-it"} meta={"id":"use-it"}
  text "Usage"[]`},
		{"divider", "a\n\n---\n\nb", `
paragraph
  text "a"[]
divider
paragraph
  text "b"[]`},
		{"blockquote, nested", "> quoted\n>\n> > deeper", `
blockquote
  paragraph
    text "quoted"[]
  blockquote
    paragraph
      text "deeper"[]`},
		{"GitHub alerts are hints", "> [!WARNING]\n> Mind the gap.\n\n> [!TIP] Use keys.", `
hint {"style":"warning"}
  paragraph
    text "Mind the gap."[]
hint {"style":"success"}
  paragraph
    text "Use keys."[]`},
		{"fenced code with its language, a line per code-line", "```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```", `
code {"syntax":"go"}
  code-line
    text "func main() {"[]
  code-line
    text "\tprintln(\"hi\")"[]
  code-line
    text "}"[]`},
		{"indented code", "    x := 1\n    y := 2", `
code
  code-line
    text "x := 1"[]
  code-line
    text "y := 2"[]`},
		{"escapes and entities are resolved", `a \*b\* &amp; &#169; &copy;`, `
paragraph
  text "a *b* & © ©"[]`},
		{"front matter is not content", "---\ndescription: d\n---\n\nText.", `
paragraph
  text "Text."[]`},
		{"a divider and a heading are not front matter", "---\nTitle\n---\n", `
divider
heading-1 meta={"id":"title"}
  text "Title"[]`},
		{"raw HTML blocks keep their text, comments vanish", "<div align=\"center\">\n<p>Centered <b>text</b></p>\n</div>\n\n<!-- a note -->", `
paragraph
  text "Centered text"[]`},
	})
}

func TestToDocumentMarks(t *testing.T) {
	t.Parallel()
	runDocumentCases(t, []documentCase{
		{"bold, italic, code, strikethrough", "**b** *i* `c` ~~s~~", `
paragraph
  text "b"[bold] " "[] "i"[italic] " "[] "c"[code] " "[] "s"[strikethrough]`},
		{"nested marks accumulate", "**bold *both* bold**", `
paragraph
  text "bold "[bold] "both"[bold italic] " bold"[bold]`},
		{"code keeps backslashes", "`a\\*b`", `
paragraph
  text "a\\*b"[code]`},
		{"inline HTML marks", "Press <kbd>Ctrl</kbd>, H<sub>2</sub>O, x<sup>2</sup>, <strong>strong</strong>, <unknown>plain</unknown>", `
paragraph
  text "Press "[] "Ctrl"[keyboard] ", H"[] "2"[subscript] "O, x"[] "2"[superscript] ", "[] "strong"[bold] ", plain"[]`},
		{"an unclosed HTML mark ends with its paragraph", "<kbd>one\n\ntwo", `
paragraph
  text "one"[keyboard]
paragraph
  text "two"[]`},
	})
}

func TestToDocumentLinksAndImages(t *testing.T) {
	t.Parallel()
	runDocumentCases(t, []documentCase{
		{"links keep destinations as url refs, anchors as anchor refs", "[page](../guide/setup.md#install) [top](#intro) [site](https://example.com/a?b=c)", `
paragraph
  text ""[]
  link {"ref":{"kind":"url","url":"../guide/setup.md#install"}}
    text "page"[]
  text " "[]
  link {"ref":{"kind":"anchor","anchor":"intro"}}
    text "top"[]
  text " "[]
  link {"ref":{"kind":"url","url":"https://example.com/a?b=c"}}
    text "site"[]
  text ""[]`},
		{"marks inside and around links", "**see [the *docs*](d.md)**", `
paragraph
  text "see "[bold]
  link {"ref":{"kind":"url","url":"d.md"}}
    text "the "[bold] "docs"[bold italic]
  text ""[]`},
		{"autolinks, bare URLs and emails", "<https://a.example> www.b.example <me@c.example>", `
paragraph
  text ""[]
  link {"ref":{"kind":"url","url":"https://a.example"}}
    text "https://a.example"[]
  text " "[]
  link {"ref":{"kind":"url","url":"http://www.b.example"}}
    text "www.b.example"[]
  text " "[]
  link {"ref":{"kind":"url","url":"mailto:me@c.example"}}
    text "me@c.example"[]
  text ""[]`},
		{"a link to nowhere is still a url ref", "[x]()", `
paragraph
  text ""[]
  link {"ref":{"kind":"url","url":""}}
    text "x"[]
  text ""[]`},
		{"reference links", "[docs][d]\n\n[d]: https://docs.example \"Docs\"", `
paragraph
  text ""[]
  link {"ref":{"kind":"url","url":"https://docs.example"}}
    text "docs"[]
  text ""[]`},
		{"a paragraph of images is an images block, the title its caption", "![Logo](.gitbook/assets/logo.png \"Our logo\")\n![](b.png)", `
images
  image {"alt":"Logo","ref":{"kind":"url","url":".gitbook/assets/logo.png"}}
    #caption
      paragraph
        text "Our logo"[]
  image {"ref":{"kind":"url","url":"b.png"}}`},
		{"an image within text is an inline image", "See ![icon](i.svg) here.", `
paragraph
  text "See "[]
  inline-image {"alt":"icon","ref":{"kind":"url","url":"i.svg"}}
  text " here."[]`},
		{"a linked image", "[![badge](b.svg)](https://ci.example)", `
paragraph
  text ""[]
  link {"ref":{"kind":"url","url":"https://ci.example"}}
    text ""[]
    inline-image {"alt":"badge","ref":{"kind":"url","url":"b.svg"}}
    text ""[]
  text ""[]`},
		{"GitBook figures: caption, width, alignment", `<div align="left"><figure><img src=".gitbook/assets/shot.png" alt="Screen" width="375"><figcaption><p>The <em>screen</em></p></figcaption></figure></div>`, `
images {"align":"left"}
  image {"alt":"Screen","ref":{"kind":"url","url":".gitbook/assets/shot.png"},"width":375}
    #caption
      paragraph
        text "The screen"[]`},
		{"inline HTML images", `Logo: <img src="l.png" alt="L">`, `
paragraph
  text "Logo: "[]
  inline-image {"alt":"L","ref":{"kind":"url","url":"l.png"}}
  text ""[]`},
	})
}

func TestToDocumentLists(t *testing.T) {
	t.Parallel()
	runDocumentCases(t, []documentCase{
		{"unordered", "- a\n- b", `
list-unordered
  list-item
    paragraph
      text "a"[]
  list-item
    paragraph
      text "b"[]`},
		{"ordered with a start", "3. c\n4. d", `
list-ordered {"start":3}
  list-item
    paragraph
      text "c"[]
  list-item
    paragraph
      text "d"[]`},
		{"nested lists and a loose item with two paragraphs", "1. one\n   - one.a\n     1. one.a.i\n2. two\n\n   more", `
list-ordered
  list-item
    paragraph
      text "one"[]
    list-unordered
      list-item
        paragraph
          text "one.a"[]
        list-ordered
          list-item
            paragraph
              text "one.a.i"[]
  list-item
    paragraph
      text "two"[]
    paragraph
      text "more"[]`},
		{"task lists", "- [ ] todo\n- [x] **done**", `
list-tasks
  list-item {"checked":false}
    paragraph
      text "todo"[]
  list-item {"checked":true}
    paragraph
      text "done"[bold]`},
		{"code in a list item stays code, images become inline", "- item\n\n  ```sh\n  ls\n  ```\n\n  ![x](x.png)", `
list-unordered
  list-item
    paragraph
      text "item"[]
    code {"syntax":"sh"}
      code-line
        text "ls"[]
    paragraph
      text ""[]
      inline-image {"alt":"x","ref":{"kind":"url","url":"x.png"}}
      text ""[]`},
		{"an empty item holds an empty paragraph", "-\n- b", `
list-unordered
  list-item
    paragraph
      text ""[]
  list-item
    paragraph
      text "b"[]`},
	})
}

func TestToDocumentTables(t *testing.T) {
	t.Parallel()
	runDocumentCases(t, []documentCase{
		{"columns, alignment, records and cell fragments", "| Name | Size | Note |\n|:-----|-----:|:----:|\n| **a** | 1 | `x` |\n| b | 22 |", `
table {"definition":{"c0":{"id":"c0","textAlignment":"left","title":"Name","type":"text"},"c1":{"id":"c1","textAlignment":"right","title":"Size","type":"text"},"c2":{"id":"c2","textAlignment":"center","title":"Note","type":"text"}},"records":{"r0":{"orderIndex":"a000000","values":{"c0":"r0c0","c1":"r0c1","c2":"r0c2"}},"r1":{"orderIndex":"a000001","values":{"c0":"r1c0","c1":"r1c1","c2":"r1c2"}}},"view":{"columns":["c0","c1","c2"],"hideHeader":false,"type":"grid"}}
  #r0c0
    paragraph
      text "a"[bold]
  #r0c1
    paragraph
      text "1"[]
  #r0c2
    paragraph
      text "x"[code]
  #r1c0
    paragraph
      text "b"[]
  #r1c1
    paragraph
      text "22"[]
  #r1c2
    paragraph
      text ""[]`},
	})
}

func TestToDocumentGitBookBlocks(t *testing.T) {
	t.Parallel()
	runDocumentCases(t, []documentCase{
		{"hint", "{% hint style=\"danger\" %}\nDo **not** do this.\n{% endhint %}", `
hint {"style":"danger"}
  paragraph
    text "Do "[] "not"[bold] " do this."[]`},
		{"hint with an unknown style is info; what a hint may not hold is downgraded", "{% hint style=\"purple\" %}\n## Title\n\n```\ncode\n```\n\n> quote\n{% endhint %}", `
hint {"style":"info"}
  heading-1 meta={"id":"title"}
    text "Title"[]
  paragraph
    text "code"[code]
  paragraph
    text "quote"[]`},
		{"a closing tag inside a fenced code block is code", "{% hint style=\"info\" %}\n```\n{% endhint %}\n```\n{% endhint %}", `
hint {"style":"info"}
  paragraph
    text "{% endhint %}"[code]`},
		{"nested hints", "{% hint style=\"info\" %}\nouter\n{% hint style=\"success\" %}\ninner\n{% endhint %}\nafter\n{% endhint %}", `
hint {"style":"info"}
  paragraph
    text "outer"[]
  paragraph
    text "inner"[]
  paragraph
    text "after"[]`},
		{"an unclosed hint loses only its line", "{% hint style=\"info\" %}\nNever closed.", `
paragraph
  text "Never closed."[]`},
		{"swagger", "{% swagger src=\"api.yaml\" path=\"/pets\" method=\"get\" %}\n[api.yaml](api.yaml)\n{% endswagger %}", `
swagger {"method":"get","path":"/pets","ref":{"kind":"url","url":"api.yaml"}} meta={"id":"operation-get-pets"}`},
		{"unknown tags show their content and never their lines", "{% frobnicate level=\"2\" %}\nInside.\n{% endfrobnicate %}\n\n{% lonely %}\n\nAfter.", `
paragraph
  text "Inside."[]
paragraph
  text "After."[]`},
		{"columns become their content where the schema has no columns", "{% columns %}\n{% column width=\"50%\" %}\nLeft.\n{% endcolumn %}\n{% column %}\nRight.\n{% endcolumn %}\n{% endcolumns %}", `
paragraph
  text "Left."[]
paragraph
  text "Right."[]`},
		{"updates show each entry's date and tags", "{% updates format=\"full\" %}\n{% update date=\"2024-05-01\" tags=\"api\" %}\n## New API\nShipped.\n{% endupdate %}\n{% endupdates %}", `
paragraph
  text "2024-05-01 · api"[bold]
heading-1 meta={"id":"new-api"}
  text "New API"[]
paragraph
  text "Shipped."[]`},
		{"openapi operation, schemas and webhook", "{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"GET\" %}\n[OpenAPI petstore](https://example.com/openapi.json)\n{% endopenapi-operation %}\n\n{% openapi-schemas spec=\"petstore\" schemas=\"Pet,Tag\" grouped=\"false\" %}\n{% endopenapi-schemas %}\n\n{% openapi-webhook spec=\"petstore\" name=\"newPet\" method=\"post\" %}\n{% endopenapi-webhook %}", `
openapi-operation {"method":"get","path":"/pets","ref":{"kind":"openapi","spec":"petstore"}} meta={"id":"operation-get-pets"}
openapi-schemas {"grouped":false,"ref":{"kind":"openapi","spec":"petstore"},"schemas":["Pet","Tag"]} meta={"id":"schemas-pet-tag"}
openapi-webhook {"method":"post","name":"newPet","ref":{"kind":"openapi","spec":"petstore"}} meta={"id":"webhook-post-newpet"}`},
		{"an if shows its content where the schema has no if", "{% if visitor.claims.plan == \"pro\" %}\nFor pros.\n{% endif %}", `
paragraph
  text "For pros."[]`},
		{"an include with no reusable content to resolve it shows nothing", "Before.\n\n{% include \"../.gitbook/includes/x.md\" %}\n\nAfter.", `
paragraph
  text "Before."[]
paragraph
  text "After."[]`},
		{"a prompt shows its content", "{% prompt %}\nAsk me.\n{% endprompt %}", `
paragraph
  text "Ask me."[]`},
		{"code with a title and options", "{% code title=\"app.js\" overflow=\"wrap\" lineNumbers=\"true\" %}\n```js\nrun()\n```\n{% endcode %}", `
code {"lineNumbers":true,"overflow":"wrap","syntax":"js","title":"app.js"}
  code-line
    text "run()"[]`},
		{"tabs", "{% tabs %}\n{% tab title=\"C\\#\" %}\n```csharp\nx();\n```\n{% endtab %}\n\n{% tab title=\"Go\" %}\nGo text.\n{% endtab %}\n{% endtabs %}", `
tabs
  tabs-item {"title":"C#"}
    code {"syntax":"csharp"}
      code-line
        text "x();"[]
  tabs-item {"title":"Go"}
    paragraph
      text "Go text."[]`},
		{"stepper", "{% stepper %}\n{% step %}\n### Install\n{% endstep %}\n{% step %}\nRun it.\n{% endstep %}\n{% endstepper %}", `
stepper
  stepper-step
    heading-2 meta={"id":"install"}
      text "Install"[]
  stepper-step
    paragraph
      text "Run it."[]`},
		{"embed, alone and with a caption", "{% embed url=\"https://youtu.be/x?t=1%20s\" %}\n\n{% embed url=\"https://example.com\" fullWidth=\"true\" %}\nA caption\n{% endembed %}", `
embed {"url":"https://youtu.be/x?t=1%20s"}
embed {"fullWidth":true,"url":"https://example.com"}
paragraph
  text "A caption"[]`},
		{"a file not resolved to a file of the space is a link", "{% file src=\".gitbook/assets/guide.pdf\" %}\nThe guide\n{% endfile %}", `
paragraph
  text ""[]
  link {"ref":{"kind":"url","url":".gitbook/assets/guide.pdf"}}
    text "The guide"[]
  text ""[]`},
		{"content-ref", "{% content-ref url=\"setup.md\" %}\n[setup.md](setup.md)\n{% endcontent-ref %}", `
content-ref {"ref":{"kind":"url","url":"setup.md"}}`},
		{"math block and inline math", "$$\nE = mc^2\n$$\n\nInline $$a^2$$ here.\n\n$$x+1$$", `
math {"formula":"E = mc^2"}
paragraph
  text "Inline "[]
  inline-math {"formula":"a^2"}
  text " here."[]
math {"formula":"x+1"}`},
		{"an unclosed math fence stays text", "$$\nx", `
paragraph
  text "$$ x"[]`},
		{"footnotes are annotations", "Claim[^src].\n\n[^src]: A *source*.", `
paragraph
  text "Claim"[]
  annotation
    text "1"[]
    #annotation-body
      paragraph
        text "A "[] "source"[italic] "."[]
  text "."[]`},
		{"details is an expandable", "<details>\n\n<summary>More <b>info</b></summary>\n\nHidden **text**.\n\n- item\n\n</details>", `
expandable
  #expandable-title
    paragraph
      text "More info"[]
  #expandable-body
    paragraph
      text "Hidden "[] "text"[bold] "."[]
    list-unordered
      list-item
        paragraph
          text "item"[]`},
		{"details in one HTML block", "<details><summary>Q</summary>A</details>", `
expandable
  #expandable-title
    paragraph
      text "Q"[]
  #expandable-body
    paragraph
      text "A"[]`},
		{"a tab inside a list item is unwrapped, its title bold", "- item\n\n  {% tabs %}\n  {% tab title=\"One\" %}\n  Body\n  {% endtab %}\n  {% endtabs %}", `
list-unordered
  list-item
    paragraph
      text "item"[]
    paragraph
      text "One"[bold]
    paragraph
      text "Body"[]`},
		{"a table inside a hint becomes rows of text", "{% hint style=\"info\" %}\n| A | B |\n|---|---|\n| 1 | 2 |\n{% endhint %}", `
hint {"style":"info"}
  paragraph
    text "A | B"[bold]
  paragraph
    text "1 | 2"[]`},
	})
}

func TestToDocumentRefOption(t *testing.T) {
	t.Parallel()
	opts := markdoc.Options{Ref: func(dest string) markdoc.Ref {
		link, _ := markdoc.ParseLink(dest)
		switch {
		case link.Kind == markdoc.LinkPage && link.Path == "setup.md" && link.Anchor != "":
			return markdoc.Ref{Kind: "anchor", Page: "page-setup", Anchor: link.Anchor}
		case link.Kind == markdoc.LinkPage && link.Path == "setup.md":
			return markdoc.Ref{Kind: "page", Page: "page-setup"}
		case dest == "page-as-image.md":
			return markdoc.Ref{Kind: "page", Page: "p"}
		case link.Kind == markdoc.LinkFile:
			return markdoc.Ref{Kind: "file", File: "file-" + strings.TrimPrefix(link.Path, ".gitbook/assets/")}
		}
		return markdoc.Ref{}
	}}
	doc := opts.ToDocument("[a](setup.md) [b](setup.md#run) [c](https://x.example)\n\n![l](.gitbook/assets/l.png)\n\n" +
		"{% file src=\".gitbook/assets/g.pdf\" %}\n{% endfile %}\n\n{% content-ref url=\"setup.md\" %}\n{% endcontent-ref %}\n\n" +
		"![not a picture](page-as-image.md)")
	want := `
paragraph
  text ""[]
  link {"ref":{"kind":"page","page":"page-setup"}}
    text "a"[]
  text " "[]
  link {"ref":{"kind":"anchor","page":"page-setup","anchor":"run"}}
    text "b"[]
  text " "[]
  link {"ref":{"kind":"url","url":"https://x.example"}}
    text "c"[]
  text ""[]
images
  image {"alt":"l","ref":{"kind":"file","file":"file-l.png"}}
file {"ref":{"kind":"file","file":"file-g.pdf"}}
content-ref {"ref":{"kind":"page","page":"page-setup"}}
images
  image {"alt":"not a picture","ref":{"kind":"url","url":"page-as-image.md"}}`
	if got := strings.TrimSpace(outline(doc)); got != strings.TrimSpace(want) {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	checkValid(t, doc)
}

func TestToDocumentJSONShape(t *testing.T) {
	t.Parallel()
	raw, err := markdoc.ToDocument("Hi\n\n---").MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	// Fields the schema requires are present even when empty: data, nodes, marks, isVoid.
	for _, want := range []string{
		`{"object":"document","data":{},"nodes":[`,
		`"type":"paragraph",`, `"isVoid":false,"data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Hi","marks":[]}]}]`,
		`"type":"divider",`, `"isVoid":true,"data":{}}`,
	} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("JSON lacks %s:\n%s", want, raw)
		}
	}
	empty, _ := markdoc.ToDocument("").MarshalJSON()
	if string(empty) != `{"object":"document","data":{},"nodes":[]}` {
		t.Errorf("empty document: %s", empty)
	}
}
