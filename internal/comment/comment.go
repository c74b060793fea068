// Package comment keeps the discussions on a space and on its change requests: comments
// with a target (the revision they were posted on, and optionally a page, a block of it, or a
// cell of a table block), their replies, and emoji reactions to either. This file holds the
// types, rules and storage interface; service.go checks access and runs them.
package comment

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"docsd/internal/apperr"
	"docsd/internal/paging"
)

// Statuses of a comment. A new comment is open; resolving and reopening switch between them.
const (
	Open     = "open"
	Resolved = "resolved"
)

// Limits of this package.
const (
	// BodyMax is the longest markdown body of a comment or reply, in characters.
	BodyMax = 20_000
	// EmojiMax is the longest reaction, in characters: enough for joined emoji sequences
	// (families, flags, skin tones), far too short for text.
	EmojiMax = 16
	// EmojiCodeMax is the longest reaction written as codepoints: the API's Emoji maxLength.
	EmojiCodeMax = 50
	// ReactionsMax bounds addedReactions and removedReactions in one request.
	ReactionsMax = 20
	// AuthorsMax bounds the authors filter of a list.
	AuthorsMax = 100
	// IDMax bounds ids given in bodies and filters.
	IDMax = 100
)

// User is a poster, replier, resolver or reactor as the API shows them; ID is "" when the
// user is gone.
type User struct {
	ID, Email, DisplayName, PhotoURL string
}

// Target is what a comment is attached to. Revision is always set: the space's head, or the
// change request's revision, when the comment was posted.
type Target struct {
	Revision        string
	Page            string // "" when the comment is on the space or change request itself
	Node            string // a block of Page
	TableRecord     string // with TableDefinition: a cell of the table block Node
	TableDefinition string
}

// Comment is one comment with what is derived from its replies and reactions.
type Comment struct {
	ID              string
	SpaceID         string
	ChangeRequestID string // "" for a comment on the space itself
	Target          Target
	Body            string // markdown
	PostedBy        User
	PostedAt        time.Time
	EditedAt        *time.Time
	Status          string
	ResolvedAt      *time.Time
	ResolvedBy      User
	Replies         int // every reply, including those of users who are gone
	Repliers        []Replier
	Reactions       []Reaction
}

// Replier is one user's replies to a comment.
type Replier struct {
	User      User
	Count     int
	UpdatedAt time.Time // their latest reply, or latest edit of one
}

// Reaction is one emoji and the users who reacted with it, earliest first. Its count is
// len(Users).
type Reaction struct {
	Emoji string
	Users []Reactor
}

// Reactor is one user's reaction.
type Reactor struct {
	User      User
	ReactedAt time.Time
}

// Reply is one reply to a comment.
type Reply struct {
	ID        string
	CommentID string
	Body      string
	PostedBy  User
	PostedAt  time.Time
	EditedAt  *time.Time
	Reactions []Reaction
}

// Container is the space, or the change request of a space, whose comments are meant.
type Container struct {
	SpaceID         string
	ChangeRequestID string // "" for the space's own comments
}

// Filter narrows a list of comments. Empty fields do not filter.
type Filter struct {
	Ascending bool     // oldest first; newest first otherwise
	Status    string   // Open or Resolved; "" for all
	Page      string   // target page id
	Authors   []string // user ids
}

// ErrNotFound is returned by a Tx when a comment or reply does not exist in its container.
var ErrNotFound = errors.New("comment: not found")

// Store runs reads and write transactions.
type Store interface {
	Read() Tx
	Write(ctx context.Context, now time.Time, fn func(Tx) error) error
}

// Tx is every storage operation on comments. Methods that read comments or replies load
// their reactions, and a comment's replies and repliers.
type Tx interface {
	// Insert stores a new comment and counts it in its container's open comments;
	// ErrNotFound when the container is gone.
	Insert(ctx context.Context, c Comment) error
	// Get finds a comment of a container.
	Get(ctx context.Context, in Container, id string) (Comment, error)
	// List lists a container's comments.
	List(ctx context.Context, in Container, f Filter, page paging.Request) (paging.Result[Comment], error)
	// SetBody replaces a comment's body and sets its editedAt.
	SetBody(ctx context.Context, id, body string, editedAt time.Time) error
	// SetReplyBody replaces a reply's body and sets its editedAt.
	SetReplyBody(ctx context.Context, id, body string, editedAt time.Time) error
	// SetStatus moves an open comment to resolved or back, keeping the container's count of
	// open comments; it does nothing when the comment already has that status.
	SetStatus(ctx context.Context, c Comment, status, by string, at time.Time) error
	// Delete removes a comment with its replies and reactions, keeping the count of open
	// comments; it does nothing when the comment does not exist.
	Delete(ctx context.Context, in Container, id string) error
	// React adds a user's reaction to a comment (replyID "") or to one of its replies;
	// reacting twice with the same emoji keeps the first reaction.
	React(ctx context.Context, commentID, replyID, userID, emoji string, at time.Time) error
	// Unreact removes a user's reaction, if any, from a comment or reply (subjectID).
	Unreact(ctx context.Context, subjectID, userID, emoji string) error
	// InsertReply stores a reply; ErrNotFound when its comment is gone.
	InsertReply(ctx context.Context, r Reply) error
	// GetReply finds a reply of a comment.
	GetReply(ctx context.Context, commentID, id string) (Reply, error)
	// ListReplies lists a comment's replies, oldest first.
	ListReplies(ctx context.Context, commentID string, page paging.Request) (paging.Result[Reply], error)
	// DeleteReply removes a reply and its reactions; nothing when it does not exist.
	DeleteReply(ctx context.Context, commentID, id string) error
}

