package store

import (
	"context"
	"errors"
	"strings"
	"time"

	"docsd/internal/agentconv"
	"docsd/internal/paging"
)

// AgentConversations adapts the DB to agentconv.Store.
type AgentConversations struct{ DB *DB }

const agentConversationColumns = `a.id, a.organization_id, a.scope, a.conversation_id, a.created_by, a.title, a.shared,
	a.change_request, a.created_at, a.updated_at`

func scanAgentConversation(scan func(...any) error) (agentconv.Conversation, error) {
	var c agentconv.Conversation
	var created, updated int64
	err := scan(&c.Key, &c.OrgID, &c.Scope, &c.ID, &c.CreatedBy, &c.Title, &c.Shared, &c.ChangeRequest, &created, &updated)
	if errors.Is(err, ErrNotFound) {
		return c, agentconv.ErrNotFound
	}
	c.CreatedAt, c.UpdatedAt = FromMicros(created), FromMicros(updated)
	return c, err
}

func (s AgentConversations) List(ctx context.Context, orgID, scope, viewer string, page paging.Request) (paging.Result[agentconv.Conversation], error) {
	l := List{Select: agentConversationColumns, From: `FROM agent_conversations a`,
		Where: []string{`a.organization_id = ?`, `a.scope = ?`, `(a.shared OR a.created_by = ?)`},
		Args:  []any{orgID, scope, viewer}, Order: []string{`a.created_at`, `a.id`}, Desc: true}
	return Page(ctx, s.DB.Read(), l, page, func(scan func(...any) error) (agentconv.Conversation, []any, error) {
		c, err := scanAgentConversation(scan)
		return c, []any{Micros(c.CreatedAt), c.Key}, err
	})
}

func (s AgentConversations) Get(ctx context.Context, orgID, scope, id string) (agentconv.Conversation, error) {
	return scanAgentConversation(s.DB.Read().QueryRow(ctx, `SELECT `+agentConversationColumns+` FROM agent_conversations a
		WHERE a.organization_id = ? AND a.scope = ? AND a.conversation_id = ?`, orgID, scope, id).Scan)
}

func (s AgentConversations) Rename(ctx context.Context, key, title string, now time.Time) (agentconv.Conversation, error) {
	var c agentconv.Conversation
	err := s.DB.Write(ctx, now, func(q *Q) error {
		res, err := q.Exec(ctx, `UPDATE agent_conversations SET title = ?, updated_at = ? WHERE id = ?`, title, Micros(now), key)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, agentconv.ErrNotFound)
		}
		c, err = scanAgentConversation(q.QueryRow(ctx, `SELECT `+agentConversationColumns+` FROM agent_conversations a WHERE a.id = ?`, key).Scan)
		return err
	})
	return c, err
}

func (s AgentConversations) Delete(ctx context.Context, key string, now time.Time) error {
	return s.DB.Write(ctx, now, func(q *Q) error {
		if _, err := q.Exec(ctx, `DELETE FROM agent_conversation_messages WHERE conversation = ?`, key); err != nil {
			return err
		}
		res, err := q.Exec(ctx, `DELETE FROM agent_conversations WHERE id = ?`, key)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, agentconv.ErrNotFound)
		}
		return nil
	})
}

func (s AgentConversations) Append(ctx context.Context, a agentconv.Append, now time.Time) (agentconv.Conversation, []agentconv.Message, error) {
	var c agentconv.Conversation
	var out []agentconv.Message
	st := a.Start
	err := s.DB.Write(ctx, now, func(q *Q) error {
		out = out[:0]
		if a.New {
			var context *string
			if crID, ok := strings.CutPrefix(st.Scope, agentconv.ChangeRequestScope("")); ok {
				context = &crID
			}
			// Two first messages at once: one records the conversation, both add to it.
			if _, err := q.Exec(ctx, `INSERT INTO agent_conversations (id, organization_id, scope, conversation_id, created_by,
				title, shared, change_request, context_change_request, created_at, updated_at) VALUES (?, ?, ?, ?, ?, '', ?, '', ?, ?, ?)
				ON CONFLICT (organization_id, scope, conversation_id) DO NOTHING`,
				st.Key, st.OrgID, st.Scope, st.ID, st.CreatedBy, st.Shared, context, Micros(now), Micros(now)); err != nil {
				return err
			}
		}
		// The row lock orders concurrent senders' messages (SQLite has one writer anyway).
		var err error
		c, err = scanAgentConversation(q.QueryRow(ctx, `SELECT `+agentConversationColumns+` FROM agent_conversations a
			WHERE a.organization_id = ? AND a.scope = ? AND a.conversation_id = ?`+q.ForUpdate(), st.OrgID, st.Scope, st.ID).Scan)
		if err != nil {
			return err
		}
		if (!a.New && c.Key != st.Key) || (!c.Shared && c.CreatedBy != st.CreatedBy) {
			return agentconv.ErrNotFound
		}
		var last int64
		if err := q.QueryRow(ctx, `SELECT COALESCE(MAX(seq), 0) FROM agent_conversation_messages WHERE conversation = ?`, c.Key).Scan(&last); err != nil {
			return err
		}
		for _, m := range a.Messages {
			last++
			m.Seq = last
			if _, err := q.Exec(ctx, `INSERT INTO agent_conversation_messages (conversation, seq, id, role, author, content, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, c.Key, m.Seq, m.ID, m.Role, m.Author, m.Content, Micros(m.CreatedAt)); err != nil {
				return err
			}
			out = append(out, m)
		}
		if c.Title == "" && a.Title != "" {
			c.Title = a.Title
		}
		c.UpdatedAt = FromMicros(Micros(now))
		_, err = q.Exec(ctx, `UPDATE agent_conversations SET title = ?, updated_at = ? WHERE id = ?`, c.Title, Micros(now), c.Key)
		return err
	})
	return c, out, err
}

const agentMessageColumns = `m.id, m.seq, m.role, m.author, m.content, m.created_at`

func scanAgentMessage(scan func(...any) error) (agentconv.Message, error) {
	var m agentconv.Message
	var created int64
	err := scan(&m.ID, &m.Seq, &m.Role, &m.Author, &m.Content, &created)
	m.CreatedAt = FromMicros(created)
	return m, err
}

func (s AgentConversations) Messages(ctx context.Context, key string, page paging.Request) (paging.Result[agentconv.Message], error) {
	l := List{Select: agentMessageColumns, From: `FROM agent_conversation_messages m`, Where: []string{`m.conversation = ?`},
		Args: []any{key}, Order: []string{`m.seq`}}
	return Page(ctx, s.DB.Read(), l, page, func(scan func(...any) error) (agentconv.Message, []any, error) {
		m, err := scanAgentMessage(scan)
		return m, []any{m.Seq}, err
	})
}

func (s AgentConversations) Recent(ctx context.Context, key string, n int) ([]agentconv.Message, error) {
	rows, err := s.DB.Read().Query(ctx, `SELECT `+agentMessageColumns+` FROM agent_conversation_messages m
		WHERE m.conversation = ? ORDER BY m.seq DESC LIMIT ?`, key, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []agentconv.Message
	for rows.Next() {
		m, err := scanAgentMessage(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append([]agentconv.Message{m}, out...)
	}
	return out, rows.Err()
}
