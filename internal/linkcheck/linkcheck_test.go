package linkcheck

import (
	"fmt"
	"testing"

	"docsd/internal/contenttree"
)

func tree() *contenttree.Tree {
	t := contenttree.New()
	t.Pages["home"] = contenttree.Page{ID: "home", Kind: contenttree.KindDocument, Slug: "home", Order: "a"}
	t.Pages["docs"] = contenttree.Page{ID: "docs", Kind: contenttree.KindDocument, Slug: "docs", Order: "b"}
	t.Pages["setup"] = contenttree.Page{ID: "setup", ParentID: "docs", Kind: contenttree.KindDocument, Slug: "setup", Order: "a"}
	t.Pages["out"] = contenttree.Page{ID: "out", Kind: contenttree.KindLink, Order: "c", Target: []byte(`{"kind":"file","file":"gone"}`)}
	t.Files["img"] = contenttree.File{ID: "img", Name: "a.png"}
	return t
}

func summary(ls []Link) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Status+" "+l.Target.Key())
	}
	return out
}

func TestPageLinks(t *testing.T) {
	c := NewChecker(tree(), "https://docs.example.com/app/")
	got := summary(c.PageLinks("setup", "[up](../README.md) [self](#here) [again](../README.md) ![i](../.gitbook/assets/a.png) "+
		"[x](https://docs.example.com/app/s/1) [y](https://example.org) [gone](../nope.md) [above](../../../etc.md) [sib](setup.md#b)"))
	want := []string{"ok file:img", "broken missing:../../../etc.md", "broken missing:nope.md", "ok page:home",
		"ok page:setup#b", "in-app url:https://docs.example.com/app/s/1", "ok url:https://example.org"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	l, ok := c.LinkPageTarget(tree().Pages["out"])
	if !ok || l.Status != Broken || l.Target.URL != "file gone" {
		t.Fatalf("link page: %+v %v", l, ok)
	}
}

func TestIndex(t *testing.T) {
	tr := tree()
	c := NewChecker(tr, "")
	md := map[string]string{"home": "[d](docs/README.md) [s](docs/setup.md) [n](nope.md)", "docs": "[s](setup.md)", "setup": "[n](../nope.md)"}
	ix := Build([]string{"home", "docs", "setup", "out"}, func(id string) []Link {
		if id == "out" {
			l, _ := c.LinkPageTarget(tr.Pages[id])
			return []Link{l}
		}
		return c.PageLinks(id, md[id])
	})
	if got := fmt.Sprint(ix.PageBacklinks("setup")); got != "[home docs]" {
		t.Fatalf("backlinks of setup: %s", got)
	}
	st := Count(ix.Usages)
	if st.Total != 4 || st.Broken != 2 {
		t.Fatalf("stats %+v", st)
	}
	base := Build([]string{"home"}, func(string) []Link { return c.PageLinks("home", "[n](nope.md)") })
	if n := NewlyBroken(ix.Usages, base.Usages); len(n) != 1 || !n["missing:file:gone"] {
		t.Fatalf("newly broken %v", n)
	}
}
