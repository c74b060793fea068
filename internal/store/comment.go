package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"docsd/internal/comment"
	"docsd/internal/outbox"
	"docsd/internal/paging"
)

// Comments adapts the DB to comment.Store.
type Comments struct{ DB *DB }

func (s Comments) Read() comment.Tx { return commentTx{s.DB.Read()} }

func (s Comments) Write(ctx context.Context, now time.Time, fn func(comment.Tx) error) error {
	return s.DB.Write(ctx, now, func(q *Q) error { return fn(commentTx{q}) })
}

type commentTx struct{ q *Q }

const commentColumns = `c.id, c.space_id, c.change_request_id, c.target_revision, c.target_page, c.target_node,
	c.target_record, c.target_definition, c.body, c.posted_by, pu.email, pu.display_name, pu.photo_url,
	c.posted_at, c.edited_at, c.status, c.resolved_at, c.resolved_by, ru.email, ru.display_name, ru.photo_url`

const commentFrom = ` FROM comments c LEFT JOIN users pu ON pu.id = c.posted_by LEFT JOIN users ru ON ru.id = c.resolved_by`

// userOf builds a user from a LEFT JOIN: "" when the column or the user is gone.
func userOf(id, email, name, photo sql.NullString) comment.User {
	return comment.User{ID: id.String, Email: email.String, DisplayName: name.String, PhotoURL: photo.String}
}

func scanComment(scan func(...any) error) (comment.Comment, error) {
	var c comment.Comment
	var cr, page, node, record, definition sql.NullString
	var by, byEmail, byName, byPhoto, rby, rbyEmail, rbyName, rbyPhoto sql.NullString
	var posted int64
	var edited, resolved sql.NullInt64
	err := scan(&c.ID, &c.SpaceID, &cr, &c.Target.Revision, &page, &node, &record, &definition, &c.Body,
		&by, &byEmail, &byName, &byPhoto, &posted, &edited, &c.Status, &resolved, &rby, &rbyEmail, &rbyName, &rbyPhoto)
	if err != nil {
		return c, err
	}
	c.ChangeRequestID = cr.String
	c.Target.Page, c.Target.Node = page.String, node.String
	c.Target.TableRecord, c.Target.TableDefinition = record.String, definition.String
	c.PostedBy, c.ResolvedBy = userOf(by, byEmail, byName, byPhoto), userOf(rby, rbyEmail, rbyName, rbyPhoto)
	c.PostedAt, c.EditedAt, c.ResolvedAt = FromMicros(posted), TimePtr(edited), TimePtr(resolved)
	return c, nil
}

// inContainer is the condition selecting a container's comments, with its arguments.
func inContainer(in comment.Container) (string, []any) {
	if in.ChangeRequestID == "" {
		return "c.space_id = ? AND c.change_request_id IS NULL", []any{in.SpaceID}
	}
	return "c.space_id = ? AND c.change_request_id = ?", []any{in.SpaceID, in.ChangeRequestID}
}

// countOpen moves a container's count of open comments by delta.
func (t commentTx) countOpen(ctx context.Context, spaceID, changeRequestID string, delta int) error {
	var err error
	if changeRequestID == "" {
		_, err = t.q.Exec(ctx, `UPDATE spaces SET open_comments = open_comments + ? WHERE id = ?`, delta, spaceID)
	} else {
		_, err = t.q.Exec(ctx, `UPDATE change_requests SET open_comments = open_comments + ? WHERE id = ?`, delta, changeRequestID)
	}
	return err
}

