package markdoc_test

import (
	"fmt"
	"strings"
	"testing"

	"docsd/internal/markdoc"
)

func TestSections(t *testing.T) {
	t.Parallel()
	md := "Intro with **bold** and [a link](x.md).\n\n" +
		"## Install <a href=\"#setup\" id=\"setup\"></a>\n\nRun `make`.\n\n```sh\nmake install\n```\n\n" +
		"### On *Linux*\n\n- apt\n- dnf\n\n{% hint style=\"info\" %}\n## Not a section\nInside a hint.\n{% endhint %}\n\n" +
		"## Install\n\n| Key | Value |\n|---|---|\n| a | 1 |\n\n" +
		"## Empty\n"
	got := markdoc.Sections(md)
	want := []markdoc.Section{
		{ID: "", Title: "", Level: 0, Body: "Intro with bold and a link."},
		{ID: "setup", Title: "Install", Level: 1, Body: "Run make.\nmake install"},
		{ID: "on-linux", Title: "On Linux", Level: 2, Body: "apt\ndnf\nNot a section\nInside a hint."},
		{ID: "install", Title: "Install", Level: 1, Body: "Key Value\na\n1"},
		{ID: "empty", Title: "Empty", Level: 1, Body: ""},
	}
	if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
		t.Errorf("got:\n%+v\nwant:\n%+v", got, want)
	}
	// Section ids are the anchors the HTML carries.
	html := markdoc.ToHTML(md)
	for _, s := range got[1:] {
		if !strings.Contains(html, `id="`+s.ID+`"`) {
			t.Errorf("HTML has no anchor %q:\n%s", s.ID, html)
		}
	}
}

func TestSectionsWithoutHeadingsOrText(t *testing.T) {
	t.Parallel()
	if got := markdoc.Sections(""); len(got) != 0 {
		t.Errorf("empty page: %+v", got)
	}
	if got := markdoc.Sections("<!-- only a comment -->"); len(got) != 0 {
		t.Errorf("page without text: %+v", got)
	}
	got := markdoc.Sections("Just text.")
	if len(got) != 1 || got[0].ID != "" || got[0].Body != "Just text." {
		t.Errorf("page without headings: %+v", got)
	}
}
