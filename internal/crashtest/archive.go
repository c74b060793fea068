package crashtest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"
)

// archive is a GitBook-style markdown tree of n pages as a gzip-compressed tar: a home page
// whose text is marker, then n-1 pages listed in SUMMARY.md.
func archive(marker string, n int) ([]byte, error) {
	files := map[string]string{"README.md": "# Home\n\n" + marker + "\n"}
	var summary strings.Builder
	summary.WriteString("# Table of contents\n\n* [Home](README.md)\n")
	for i := 1; i < n; i++ {
		name := fmt.Sprintf("page-%04d.md", i)
		files[name] = fmt.Sprintf("# Page %d\n\n%s, page %d. %s\n", i, marker, i, strings.Repeat("Some words of text. ", 30))
		fmt.Fprintf(&summary, "* [Page %d](%s)\n", i, name)
	}
	files["SUMMARY.md"] = summary.String()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, text := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(text)), Typeflag: tar.TypeReg}); err != nil {
			return nil, err
		}
		if _, err := tw.Write([]byte(text)); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
