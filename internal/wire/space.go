package wire

import (
	"docsd/internal/mergerules"
	"docsd/internal/space"
)

// Space is the `space` object.
type Space struct {
	Object              string            `json:"object"`
	ID                  string            `json:"id"`
	Title               string            `json:"title"`
	Emoji               string            `json:"emoji"`
	Visibility          string            `json:"visibility"`
	CreatedAt           Time              `json:"createdAt"`
	UpdatedAt           Time              `json:"updatedAt"`
	DeletedAt           *Time             `json:"deletedAt,omitempty"`
	EditMode            string            `json:"editMode"`
	MergeRules          mergerules.Config `json:"mergeRules"`
	URLs                SpaceURLs         `json:"urls"`
	Organization        string            `json:"organization"`
	Parent              string            `json:"parent,omitempty"`
	Language            string            `json:"language,omitempty"`
	Revision            string            `json:"revision,omitempty"`
	DefaultLevel        *string           `json:"defaultLevel"`
	Comments            int               `json:"comments"`
	ChangeRequests      int               `json:"changeRequests"`
	ChangeRequestsOpen  int               `json:"changeRequestsOpen"`
	ChangeRequestsDraft int               `json:"changeRequestsDraft"`
	Permissions         SpacePermissions  `json:"permissions"`
}

// SpaceURLs are a space's URLs. Published URLs belong to publishing (sites) and are absent
// until a space is published there (see PublishedURLs).
type SpaceURLs struct {
	Location  string `json:"location"`
	App       string `json:"app"`
	Published string `json:"published,omitempty"`
	Public    string `json:"public,omitempty"`
	Icon      string `json:"icon,omitempty"`
}

// ContentPublished are where readers find a space, or its current revision, published:
// Published in a published site that includes it, Public in one anyone may read and search
// engines index (a public site); "" when none.
type ContentPublished struct {
	Published string
	Public    string
}

// SetPublished fills the space's published URLs.
func (s *Space) SetPublished(p ContentPublished) {
	s.URLs.Published, s.URLs.Public = p.Published, p.Public
}

type SpacePermissions struct {
	View               bool `json:"view"`
	Access             bool `json:"access"`
	Admin              bool `json:"admin"`
	ViewInviteLinks    bool `json:"viewInviteLinks"`
	Edit               bool `json:"edit"`
	TriggerGitSync     bool `json:"triggerGitSync"`
	Comment            bool `json:"comment"`
	Merge              bool `json:"merge"`
	Review             bool `json:"review"`
	InstallIntegration bool `json:"installIntegration"`
}

// SpaceLocation is the API URL of a space.
func (u URLs) SpaceLocation(id string) string { return u.API("/spaces/" + Esc(id)) }

// Level renders a default level: "inherit", a role, or null for no access by default.
func Level(l space.Level) *string { return RolePtr(l) }

// FromSpace converts a space as seen by one caller. `comments` counts the space's own open
// comments; the counts of change requests are those of the content, which a new space does
// not have yet.
func (u URLs) FromSpace(v space.View) Space {
	p := v.Permissions()
	return Space{
		Object: "space", ID: v.ID, Title: v.Title, Emoji: v.Emoji, Visibility: string(v.Visibility),
		CreatedAt: Time(v.CreatedAt), UpdatedAt: Time(v.UpdatedAt), DeletedAt: TimePtr(v.DeletedAt),
		EditMode: string(v.EditMode), MergeRules: v.MergeRules,
		URLs:         SpaceURLs{Location: u.SpaceLocation(v.ID), App: u.App("/s/" + Esc(v.ID)), Icon: v.IconURL},
		Organization: v.OrganizationID, Parent: v.Parent, Language: v.Language, Revision: v.Revision,
		DefaultLevel: Level(v.DefaultLevel), Comments: v.OpenComments,
		Permissions: SpacePermissions{View: p.View, Access: p.Access, Admin: p.Admin, ViewInviteLinks: p.ViewInviteLinks,
			Edit: p.Edit, TriggerGitSync: p.TriggerGitSync, Comment: p.Comment, Merge: p.Merge, Review: p.Review,
			InstallIntegration: p.InstallIntegration},
	}
}

// MemberSpace is an item of a member's spaces: their role and the space.
type MemberSpace struct {
	Permission string `json:"permission"`
	Space      Space  `json:"space"`
}

// FromMemberSpace converts a member's space.
func (u URLs) FromMemberSpace(m space.MemberSpace) MemberSpace {
	return MemberSpace{Permission: string(m.Permission), Space: u.FromSpace(m.Space)}
}
