package contenttree

import (
	"fmt"
	"strings"

	"docsd/internal/textmerge"
)

// Side names one of the two trees Merge combines.
type Side string

// The sides of a merge: Merge(base, ours, theirs).
const (
	Ours   Side = "ours"
	Theirs Side = "theirs"
)

// ConflictKind names what collided.
type ConflictKind string

// Conflict kinds.
const (
	// ConflictField: both sides changed one field of a page or file, or one variable, to different
	// values. A page's parent and order count as one field: its position.
	ConflictField ConflictKind = "field"
	// ConflictMarkdown: both sides changed a page's markdown on the same or touching lines.
	ConflictMarkdown ConflictKind = "markdown"
	// ConflictDeleteEdit: one side deleted a page, file or variable that the other changed
	// (a move counts as a change).
	ConflictDeleteEdit ConflictKind = "delete-edit"
	// ConflictParentDeleted: one side added a page under a page, or moved one there, that the
	// other side deleted.
	ConflictParentDeleted ConflictKind = "parent-deleted"
	// ConflictCycle: moves on the two sides, each fine alone, put pages under one another.
	ConflictCycle ConflictKind = "cycle"
	// ConflictDuplicateSlug: the two sides gave the same slug to different pages under one parent.
	ConflictDuplicateSlug ConflictKind = "duplicate-slug"
	// ConflictStructure: any other combination of changes that makes an invalid tree, such as a
	// page added under a page the other side turned into a link.
	ConflictStructure ConflictKind = "structure"
)

// Conflict is one thing the two sides of a merge changed in ways that do not combine.
type Conflict struct {
	Kind ConflictKind
	// PageIDs names the pages in conflict, the page the conflict is about first: for
	// ConflictParentDeleted, the page and then the deleted parent; for a cycle, its pages; for a
	// duplicate slug, the pages sharing it. Empty for conflicts about files or space variables.
	PageIDs []string
	FileID  string // the file in conflict, if any
	// ReusableContentID is the reusable content in conflict, if any.
	ReusableContentID string
	// Variable names the variable in conflict: a page's (with PageIDs) or the space's (without).
	Variable  string
	Field     string               // the page's or file's field in conflict (a Field* name), when one field is
	DeletedBy Side                 // for ConflictDeleteEdit and ConflictParentDeleted: the side that deleted
	Text      []textmerge.Conflict // for ConflictMarkdown: the regions of the markdown in conflict
	Detail    string               // for structural conflicts: what would be wrong with the tree
}

// String describes the conflict in a sentence, naming what collided by id.
func (c Conflict) String() string {
	var subject string
	switch {
	case c.ReusableContentID != "":
		subject = fmt.Sprintf("reusable content %q", c.ReusableContentID)
	case c.FileID != "":
		subject = fmt.Sprintf("file %q", c.FileID)
	case len(c.PageIDs) > 0:
		subject = pageList(c.PageIDs)
	default:
		subject = fmt.Sprintf("variable %q", c.Variable)
	}
	what := c.Field
	if c.Variable != "" && (len(c.PageIDs) > 0 || c.FileID != "") {
		what = fmt.Sprintf("variable %q", c.Variable)
	}
	switch c.Kind {
	case ConflictField:
		if what == "" {
			return subject + ": both sides changed it differently"
		}
		return fmt.Sprintf("%s: both sides changed %s differently", subject, what)
	case ConflictMarkdown:
		regions := make([]string, len(c.Text))
		for i, t := range c.Text {
			regions[i] = t.Base.String()
		}
		return fmt.Sprintf("%s: both sides changed the markdown at %s", subject, strings.Join(regions, ", "))
	case ConflictDeleteEdit:
		other := Ours
		if c.DeletedBy == Ours {
			other = Theirs
		}
		if what != "" && c.Variable != "" {
			return fmt.Sprintf("%s: %s deleted %s, which %s changed", subject, c.DeletedBy, what, other)
		}
		return fmt.Sprintf("%s: deleted by %s, changed by %s", subject, c.DeletedBy, other)
	case ConflictParentDeleted:
		return fmt.Sprintf("page %q: placed under page %q, which %s deleted", c.PageIDs[0], c.PageIDs[1], c.DeletedBy)
	case ConflictCycle:
		return subject + ": moves on the two sides make each an ancestor of the other"
	case ConflictDuplicateSlug:
		return subject + ": " + c.Detail
	default:
		if len(c.PageIDs) > 1 {
			subject = pageList(c.PageIDs[:1]) // the detail names the others
		}
		return subject + ": " + c.Detail
	}
}
