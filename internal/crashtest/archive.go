package crashtest

import (
	"fmt"
	"strings"

	"docsd/internal/gitbookimport"
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
	return gitbookimport.TarGz(files)
}
