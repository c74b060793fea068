package wire

import (
	"time"

	"docsd/internal/changereq"
)

// ChangeRequestContributor is the `ChangeRequestUserContributor` object: a user who changed a
// change request's content, how many revisions they made and when the last was made.
type ChangeRequestContributor struct {
	User       User      `json:"user"`
	Count      int       `json:"count"`
	UpdatedAt  time.Time `json:"updatedAt"`
	ActionType string    `json:"actionType"`
}

// FromContributor converts a contributor; every one listed edited the content.
func (u URLs) FromContributor(k changereq.Contributor) ChangeRequestContributor {
	return ChangeRequestContributor{Count: k.Edits, UpdatedAt: k.UpdatedAt.UTC(), ActionType: "edit",
		User: User{Object: "user", ID: k.User.ID, DisplayName: k.User.DisplayName, Email: k.User.Email,
			PhotoURL: k.User.PhotoURL, URLs: UserURLs{Location: u.API("/users/" + Esc(k.User.ID))}}}
}
