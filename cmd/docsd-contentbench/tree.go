package main

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"docsd/internal/gitbookimport"
)

// sectionSize is how many pages a section holds: its own README and the pages under it.
const sectionSize = 50

// words are what generated pages are written with.
var words = strings.Fields(`the of and to in is that for it as with was on be by this are from at or an
	have not which but all can has one their its more were when there been would so if than into other
	its some could time these two may first then do any like my now over such our man me even most made
	after also did many before must through back years where much your way well down should because each
	just those people how too little state good very make world still own see men work long get here
	between both life being under never day same another know while last might us great old year off come
	since against go came right used take three page space change request merge import revision content`)

// pageText is about 300 words of text for page i, cut in paragraphs; seeded by i so a run
// is repeatable.
func pageText(title string, i int, salt string) string {
	r := rand.New(rand.NewPCG(uint64(i), 42))
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	for p := 0; p < 5; p++ {
		for w := 0; w < 60; w++ {
			if w > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		b.WriteString(".\n\n")
	}
	b.WriteString(salt)
	return b.String()
}

// markdownFiles is a GitBook-style tree of n pages, by path: a home page, then sections of
// sectionSize pages (a section's README and the pages nested under it), listed in SUMMARY.md.
func markdownFiles(n int) map[string]string {
	files := map[string]string{"README.md": pageText("Home", 0, "")}
	var summary strings.Builder
	summary.WriteString("# Table of contents\n\n* [Home](README.md)\n")
	for i := 1; i < n; {
		sec := fmt.Sprintf("section-%03d", i/sectionSize)
		files[sec+"/README.md"] = pageText("Section "+sec, i, "")
		fmt.Fprintf(&summary, "* [Section %s](%s/README.md)\n", sec, sec)
		i++
		for j := 1; j < sectionSize && i < n; j, i = j+1, i+1 {
			name := fmt.Sprintf("%s/page-%05d.md", sec, i)
			title := fmt.Sprintf("Page %d", i)
			files[name] = pageText(title, i, "")
			fmt.Fprintf(&summary, "  * [%s](%s)\n", title, name)
		}
	}
	files["SUMMARY.md"] = summary.String()
	return files
}

// markdownTree is markdownFiles(n) as a gzip-compressed tar archive, as the import takes it.
func markdownTree(n int) ([]byte, error) { return gitbookimport.TarGz(markdownFiles(n)) }
