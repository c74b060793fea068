package gitbookimport_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"docsd/internal/gitbookimport"
)

// largeTree generates a space of sections×perSection pages (each section a README.md with
// pages under it) listed in SUMMARY.md, with front matter, GitBook blocks, links and images,
// plus one asset per section.
func largeTree(sections, perSection int) fstest.MapFS {
	m := fstest.MapFS{}
	var summary strings.Builder
	summary.WriteString("# Table of contents\n\n* [Home](README.md)\n")
	m["README.md"] = &fstest.MapFile{Data: []byte("# Home\n\nWelcome.\n")}
	for s := range sections {
		dir := fmt.Sprintf("section-%02d", s)
		fmt.Fprintf(&summary, "\n## Part %d\n\n* [Section %d](%s/README.md)\n", s, s, dir)
		m[dir+"/README.md"] = &fstest.MapFile{Data: []byte(fmt.Sprintf("# Section %d\n\nOverview.\n", s))}
		m[fmt.Sprintf(".gitbook/assets/diagram-%02d.png", s)] = &fstest.MapFile{Data: []byte("\x89PNG\r\n\x1a\nsection")}
		for p := range perSection {
			name := fmt.Sprintf("page-%03d.md", p)
			fmt.Fprintf(&summary, "  * [Page %d.%d](%s/%s)\n", s, p, dir, name)
			m[dir+"/"+name] = &fstest.MapFile{Data: []byte(fmt.Sprintf(`---
description: Page %[1]d of section %[2]d.
icon: book
---

# Page %[2]d.%[1]d

Some **text** with a [link to the next page](page-%03[3]d.md) and a [link home](../README.md).

{%% hint style="info" %%}
A hint on page %[1]d.
{%% endhint %%}

![Diagram](../.gitbook/assets/diagram-%02[2]d.png)

- one
- two
  - three

`+"```go\nfmt.Println(%[1]d)\n```\n", p, s, p+1))}
		}
	}
	m["SUMMARY.md"] = &fstest.MapFile{Data: []byte(summary.String())}
	return m
}

func TestImportLargeTree(t *testing.T) {
	t.Parallel()
	fsys := largeTree(10, 99) // 10 sections of 99 pages, 10 section pages and the home page: 1,001 pages
	start := time.Now()
	r, err := gitbookimport.Import(fsys)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	documents := 0
	for _, p := range r.Pages {
		if p.Kind == gitbookimport.KindDocument {
			documents++
		}
	}
	t.Logf("imported %d pages and %d files in %v", documents, len(r.Files), elapsed)
	if documents != 1001 || len(r.Files) != 10 || len(r.Warnings) != 0 {
		t.Errorf("%d documents, %d files, warnings %q", documents, len(r.Files), r.Warnings)
	}
	// No bound on the time here: on a shared machine a unit test's wall time says little (this
	// one took 12s under a load of 30). Import speed is judged by BenchmarkImport1000Pages and by
	// docsd-contentbench's target (c), as a figure beside its baseline.
}

func BenchmarkImport1000Pages(b *testing.B) {
	fsys := largeTree(10, 99)
	for b.Loop() {
		if _, err := gitbookimport.Import(fsys); err != nil {
			b.Fatal(err)
		}
	}
}
