package docxconv_test

import (
	"bytes"
	"errors"
	"image/png"
	"strings"
	"testing"

	"docsd/internal/docxconv"
	"docsd/internal/docxconv/docxtest"
)

// converter is pandoc, when it is installed (see docxtest.NeedPandoc).
func converter(t *testing.T) docxconv.Converter {
	t.Helper()
	docxtest.NeedPandoc(t)
	return docxconv.Converter{Program: "pandoc"}
}

func TestConvertWordDocument(t *testing.T) {
	c := converter(t)
	doc := docxtest.Sample()
	data, err := doc.Build()
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Convert(t.Context(), data, "media/0")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Release guide\n", "## Before you start\n", "[the changelog](https://example.com/changelog)",
		"-   Back up the data", "1.  Stop the server", "2.  Install the update",
		"| Version | Date  |", "| 2.1     | June  |", "![Architecture diagram](media/0/media/image1.png)",
	} {
		if !strings.Contains(res.Markdown, want) {
			t.Errorf("markdown lacks %q:\n%s", want, res.Markdown)
		}
	}
	img, ok := res.Media["media/0/media/image1.png"]
	if !ok || len(res.Media) != 1 {
		t.Fatalf("media: %v", keys(res.Media))
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(img))
	if err != nil || cfg.Width != docxtest.ImageWidth || cfg.Height != docxtest.ImageHeight {
		t.Errorf("image: %+v %v", cfg, err)
	}
}

func TestConvertRefusals(t *testing.T) {
	c := converter(t)
	t.Run("bytes that are not a document are the uploader's fault", func(t *testing.T) {
		_, err := c.Convert(t.Context(), []byte("not a zip at all"), "media/0")
		var inv *docxconv.InvalidError
		if !errors.As(err, &inv) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a media directory outside the work directory is refused", func(t *testing.T) {
		if _, err := c.Convert(t.Context(), nil, "../x"); err == nil {
			t.Fatal("no error")
		}
	})
	t.Run("without pandoc the converter says so", func(t *testing.T) {
		none := docxconv.Converter{Program: "docsd-no-such-pandoc"}
		if none.Available() {
			t.Fatal("available")
		}
		if _, err := none.Convert(t.Context(), nil, "m"); !errors.Is(err, docxconv.ErrUnavailable) {
			t.Fatalf("err = %v", err)
		}
	})
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
