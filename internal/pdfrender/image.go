package pdfrender

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/gif" // decoders for image.Decode
	_ "image/jpeg"
	"image/png"

	"codeberg.org/go-pdf/fpdf"
	_ "golang.org/x/image/webp"
)

// maxPixels bounds the images decoded, so one huge picture cannot exhaust memory.
const maxPixels = 40_000_000

// screenDPI is the resolution an image is assumed to have: a screenshot keeps its size
// on screen, and anything wider than the text is scaled down to fit.
const screenDPI = 96.0

type imageKey struct {
	page int
	src  string
}

// preparedImage is an image in a form fpdf embeds: JPEG as it came, anything else
// re-encoded as 8-bit PNG (fpdf reads neither 16-bit nor interlaced PNG, GIF frames or WebP).
type preparedImage struct {
	name          string // fpdf's key: the hash of the bytes, so a repeated image is embedded once
	kind          string // "JPG" or "PNG"
	data          []byte
	width, height int // pixels
	failed        bool
}

// imageCache resolves and prepares each image once for both rendering passes.
type imageCache struct {
	resolve ImageResolver
	images  map[imageKey]*preparedImage
}

func newImageCache(resolve ImageResolver) *imageCache {
	return &imageCache{resolve: resolve, images: map[imageKey]*preparedImage{}}
}

// get returns the image page refers to as src, or nil when there is none to draw.
func (c *imageCache) get(pageIdx int, page Page, src string) *preparedImage {
	if c.resolve == nil || src == "" {
		return nil
	}
	key := imageKey{pageIdx, src}
	img, seen := c.images[key]
	if !seen {
		data, err := c.resolve(page, src)
		if err == nil && len(data) > 0 {
			img = prepareImage(data)
		}
		c.images[key] = img
	}
	if img == nil || img.failed {
		return nil
	}
	return img
}

func prepareImage(data []byte) *preparedImage {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxPixels {
		return nil
	}
	img := &preparedImage{width: cfg.Width, height: cfg.Height}
	if format == "jpeg" && (cfg.ColorModel == color.YCbCrModel || cfg.ColorModel == color.GrayModel) {
		img.kind, img.data = "JPG", data
	} else {
		decoded, _, err := image.Decode(bytes.NewReader(data))
		if err != nil {
			return nil
		}
		b := decoded.Bounds()
		rgba := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(rgba, rgba.Bounds(), decoded, b.Min, draw.Src)
		var buf bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		if err := enc.Encode(&buf, rgba); err != nil {
			return nil
		}
		img.kind, img.data = "PNG", buf.Bytes()
	}
	img.name = fmt.Sprintf("img-%x", sha256.Sum256(img.data))
	return img
}

// image draws the image src on lines of its own at the left edge, scaled to fit the text
// width and the page, and reports whether there was one to draw.
func (r *renderer) image(src string) bool {
	img := r.images.get(r.pageIdx, r.doc.Pages[r.pageIdx], src)
	if img == nil {
		return false
	}
	pdf := r.pdf
	opts := fpdf.ImageOptions{ImageType: img.kind}
	if pdf.GetImageInfo(img.name) == nil {
		if pdf.Err() {
			return false
		}
		pdf.RegisterImageOptionsReader(img.name, opts, bytes.NewReader(img.data))
		if pdf.Err() { // bytes fpdf cannot embed after all: leave the image out
			pdf.ClearError()
			img.failed = true
			return false
		}
	}
	w := float64(img.width) * 25.4 / screenDPI
	h := float64(img.height) * 25.4 / screenDPI
	maxW, maxH := r.contentWidth(), (r.pageBottom()-marginTop)*0.85
	if w > maxW {
		w, h = maxW, h*maxW/w
	}
	if h > maxH {
		w, h = w*maxH/h, maxH
	}
	r.newline(bodyLine)
	r.ensure(h)
	y := pdf.GetY()
	pdf.ImageOptions(img.name, r.left, y, w, h, false, opts, 0, "")
	pdf.SetXY(r.left, y+h+1.5)
	return true
}
