package wire

import "docsd/internal/contenttree"

// RevisionReusableContent is the public API's RevisionReusableContent: a reusable content of a
// revision, its document named by id (GET /spaces/{spaceId}/documents/{documentId}).
type RevisionReusableContent struct {
	ID       string               `json:"id"`
	Title    string               `json:"title"`
	Git      *contenttree.GitBlob `json:"git,omitempty"`
	Document string               `json:"document,omitempty"`
}

// FromReusableContent converts a reusable content and the id of its document.
func FromReusableContent(r contenttree.ReusableContent, documentID string) RevisionReusableContent {
	out := RevisionReusableContent{ID: r.ID, Title: r.Title, Document: documentID}
	if r.Git != (contenttree.GitBlob{}) {
		g := r.Git
		out.Git = &g
	}
	return out
}