// checkBody validates a markdown body: 1 to BodyMax characters, not only blanks.
func checkBody(field, markdown string) error {
	if strings.TrimSpace(markdown) == "" {
		return apperr.Invalidf("%s: must not be empty (1 to %d characters of markdown)", field, BodyMax)
	}
	if n := utf8.RuneCountInString(markdown); n > BodyMax {
		return apperr.Invalidf("%s: must be at most %d characters (got %d)", field, BodyMax, n)
	}
	return nil
}

// checkEmoji accepts one emoji or emoji sequence: pictographic symbols with the joiners,
// variation selectors, skin-tone modifiers, keycap marks and tag characters that combine
// them, and keycap bases (digits, # and *) only before a keycap mark.
func checkEmoji(field, s string) error {
	bad := apperr.Invalidf("%s: %q is not an emoji (one emoji of at most %d characters, e.g. 👍)", field, s, EmojiMax)
	if s == "" || !utf8.ValidString(s) || utf8.RuneCountInString(s) > EmojiMax {
		return bad
	}
	symbols := 0
	for _, r := range s {
		switch {
		case unicode.Is(unicode.So, r) || unicode.Is(unicode.Sk, r) && r >= 0x1F3FB:
			symbols++
		case r == 0x200D, r >= 0xFE00 && r <= 0xFE0F, r == 0x20E3, r >= 0xE0020 && r <= 0xE007F:
		case (r >= '0' && r <= '9' || r == '#' || r == '*') && strings.ContainsRune(s, 0x20E3):
			symbols++
		default:
			return bad
		}
	}
	if symbols == 0 {
		return bad
	}
	return nil
}

// codepoints matches an emoji written as hexadecimal Unicode codepoints, as the API's Emoji
// allows ("1f44d", "1f44d-1f3fd", "1f468-200d-1f469-200d-1f467"; "U+" prefixes accepted).
var codepoints = regexp.MustCompile(`^(?:[Uu]\+)?[0-9A-Fa-f]{1,6}(?:[-_ ](?:[Uu]\+)?[0-9A-Fa-f]{1,6})*$`)

// normalizeEmoji returns the emoji s names as characters, the one form reactions are stored,
// compared and answered in, so that "1f44d" and "👍" are the same reaction. s is an emoji
// given as characters or as codepoints; anything else is refused, naming field.
func normalizeEmoji(field, s string) (string, error) {
	if len(s) <= EmojiCodeMax && codepoints.MatchString(s) {
		var b strings.Builder
		for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == ' ' }) {
			part = strings.TrimPrefix(strings.TrimPrefix(part, "U+"), "u+")
			n, _ := strconv.ParseUint(part, 16, 32)
			if n > unicode.MaxRune || n >= 0xD800 && n <= 0xDFFF {
				return "", apperr.Invalidf("%s: %q is not an emoji (codepoint %s is not a Unicode character)", field, s, part)
			}
			b.WriteRune(rune(n))
		}
		if err := checkEmoji(field, b.String()); err != nil {
			return "", apperr.Invalidf("%s: %q is not an emoji (as codepoints it reads %q; give one emoji, e.g. 1f44d or 👍)", field, s, b.String())
		}
		return b.String(), nil
	}
	return s, checkEmoji(field, s)
}

// normalizeReactions validates the emoji lists of an update and puts them in their stored
// form (see normalizeEmoji): bounded, each an emoji, and no emoji both added and removed.
func normalizeReactions(added, removed []string) error {
	for field, list := range map[string][]string{"addedReactions": added, "removedReactions": removed} {
		if len(list) > ReactionsMax {
			return apperr.Invalidf("%s: at most %d emoji per request (got %d)", field, ReactionsMax, len(list))
		}
		for i, e := range list {
			norm, err := normalizeEmoji(field+"["+strconv.Itoa(i)+"]", e)
			if err != nil {
				return err
			}
			list[i] = norm
		}
	}
	for _, a := range added {
		for _, r := range removed {
			if a == r {
				return apperr.Invalidf("removedReactions: %q is also in addedReactions; name an emoji in one of them", a)
			}
		}
	}
	return nil
}
