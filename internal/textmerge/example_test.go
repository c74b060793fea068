package textmerge_test

import (
	"fmt"

	"docsd/internal/textmerge"
)

func ExampleMerge() {
	base := "# Install\n\nRun the installer.\n\nThen restart.\n"
	ours := "# Installation\n\nRun the installer.\n\nThen restart.\n"
	theirs := "# Install\n\nRun the installer.\n\nThen restart your computer.\n"
	merged, conflicts := textmerge.Merge(base, ours, theirs)
	fmt.Print(merged)
	fmt.Println(len(conflicts), "conflicts")

	_, conflicts = textmerge.Merge(base, "# Setup\n"+base[10:], "# Installing\n"+base[10:])
	fmt.Println(conflicts[0])
	// Output:
	// # Installation
	//
	// Run the installer.
	//
	// Then restart your computer.
	// 0 conflicts
	// both sides changed line 1
}
