package wire

import "docsd/internal/account"

// User is the `user` object.
type User struct {
	Object      string   `json:"object"`
	ID          string   `json:"id"`
	DisplayName string   `json:"displayName"`
	Email       string   `json:"email,omitempty"`
	PhotoURL    string   `json:"photoURL,omitempty"`
	URLs        UserURLs `json:"urls"`
}

type UserURLs struct {
	Location string `json:"location"`
}

// FromUser converts a user.
func (u URLs) FromUser(x account.User) User {
	return User{Object: "user", ID: x.ID, DisplayName: x.DisplayName, Email: x.Email, PhotoURL: x.PhotoURL,
		URLs: UserURLs{Location: u.API("/users/" + Esc(x.ID))}}
}
