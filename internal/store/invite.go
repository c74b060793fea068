package store

import (
	"context"
	"database/sql"
	"errors"

	"docsd/internal/account"
	"docsd/internal/auth"
	"docsd/internal/org"
	"docsd/internal/paging"
)

const inviteColumns = `id, organization_id, role, created_by, created_at`

func scanInvite(scan func(...any) error) (org.InviteLink, error) {
	var l org.InviteLink
	var role sql.NullString
	var created int64
	if err := scan(&l.ID, &l.OrganizationID, &role, &l.CreatedBy, &created); err != nil {
		return l, err
	}
	l.Role = auth.Role(role.String)
	l.CreatedAt = FromMicros(created)
	return l, nil
}

func (t orgTx) InsertInviteLink(ctx context.Context, l org.InviteLink) error {
	_, err := t.q.Exec(ctx, `INSERT INTO invite_links (`+inviteColumns+`) VALUES (?, ?, ?, ?, ?)`,
		l.ID, l.OrganizationID, nullRole(l.Role), l.CreatedBy, Micros(l.CreatedAt))
	return err
}

func (t orgTx) InviteLink(ctx context.Context, orgID, id string) (org.InviteLink, error) {
	l, err := scanInvite(t.q.QueryRow(ctx, `SELECT `+inviteColumns+` FROM invite_links
		WHERE organization_id = ? AND id = ?`, orgID, id).Scan)
	if errors.Is(err, ErrNotFound) {
		return l, org.ErrNotFound
	}
	return l, err
}

func (t orgTx) InviteLinks(ctx context.Context, orgID string, page paging.Request) (paging.Result[org.InviteLink], error) {
	return Page(ctx, t.q, List{
		Select: inviteColumns,
		From:   `FROM invite_links`,
		Where:  []string{`organization_id = ?`},
		Args:   []any{orgID},
		Order:  []string{`created_at`, `id`},
	}, page, func(scan func(...any) error) (org.InviteLink, []any, error) {
		l, err := scanInvite(scan)
		return l, []any{Micros(l.CreatedAt), l.ID}, err
	})
}

func (t orgTx) SetInviteLinkRole(ctx context.Context, orgID, id string, role auth.Role) error {
	res, err := t.q.Exec(ctx, `UPDATE invite_links SET role = ? WHERE organization_id = ? AND id = ?`, nullRole(role), orgID, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return org.ErrNotFound
	}
	return nil
}

func (t orgTx) DeleteInviteLink(ctx context.Context, orgID, id string) error {
	_, err := t.q.Exec(ctx, `DELETE FROM invite_links WHERE organization_id = ? AND id = ?`, orgID, id)
	return err
}

// roleRank orders stored roles in SQL as auth.Role does in Go (NULL, a guest, ranks lowest).
const roleRank = `CASE role WHEN 'admin' THEN 6 WHEN 'create' THEN 5 WHEN 'review' THEN 4
	WHEN 'edit' THEN 3 WHEN 'comment' THEN 2 WHEN 'read' THEN 1 ELSE 0 END`

// rankOf is roleRank for a role in Go, passed to the query as a number.
func rankOf(r auth.Role) int {
	for i, x := range auth.Roles {
		if x == r {
			return len(auth.Roles) - i
		}
	}
	return 0
}

// JoinMember inserts first and raises the role only when the row already exists, both in
// single statements, so concurrent joins of one user neither fail nor lower a role.
func (t orgTx) JoinMember(ctx context.Context, m org.Member) (bool, error) {
	res, err := t.q.Exec(ctx, `INSERT INTO members (organization_id, user_id, role, disabled, sso, joined_at, last_seen_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, user_id) DO NOTHING`,
		m.OrganizationID, m.User.ID, nullRole(m.Role), m.Disabled, m.SSO, Micros(m.JoinedAt), NullMicros(m.LastSeenAt))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 1 {
		return n == 1, err
	}
	if _, err := t.q.Exec(ctx, `UPDATE members SET role = ? WHERE organization_id = ? AND user_id = ? AND (`+roleRank+`) < ?`,
		nullRole(m.Role), m.OrganizationID, m.User.ID, rankOf(m.Role)); err != nil {
		return false, err
	}
	if m.SSO {
		_, err = t.q.Exec(ctx, `UPDATE members SET sso = TRUE WHERE organization_id = ? AND user_id = ?`, m.OrganizationID, m.User.ID)
	}
	return false, err
}

// EnsureUser does nothing on a taken email (and waits, on PostgreSQL, for a concurrent insert
// of it to settle) and then reads the user who has it.
func (t orgTx) EnsureUser(ctx context.Context, u account.User) (account.User, bool, error) {
	res, err := t.q.Exec(ctx, `INSERT INTO users (id, email, email_domain, email_verified, display_name, photo_url, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING`,
		u.ID, u.Email, u.EmailDomain(), u.EmailVerified, u.DisplayName, u.PhotoURL, Micros(u.CreatedAt))
	if err != nil {
		return u, false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return u, n == 1, err
	}
	existing, err := accountTx{t.q}.UserByEmail(ctx, u.Email)
	return existing, false, err
}

func (t orgTx) MemberElsewhere(ctx context.Context, userID, orgID string) (bool, error) {
	var n int
	err := t.q.QueryRow(ctx, `SELECT COUNT(*) FROM members WHERE user_id = ? AND organization_id <> ?`, userID, orgID).Scan(&n)
	return n > 0, err
}
