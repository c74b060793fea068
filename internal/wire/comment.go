package wire

import (
	"docsd/internal/comment"
	"docsd/internal/markdoc"
)

// Comment is the `comment` object.
type Comment struct {
	Object      string             `json:"object"`
	ID          string             `json:"id"`
	PostedBy    User               `json:"postedBy"`
	PostedAt    Time               `json:"postedAt"`
	EditedAt    *Time              `json:"editedAt,omitempty"`
	Reactions   []EmojiReaction    `json:"reactions"`
	Replies     int                `json:"replies"`
	Repliers    []UserContributor  `json:"repliers"`
	Body        CommentBody        `json:"body"`
	Target      CommentTarget      `json:"target"`
	URLs        CommentURLs        `json:"urls"`
	Permissions CommentPermissions `json:"permissions"`
	Status      string             `json:"status"`
	ResolvedAt  *Time              `json:"resolvedAt,omitempty"`
	ResolvedBy  *User              `json:"resolvedBy,omitempty"`
}

// CommentReply is the `comment-reply` object.
type CommentReply struct {
	Object      string             `json:"object"`
	ID          string             `json:"id"`
	PostedBy    User               `json:"postedBy"`
	PostedAt    Time               `json:"postedAt"`
	EditedAt    *Time              `json:"editedAt,omitempty"`
	Reactions   []EmojiReaction    `json:"reactions"`
	Body        CommentBody        `json:"body"`
	URLs        CommentURLs        `json:"urls"`
	Permissions CommentPermissions `json:"permissions"`
}

// CommentBody is a body in one format: `{markdown}` or `{document}`.
type CommentBody struct {
	Markdown *string           `json:"markdown,omitempty"`
	Document *markdoc.Document `json:"document,omitempty"`
}

// CommentTarget is what a comment is attached to.
type CommentTarget struct {
	Node          *IDRef     `json:"node,omitempty"`
	TableCell     *TableCell `json:"tableCell,omitempty"`
	ChangeRequest string     `json:"changeRequest,omitempty"`
	Page          *IDRef     `json:"page,omitempty"`
	Space         string     `json:"space"`
	Revision      string     `json:"revision"`
}

// IDRef is `{id}`.
type IDRef struct {
	ID string `json:"id"`
}

// TableCell names a cell of a table block.
type TableCell struct {
	Record     string `json:"record"`
	Definition string `json:"definition"`
}

// EmojiReaction is one emoji with the users who reacted with it.
type EmojiReaction struct {
	Emoji string         `json:"emoji"`
	Count int            `json:"count"`
	Users []EmojiReactor `json:"users"`
}

// EmojiReactor is one user's reaction.
type EmojiReactor struct {
	User      User `json:"user"`
	ReactedAt Time `json:"reactedAt"`
}

// UserContributor is a user with how many times and when they last contributed.
type UserContributor struct {
	UpdatedAt Time `json:"updatedAt"`
	Count     int  `json:"count"`
	User      User `json:"user"`
}

type CommentURLs struct {
	Location string `json:"location"`
}

type CommentPermissions struct {
	View   bool `json:"view"`
	Edit   bool `json:"edit"`
	Reply  bool `json:"reply"`
	Delete bool `json:"delete"`
}

// CommentFormats are the values of a comment's `format`; the first is the default, as for
// pages.
var CommentFormats = []string{"document", "markdown"}

// commentUser converts a poster, resolver or reactor; a user who is gone keeps a placeholder
// so the required object stays whole.
func (u URLs) commentUser(x comment.User) User {
	if x.ID == "" {
		return User{Object: "user", DisplayName: "Deleted user", URLs: UserURLs{Location: u.API("/users/")}}
	}
	return User{Object: "user", ID: x.ID, DisplayName: x.DisplayName, Email: x.Email, PhotoURL: x.PhotoURL,
		URLs: UserURLs{Location: u.API("/users/" + Esc(x.ID))}}
}

// CommentsPath is the API path (without /v1) of a container's comments.
func CommentsPath(in comment.Container) string {
	p := "/spaces/" + Esc(in.SpaceID)
	if in.ChangeRequestID != "" {
		p += "/change-requests/" + Esc(in.ChangeRequestID)
	}
	return p + "/comments"
}

func commentBody(markdown, format string) CommentBody {
	if format == "markdown" {
		return CommentBody{Markdown: &markdown}
	}
	return CommentBody{Document: markdoc.ToDocument(markdown)}
}

func (u URLs) reactions(rs []comment.Reaction) []EmojiReaction {
	out := make([]EmojiReaction, 0, len(rs))
	for _, r := range rs {
		users := make([]EmojiReactor, 0, len(r.Users))
		for _, x := range r.Users {
			users = append(users, EmojiReactor{User: u.commentUser(x.User), ReactedAt: Time(x.ReactedAt)})
		}
		out = append(out, EmojiReaction{Emoji: r.Emoji, Count: len(users), Users: users})
	}
	return out
}

func commentPermissions(p comment.Permissions) CommentPermissions {
	return CommentPermissions{View: p.View, Edit: p.Edit, Reply: p.Reply, Delete: p.Delete}
}

// FromComment converts a comment, its body in format ("document" or "markdown").
func (u URLs) FromComment(v comment.View, format string) Comment {
	c := v.Comment
	in := comment.Container{SpaceID: c.SpaceID, ChangeRequestID: c.ChangeRequestID}
	out := Comment{Object: "comment", ID: c.ID, PostedBy: u.commentUser(c.PostedBy), PostedAt: Time(c.PostedAt),
		EditedAt: TimePtr(c.EditedAt), Reactions: u.reactions(c.Reactions), Replies: c.Replies,
		Repliers: make([]UserContributor, 0, len(c.Repliers)), Body: commentBody(c.Body, format),
		Target:      CommentTarget{ChangeRequest: c.ChangeRequestID, Space: c.SpaceID, Revision: c.Target.Revision},
		URLs:        CommentURLs{Location: u.API(CommentsPath(in) + "/" + Esc(c.ID))},
		Permissions: commentPermissions(v.Permissions), Status: c.Status}
	for _, r := range c.Repliers {
		out.Repliers = append(out.Repliers, UserContributor{UpdatedAt: Time(r.UpdatedAt), Count: r.Count,
			User: u.commentUser(r.User)})
	}
	if c.Target.Page != "" {
		out.Target.Page = &IDRef{ID: c.Target.Page}
	}
	if c.Target.Node != "" {
		out.Target.Node = &IDRef{ID: c.Target.Node}
	}
	if c.Target.TableRecord != "" {
		out.Target.TableCell = &TableCell{Record: c.Target.TableRecord, Definition: c.Target.TableDefinition}
	}
	if c.Status == comment.Resolved {
		by := u.commentUser(c.ResolvedBy)
		out.ResolvedAt, out.ResolvedBy = TimePtr(c.ResolvedAt), &by
	}
	return out
}

// FromCommentReply converts a reply, its body in format.
func (u URLs) FromCommentReply(v comment.ReplyView, format string) CommentReply {
	r := v.Reply
	return CommentReply{Object: "comment-reply", ID: r.ID, PostedBy: u.commentUser(r.PostedBy),
		PostedAt: Time(r.PostedAt), EditedAt: TimePtr(r.EditedAt), Reactions: u.reactions(r.Reactions),
		Body:        commentBody(r.Body, format),
		URLs:        CommentURLs{Location: u.API(CommentsPath(v.Container) + "/" + Esc(r.CommentID) + "/replies/" + Esc(r.ID))},
		Permissions: commentPermissions(v.Permissions)}
}
