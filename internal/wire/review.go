package wire

import (
	"docsd/internal/changereq"
)

// ChangeRequestReview is the `change-request-review` object.
type ChangeRequestReview struct {
	Object      string      `json:"object"`
	ID          string      `json:"id"`
	Revision    string      `json:"revision"`
	Reviewer    User        `json:"reviewer"`
	RequestedBy *User       `json:"requestedBy,omitempty"`
	Status      string      `json:"status"`
	Outdated    bool        `json:"outdated"`
	CreatedAt   Time        `json:"createdAt"`
	UpdatedAt   Time        `json:"updatedAt"`
	URLs        LocationURL `json:"urls"`
}

// LocationURL is a `urls` object with only the API location.
type LocationURL struct {
	Location string `json:"location"`
}

// ChangeRequestRequestedReviewer is the `change-request-requested-reviewer` object (always of
// kind user: reviews are requested from users).
type ChangeRequestRequestedReviewer struct {
	Object      string `json:"object"`
	Kind        string `json:"kind"`
	User        User   `json:"user"`
	Revision    string `json:"revision"`
	RequestedBy User   `json:"requestedBy"`
	CreatedAt   Time   `json:"createdAt"`
}

func (u URLs) crUser(x changereq.User) User {
	return User{Object: "user", ID: x.ID, DisplayName: x.DisplayName, Email: x.Email, PhotoURL: x.PhotoURL,
		URLs: UserURLs{Location: u.API("/users/" + Esc(x.ID))}}
}

// ReviewConverter converts the reviews of one change request.
func (u URLs) ReviewConverter(spaceID, changeRequestID string) func(changereq.Review) ChangeRequestReview {
	return func(r changereq.Review) ChangeRequestReview {
		out := ChangeRequestReview{Object: "change-request-review", ID: r.ID, Revision: r.Revision,
			Reviewer: u.crUser(r.Reviewer), Status: r.Status, Outdated: r.Outdated,
			CreatedAt: Time(r.CreatedAt), UpdatedAt: Time(r.UpdatedAt),
			URLs: LocationURL{Location: u.API("/spaces/" + Esc(spaceID) + "/change-requests/" + Esc(changeRequestID) +
				"/reviews/" + Esc(r.ID))}}
		if r.RequestedBy.ID != "" {
			by := u.crUser(r.RequestedBy)
			out.RequestedBy = &by
		}
		return out
	}
}

// FromRequestedReviewer converts a review request. A requester who is gone shows as a user
// with an empty id, since the field is required.
func (u URLs) FromRequestedReviewer(r changereq.RequestedReviewer) ChangeRequestRequestedReviewer {
	return ChangeRequestRequestedReviewer{Object: "change-request-requested-reviewer", Kind: "user",
		User: u.crUser(r.User), Revision: r.Revision, RequestedBy: u.crUser(r.RequestedBy), CreatedAt: Time(r.CreatedAt)}
}
