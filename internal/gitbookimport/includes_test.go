package gitbookimport

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

func TestImportEveryBlockFixture(t *testing.T) {
	t.Parallel()
	res, err := Import(os.DirFS("testdata/blocks"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 2 || res.Pages[1].Title != "Changelog" {
		t.Fatalf("pages: %+v", res.Pages)
	}
	if len(res.ReusableContents) != 1 {
		t.Fatalf("reusable contents: %+v", res.ReusableContents)
	}
	rc := res.ReusableContents[0]
	if rc.Path != ".gitbook/includes/shared-note.md" || rc.Title != "Shared note" || rc.GitOID == "" ||
		rc.Markdown != "{% hint style=\"info\" %}\nWritten once, shown everywhere.\n{% endhint %}\n" {
		t.Errorf("reusable content: %+v", rc)
	}
	want := "README.md: unknown block tag(s) sparkle: their content was kept and the tags are not shown"
	if strings.Join(res.Warnings, "\n") != want {
		t.Errorf("warnings = %q, want %q", res.Warnings, want)
	}
	if !strings.Contains(res.Pages[0].Markdown, `{% include ".gitbook/includes/shared-note.md" %}`) {
		t.Errorf("the include changed: %s", res.Pages[0].Markdown)
	}
}

func TestIncludesFollowThePageInTheSpaceLayout(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"README.md":  {Data: []byte("# Home\n")},
		"SUMMARY.md": {Data: []byte("# Table of contents\n\n* [Home](README.md)\n* [Deep](a/b/deep.md)\n  * [Child](child.md)\n")},
		// deep.md sits two directories down in the tree but at the top level of the space,
		// with a page under it: it lives at deep/README.md.
		"a/b/deep.md":                  {Data: []byte("# Deep\n\n{% include \"../../.gitbook/includes/note.md\" %}\n\n{% include \"../../.gitbook/includes/missing.md\" %}\n")},
		"child.md":                     {Data: []byte("# Child\n\n{% include '.gitbook/includes/note.md' %}\n")},
		".gitbook/includes/note.md":    {Data: []byte("A note.\n")},
		".gitbook/includes/readme.txt": {Data: []byte("not markdown")},
	}
	res, err := Import(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ReusableContents) != 1 || res.ReusableContents[0].Title != "Note" {
		t.Fatalf("reusable contents: %+v", res.ReusableContents)
	}
	byTitle := map[string]string{}
	for _, p := range res.Pages {
		byTitle[p.Title] = p.Markdown
	}
	if got := byTitle["Deep"]; !strings.Contains(got, `{% include "../.gitbook/includes/note.md" %}`) ||
		!strings.Contains(got, `{% include "../../.gitbook/includes/missing.md" %}`) {
		t.Errorf("deep page: %s", got)
	}
	if got := byTitle["Child"]; !strings.Contains(got, `{% include '../.gitbook/includes/note.md' %}`) {
		t.Errorf("child page: %s", got)
	}
}

func TestIncludeFileReadsBack(t *testing.T) {
	t.Parallel()
	for _, title := range []string{"Plain", "With: colon", `Quote "x"`} {
		fsys := fstest.MapFS{
			"README.md":              {Data: []byte("# Home\n")},
			".gitbook/includes/x.md": {Data: IncludeFile(title, "Body *here*.\n")},
		}
		res, err := Import(fsys)
		if err != nil {
			t.Fatal(err)
		}
		if rc := res.ReusableContents[0]; rc.Title != title || rc.Markdown != "Body *here*.\n" {
			t.Errorf("%q read back as %+v", title, rc)
		}
	}
}
