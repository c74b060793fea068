package pdfrender_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

	"docsd/internal/pdfrender"
)

// sampleDoc exercises every construct the renderer draws.
func sampleDoc() pdfrender.Document {
	return pdfrender.Document{
		Title: "Acme Handbook",
		Pages: []pdfrender.Page{
			{Title: "Welcome", Path: "README.md", Markdown: welcomeMD},
			{Title: "Installing", Path: "guides/install.md", Depth: 1, Markdown: installMD},
			{Title: "Reference tables", Path: "guides/reference.md", Depth: 1, Markdown: referenceMD},
			{Title: "Around the world", Path: "unicode.md", Markdown: unicodeMD},
		},
	}
}

const welcomeMD = `# Welcome

This handbook explains **how we work**, with *emphasis*, ***both at once***, ` + "`inline code`" + `
and ~~struck text~~. Read the [installation guide](guides/install.md) next, or visit
[our website](https://example.com/docs) and <https://example.org>.

{% hint style="info" %}
Hints keep their text while the liquid tags go.
{% endhint %}

## Lists

- First bullet
- Second bullet with a longer text that should wrap onto a second line because it goes on and on and on for a while
  - Nested bullet
    - Deeper bullet
- Third bullet

1. Step one
2. Step two
   1. Sub-step A
   2. Sub-step B
3. Step three

- [x] Done task
- [ ] Open task

> A block quote, with **bold** words inside it.
>
> And a second paragraph in the same quote.

---

Here is an image:

![Blue square](assets/blue.png)

And a missing one: ![Missing diagram](assets/missing.png)

<figure><img src="assets/photo.jpg" alt="A photo"><figcaption>Caption</figcaption></figure>

A footnote reference[^1].

[^1]: The footnote text.
`

const installMD = `# Installing

Run the installer:

` + "```sh" + `
curl -fsSL https://example.com/install.sh | sh
docsd serve --data-dir ./data --addr 127.0.0.1:8080 --base-url https://docs.example.com --log-level debug --fetch-allow-private
	indented with a tab
` + "```" + `

### Configuration

Set ` + "`DOCSD_DATA_DIR`" + ` before starting. Back to the [welcome page](../README.md).
`

const referenceMD = `## Options

| Name | Default | Description |
|:-----|:-------:|------------:|
| addr | 127.0.0.1:8080 | Listen address |
| data-dir | ./docsd-data | Where SQLite and file bytes live; this description is long enough that the cell has to wrap onto several lines inside its column |
| log-level | info | debug, info, warn or error |
`

const unicodeMD = `Ελληνικά, русский текст, Français, Čeština, Türkçe — “quotes” … ﬁ ligature.

Chinese 中文 and emoji 🚀 ✓ done.
`

func sampleImages(t testing.TB) pdfrender.ImageResolver {
	blue := image.NewRGBA(image.Rect(0, 0, 120, 80))
	for y := 0; y < 80; y++ {
		for x := 0; x < 120; x++ {
			blue.Set(x, y, color.RGBA{30, 90, 200, 255})
		}
	}
	var pngBuf, jpgBuf bytes.Buffer
	if err := png.Encode(&pngBuf, blue); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jpgBuf, blue, nil); err != nil {
		t.Fatal(err)
	}
	return func(p pdfrender.Page, src string) ([]byte, error) {
		switch {
		case strings.HasSuffix(src, "blue.png"):
			return pngBuf.Bytes(), nil
		case strings.HasSuffix(src, "photo.jpg"):
			return jpgBuf.Bytes(), nil
		}
		return nil, errors.New("no such image")
	}
}