func (t commentTx) Insert(ctx context.Context, c comment.Comment) error {
	_, err := t.q.Exec(ctx, `INSERT INTO comments (id, space_id, change_request_id, target_revision, target_page,
		target_node, target_record, target_definition, body, posted_by, posted_at, status)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.SpaceID, nullString(c.ChangeRequestID), c.Target.Revision, nullString(c.Target.Page),
		nullString(c.Target.Node), nullString(c.Target.TableRecord), nullString(c.Target.TableDefinition), c.Body,
		nullString(c.PostedBy.ID), Micros(c.PostedAt), c.Status)
	if errors.Is(err, ErrForeignKeyViolation) {
		return comment.ErrNotFound
	}
	if err != nil {
		return err
	}
	if err := t.q.Emit(outbox.CommentPosted, "", c.SpaceID, c.ID, struct {
		ChangeRequest string `json:"changeRequest,omitempty"`
	}{c.ChangeRequestID}); err != nil {
		return err
	}
	if c.Status == comment.Open {
		return t.countOpen(ctx, c.SpaceID, c.ChangeRequestID, 1)
	}
	return nil
}

func (t commentTx) Get(ctx context.Context, in comment.Container, id string) (comment.Comment, error) {
	cond, args := inContainer(in)
	c, err := scanComment(t.q.QueryRow(ctx, `SELECT `+commentColumns+commentFrom+` WHERE c.id = ? AND `+cond,
		append([]any{id}, args...)...).Scan)
	if errors.Is(err, ErrNotFound) {
		return c, comment.ErrNotFound
	}
	if err != nil {
		return c, err
	}
	list := []comment.Comment{c}
	err = t.decorate(ctx, list)
	return list[0], err
}

func (t commentTx) List(ctx context.Context, in comment.Container, f comment.Filter, page paging.Request) (paging.Result[comment.Comment], error) {
	cond, args := inContainer(in)
	l := List{Select: commentColumns, From: commentFrom, Where: []string{cond}, Args: args,
		Order: []string{"c.posted_at", "c.id"}, Desc: !f.Ascending, CountFrom: ` FROM comments c`}
	if f.Status != "" {
		l.Where, l.Args = append(l.Where, "c.status = ?"), append(l.Args, f.Status)
	}
	if f.Page != "" {
		l.Where, l.Args = append(l.Where, "c.target_page = ?"), append(l.Args, f.Page)
	}
	if len(f.Authors) > 0 {
		l.Where = append(l.Where, "c.posted_by IN ("+placeholders(len(f.Authors))+")")
		l.Args = append(l.Args, stringArgs(f.Authors)...)
	}
	res, err := Page(ctx, t.q, l, page, func(scan func(...any) error) (comment.Comment, []any, error) {
		c, err := scanComment(scan)
		return c, []any{Micros(c.PostedAt), c.ID}, err
	})
	if err != nil {
		return res, err
	}
	return res, t.decorate(ctx, res.Items)
}

// decorate loads the reactions, reply counts and repliers of comments, in two queries.
func (t commentTx) decorate(ctx context.Context, cs []comment.Comment) error {
	if len(cs) == 0 {
		return nil
	}
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	reactions, err := t.reactions(ctx, ids)
	if err != nil {
		return err
	}
	args := stringArgs(ids)
	rows, err := t.q.Query(ctx, `SELECT r.comment_id, r.posted_by, u.email, u.display_name, u.photo_url, COUNT(*),
		MAX(COALESCE(r.edited_at, r.posted_at)) FROM comment_replies r LEFT JOIN users u ON u.id = r.posted_by
		WHERE r.comment_id IN (`+placeholders(len(ids))+`)
		GROUP BY r.comment_id, r.posted_by, u.email, u.display_name, u.photo_url
		ORDER BY r.comment_id, MAX(COALESCE(r.edited_at, r.posted_at)) DESC, r.posted_by`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	replies := map[string]int{}
	repliers := map[string][]comment.Replier{}
	for rows.Next() {
		var commentID string
		var by, email, name, photo sql.NullString
		var n int
		var updated int64
		if err := rows.Scan(&commentID, &by, &email, &name, &photo, &n, &updated); err != nil {
			return mapErr(err)
		}
		replies[commentID] += n
		if by.Valid {
			repliers[commentID] = append(repliers[commentID],
				comment.Replier{User: userOf(by, email, name, photo), Count: n, UpdatedAt: FromMicros(updated)})
		}
	}
	if err := rows.Err(); err != nil {
		return mapErr(err)
	}
	for i := range cs {
		id := cs[i].ID
		cs[i].Reactions, cs[i].Replies, cs[i].Repliers = reactions[id], replies[id], repliers[id]
	}
	return nil
}

// reactions loads the reactions to the given comments or replies: per subject, emoji in the
// order they were first used, each with its users earliest first.
func (t commentTx) reactions(ctx context.Context, subjects []string) (map[string][]comment.Reaction, error) {
	args := stringArgs(subjects)
	rows, err := t.q.Query(ctx, `SELECT r.subject_id, r.emoji, r.user_id, u.email, u.display_name, u.photo_url,
		r.reacted_at FROM comment_reactions r JOIN users u ON u.id = r.user_id
		WHERE r.subject_id IN (`+placeholders(len(subjects))+`)
		ORDER BY r.subject_id, r.reacted_at, r.user_id, r.emoji`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]comment.Reaction{}
	for rows.Next() {
		var subject, emoji string
		var user, email, name, photo sql.NullString
		var at int64
		if err := rows.Scan(&subject, &emoji, &user, &email, &name, &photo, &at); err != nil {
			return nil, mapErr(err)
		}
		rs := out[subject]
		i := 0
		for i < len(rs) && rs[i].Emoji != emoji {
			i++
		}
		if i == len(rs) {
			rs = append(rs, comment.Reaction{Emoji: emoji})
		}
		rs[i].Users = append(rs[i].Users, comment.Reactor{User: userOf(user, email, name, photo), ReactedAt: FromMicros(at)})
		out[subject] = rs
	}
	return out, mapErr(rows.Err())
}

func (t commentTx) SetBody(ctx context.Context, id, body string, editedAt time.Time) error {
	_, err := t.q.Exec(ctx, `UPDATE comments SET body = ?, edited_at = ? WHERE id = ?`, body, Micros(editedAt), id)
	return err
}

func (t commentTx) SetReplyBody(ctx context.Context, id, body string, editedAt time.Time) error {
	_, err := t.q.Exec(ctx, `UPDATE comment_replies SET body = ?, edited_at = ? WHERE id = ?`, body, Micros(editedAt), id)
	return err
}

// SetStatus changes the status only where it differs, so that of two concurrent resolves
// only one moves the count (on PostgreSQL the second waits for the first's row lock and then
// matches nothing).
func (t commentTx) SetStatus(ctx context.Context, c comment.Comment, status, by string, at time.Time) error {
	var res sql.Result
	var err error
	if status == comment.Resolved {
		res, err = t.q.Exec(ctx, `UPDATE comments SET status = ?, resolved_at = ?, resolved_by = ? WHERE id = ? AND status <> ?`,
			status, Micros(at), nullString(by), c.ID, status)
	} else {
		res, err = t.q.Exec(ctx, `UPDATE comments SET status = ?, resolved_at = NULL, resolved_by = NULL
			WHERE id = ? AND status <> ?`, status, c.ID, status)
	}
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return err
	}
	delta := 1
	if status == comment.Resolved {
		delta = -1
	}
	return t.countOpen(ctx, c.SpaceID, c.ChangeRequestID, delta)
}

func (t commentTx) Delete(ctx context.Context, in comment.Container, id string) error {
	cond, args := inContainer(in)
	cond = strings.ReplaceAll(cond, "c.", "")
	var status string
	err := t.q.QueryRow(ctx, `DELETE FROM comments WHERE id = ? AND `+cond+` RETURNING status`,
		append([]any{id}, args...)...).Scan(&status)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil || status != comment.Open {
		return err
	}
	return t.countOpen(ctx, in.SpaceID, in.ChangeRequestID, -1)
}

func (t commentTx) React(ctx context.Context, commentID, replyID, userID, emoji string, at time.Time) error {
	subject := commentID
	if replyID != "" {
		subject = replyID
	}
	_, err := t.q.Exec(ctx, `INSERT INTO comment_reactions (subject_id, comment_id, reply_id, user_id, emoji, reacted_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (subject_id, emoji, user_id) DO NOTHING`,
		subject, commentID, nullString(replyID), userID, emoji, Micros(at))
	if errors.Is(err, ErrForeignKeyViolation) {
		return comment.ErrNotFound
	}
	return err
}

func (t commentTx) Unreact(ctx context.Context, subjectID, userID, emoji string) error {
	_, err := t.q.Exec(ctx, `DELETE FROM comment_reactions WHERE subject_id = ? AND emoji = ? AND user_id = ?`,
		subjectID, emoji, userID)
	return err
}

const replyColumns = `r.id, r.comment_id, r.body, r.posted_by, u.email, u.display_name, u.photo_url, r.posted_at, r.edited_at`

const replyFrom = ` FROM comment_replies r LEFT JOIN users u ON u.id = r.posted_by`

func scanReply(scan func(...any) error) (comment.Reply, error) {
	var r comment.Reply
	var by, email, name, photo sql.NullString
	var posted int64
	var edited sql.NullInt64
	if err := scan(&r.ID, &r.CommentID, &r.Body, &by, &email, &name, &photo, &posted, &edited); err != nil {
		return r, err
	}
	r.PostedBy, r.PostedAt, r.EditedAt = userOf(by, email, name, photo), FromMicros(posted), TimePtr(edited)
	return r, nil
}

func (t commentTx) InsertReply(ctx context.Context, r comment.Reply) error {
	_, err := t.q.Exec(ctx, `INSERT INTO comment_replies (id, comment_id, body, posted_by, posted_at)
		VALUES (?, ?, ?, ?, ?)`, r.ID, r.CommentID, r.Body, nullString(r.PostedBy.ID), Micros(r.PostedAt))
	if errors.Is(err, ErrForeignKeyViolation) {
		return comment.ErrNotFound
	}
	if err != nil {
		return err
	}
	return t.q.Emit(outbox.ReplyPosted, "", "", r.ID, struct {
		Comment string `json:"comment"`
	}{r.CommentID})
}

func (t commentTx) GetReply(ctx context.Context, commentID, id string) (comment.Reply, error) {
	r, err := scanReply(t.q.QueryRow(ctx, `SELECT `+replyColumns+replyFrom+` WHERE r.id = ? AND r.comment_id = ?`,
		id, commentID).Scan)
	if errors.Is(err, ErrNotFound) {
		return r, comment.ErrNotFound
	}
	if err != nil {
		return r, err
	}
	reactions, err := t.reactions(ctx, []string{r.ID})
	r.Reactions = reactions[r.ID]
	return r, err
}

func (t commentTx) ListReplies(ctx context.Context, commentID string, page paging.Request) (paging.Result[comment.Reply], error) {
	l := List{Select: replyColumns, From: replyFrom, Where: []string{"r.comment_id = ?"}, Args: []any{commentID},
		Order: []string{"r.posted_at", "r.id"}, CountFrom: ` FROM comment_replies r`}
	res, err := Page(ctx, t.q, l, page, func(scan func(...any) error) (comment.Reply, []any, error) {
		r, err := scanReply(scan)
		return r, []any{Micros(r.PostedAt), r.ID}, err
	})
	if err != nil || len(res.Items) == 0 {
		return res, err
	}
	ids := make([]string, len(res.Items))
	for i, r := range res.Items {
		ids[i] = r.ID
	}
	reactions, err := t.reactions(ctx, ids)
	for i := range res.Items {
		res.Items[i].Reactions = reactions[res.Items[i].ID]
	}
	return res, err
}

func (t commentTx) DeleteReply(ctx context.Context, commentID, id string) error {
	_, err := t.q.Exec(ctx, `DELETE FROM comment_replies WHERE id = ? AND comment_id = ?`, id, commentID)
	return err
}
