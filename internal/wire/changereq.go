package wire

import (
	"encoding/json"
	"strconv"

	"docsd/internal/changereq"
)

// ChangeRequest is the `change-request` object.
type ChangeRequest struct {
	Object                 string            `json:"object"`
	ID                     string            `json:"id"`
	Number                 int64             `json:"number"`
	Status                 string            `json:"status"`
	Subject                string            `json:"subject"`
	Description            json.RawMessage   `json:"description,omitempty"`
	CreatedBy              *User             `json:"createdBy,omitempty"`
	CreatedAt              Time              `json:"createdAt"`
	UpdatedAt              Time              `json:"updatedAt"`
	Space                  string            `json:"space"`
	Revision               string            `json:"revision"`
	RevisionInitial        string            `json:"revisionInitial"`
	RevisionMergedAncestor string            `json:"revisionMergedAncestor,omitempty"`
	RevisionMerged         string            `json:"revisionMerged,omitempty"`
	Comments               int               `json:"comments"`
	Outdated               bool              `json:"outdated"`
	URLs                   ChangeRequestURLs `json:"urls"`
}

// ChangeRequestURLs are a change request's addresses.
type ChangeRequestURLs struct {
	App      string `json:"app"`
	Location string `json:"location"`
}

// FromChangeRequest converts a change request; head is the space's current head.
func (u URLs) FromChangeRequest(v changereq.View) ChangeRequest {
	cr := v.ChangeRequest
	out := ChangeRequest{Object: "change-request", ID: cr.ID, Number: cr.Number, Status: cr.Status,
		Subject: cr.Subject, Description: cr.Description, CreatedAt: Time(cr.CreatedAt), UpdatedAt: Time(cr.UpdatedAt),
		Space: cr.SpaceID, Revision: cr.Revision, RevisionInitial: cr.RevisionInitial,
		RevisionMergedAncestor: cr.RevisionMergedAncestor, RevisionMerged: cr.RevisionMerged,
		Outdated: cr.Outdated(v.Head), Comments: cr.OpenComments,
		URLs: ChangeRequestURLs{
			App:      u.App("/s/" + Esc(cr.SpaceID) + "/~/changes/" + strconv.FormatInt(cr.Number, 10)),
			Location: u.API("/spaces/" + Esc(cr.SpaceID) + "/change-requests/" + Esc(cr.ID)),
		}}
	if cr.CreatedBy.ID != "" {
		by := User{Object: "user", ID: cr.CreatedBy.ID, DisplayName: cr.CreatedBy.DisplayName, Email: cr.CreatedBy.Email,
			PhotoURL: cr.CreatedBy.PhotoURL, URLs: UserURLs{Location: u.API("/users/" + Esc(cr.CreatedBy.ID))}}
		out.CreatedBy = &by
	}
	return out
}
