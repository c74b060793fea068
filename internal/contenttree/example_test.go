package contenttree_test

import (
	"fmt"

	"docsd/internal/contenttree"
)

func ExampleMerge() {
	base := contenttree.New()
	base.Pages["home"] = contenttree.Page{ID: "home", Order: "V", Kind: contenttree.KindDocument,
		Title: "Home", Slug: "readme", Markdown: "# Home\n\nWelcome.\n\nSee the guide.\n"}
	base.Pages["guide"] = contenttree.Page{ID: "guide", Order: "k", Kind: contenttree.KindDocument,
		Title: "Guide", Slug: "guide"}

	// A change request retitles the home page and edits its first lines...
	ours := base.Clone()
	home := ours.Pages["home"]
	home.Title, home.Markdown = "Welcome", "# Welcome\n\nWelcome.\n\nSee the guide.\n"
	ours.Pages["home"] = home

	// ...while the main content moves it under the guide and edits its last line.
	theirs := base.Clone()
	home = theirs.Pages["home"]
	home.ParentID, home.Markdown = "guide", "# Home\n\nWelcome.\n\nSee the guide below.\n"
	theirs.Pages["home"] = home

	merged, conflicts := contenttree.Merge(base, ours, theirs)
	path, _ := merged.Path("home")
	fmt.Println(len(conflicts), "conflicts;", merged.Pages["home"].Title, "at", path)
	fmt.Print(merged.Pages["home"].Markdown)

	// Had the main content deleted the page instead, the merge would stop at a conflict.
	deleted := base.Clone()
	delete(deleted.Pages, "home")
	_, conflicts = contenttree.Merge(base, ours, deleted)
	fmt.Println(conflicts[0])
	// Output:
	// 0 conflicts; Welcome at guide/readme
	// # Welcome
	//
	// Welcome.
	//
	// See the guide below.
	// page "home": deleted by theirs, changed by ours
}
