package wire

import "docsd/internal/space"

// Collection is the `collection` object.
type Collection struct {
	Object       string                `json:"object"`
	ID           string                `json:"id"`
	Title        string                `json:"title"`
	Description  *string               `json:"description,omitempty"`
	Organization string                `json:"organization"`
	Parent       string                `json:"parent,omitempty"`
	DefaultLevel *string               `json:"defaultLevel"`
	URLs         CollectionURLs        `json:"urls"`
	Permissions  CollectionPermissions `json:"permissions"`
}

type CollectionURLs struct {
	Location string `json:"location"`
	App      string `json:"app"`
}

type CollectionPermissions struct {
	View            bool `json:"view"`
	Admin           bool `json:"admin"`
	ViewInviteLinks bool `json:"viewInviteLinks"`
	Create          bool `json:"create"`
}

// CollectionLocation is the API URL of a collection.
func (u URLs) CollectionLocation(id string) string { return u.API("/collections/" + Esc(id)) }

// FromCollection converts a collection as seen by one caller.
func (u URLs) FromCollection(v space.CollectionView) Collection {
	p := v.Permissions()
	return Collection{
		Object: "collection", ID: v.ID, Title: v.Title, Description: v.Description, Organization: v.OrganizationID,
		Parent: v.Parent, DefaultLevel: Level(v.DefaultLevel),
		URLs:        CollectionURLs{Location: u.CollectionLocation(v.ID), App: u.App("/c/" + Esc(v.ID))},
		Permissions: CollectionPermissions{View: p.View, Admin: p.Admin, ViewInviteLinks: p.ViewInviteLinks, Create: p.Create},
	}
}
