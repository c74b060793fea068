package importrun

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"testing/fstest"

	"docsd/internal/apperr"
	"docsd/internal/docxconv"
	"docsd/internal/gitbookimport"
)

// docxRefusal explains why a .docx file cannot be imported on this server.
func docxRefusal(name string) string {
	return fmt.Sprintf("%q: .docx files cannot be imported on this server (%v); export it as HTML or markdown", name, docxconv.ErrUnavailable)
}

// checkConvertible refuses a file the server has no converter for (.docx without pandoc)
// when its import is asked for, rather than in a job later.
func (s *Service) checkConvertible(field, name string) error {
	if f, err := fileFormat(name); err == nil && f == formatDocx && !s.Docx.Available() {
		return apperr.Invalidf("%s: %s", field, docxRefusal(name))
	}
	return nil
}

// readDocx converts the i-th uploaded file, a Word document, into one page with its images
// as the space's files. The images are named after the document ("guide-image1.png"), so
// that two documents' "image1.png" stay apart; the page's title is its first heading, else
// the file's name.
func (s *Service) readDocx(ctx context.Context, i int, name string, data []byte) (*gitbookimport.Result, error) {
	conv, err := s.Docx.Convert(ctx, data, fmt.Sprintf("docx-media-%d", i))
	var invalid *docxconv.InvalidError
	switch {
	case errors.Is(err, docxconv.ErrUnavailable):
		return nil, apperr.Invalidf("source.files[%d]: %s", i, docxRefusal(name))
	case errors.As(err, &invalid):
		return nil, apperr.Invalidf("source.files[%d]: %q: %v", i, name, invalid)
	case err != nil:
		return nil, err
	}
	base := path.Base(name)
	stem := strings.TrimSuffix(base, path.Ext(base))
	md := strings.TrimLeft(conv.Markdown, "\ufeff\r\n")
	if !strings.HasPrefix(md, "# ") {
		md = "# " + stem + "\n\n" + md
	}
	tree := fstest.MapFS{} // an in-memory tree, as a website's crawl is read
	for p, b := range conv.Media {
		asset := gitbookimport.AssetLocation(slugOf(stem) + "-" + path.Base(p))
		md = strings.ReplaceAll(md, "]("+p, "]("+asset)
		tree[asset] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	tree["README.md"] = &fstest.MapFile{Data: []byte(md), Mode: 0o644}
	res, err := gitbookimport.Import(tree)
	if err != nil {
		return nil, apperr.Invalidf("source.files[%d]: %q: %s", i, name, reasonOf(err))
	}
	return res, nil
}
