package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"docsd/internal/auth"
	"docsd/internal/org"
	"docsd/internal/outbox"
	"docsd/internal/paging"
)

// memberColumns selects a membership with its user and counts; m is members, u is users.
// The member's `spaces` count stays 0 until spaces exist; it will come from their grants.
const memberColumns = `m.organization_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at,
	u.id, u.email, u.email_verified, u.display_name, u.photo_url, u.created_at,
	(SELECT COUNT(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE tm.user_id = m.user_id AND t.organization_id = m.organization_id),
	(SELECT COUNT(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE tm.user_id = m.user_id AND t.organization_id = m.organization_id AND tm.role = 'owner')`

const memberFrom = `FROM members m JOIN users u ON u.id = m.user_id`

func scanMember(scan func(...any) error) (org.Member, error) {
	var m org.Member
	var role sql.NullString
	var joined, userCreated int64
	var seen sql.NullInt64
	var owned int
	err := scan(&m.OrganizationID, &role, &m.Disabled, &m.SSO, &joined, &seen,
		&m.User.ID, &m.User.Email, &m.User.EmailVerified, &m.User.DisplayName, &m.User.PhotoURL, &userCreated,
		&m.Teams, &owned)
	if err != nil {
		return m, err
	}
	m.Role = auth.Role(role.String)
	m.JoinedAt, m.LastSeenAt = FromMicros(joined), TimePtr(seen)
	m.User.CreatedAt = FromMicros(userCreated)
	m.OwnsTeam = owned > 0
	return m, nil
}

func (t orgTx) Member(ctx context.Context, orgID, userID string) (org.Member, error) {
	m, err := scanMember(t.q.QueryRow(ctx, `SELECT `+memberColumns+` `+memberFrom+`
		WHERE m.organization_id = ? AND m.user_id = ?`, orgID, userID).Scan)
	if errors.Is(err, ErrNotFound) {
		return m, org.ErrNotFound
	}
	return m, err
}

func (t orgTx) Members(ctx context.Context, orgID string, f org.MemberFilter, page paging.Request) (paging.Result[org.Member], error) {
	l := List{Select: memberColumns, From: memberFrom, Where: []string{`m.organization_id = ?`}, Args: []any{orgID}, Desc: f.Desc}
	if f.Role != nil {
		if *f.Role == auth.Guest {
			l.Where = append(l.Where, `m.role IS NULL`)
		} else {
			l.Where = append(l.Where, `m.role = ?`)
			l.Args = append(l.Args, string(*f.Role))
		}
	}
	if f.Commented != nil {
		// Comments of a change request, or the space's own (change_request_id IS NULL), as the
		// comment lists split them; a reply counts as a comment.
		in := `c.space_id = ? AND c.change_request_id IS NULL`
		args := []any{f.Commented.SpaceID}
		if f.Commented.ChangeRequestID != "" {
			in, args = `c.space_id = ? AND c.change_request_id = ?`, append(args, f.Commented.ChangeRequestID)
		}
		l.Where = append(l.Where, `(EXISTS (SELECT 1 FROM comments c WHERE `+in+` AND c.posted_by = m.user_id)
			OR EXISTS (SELECT 1 FROM comment_replies r JOIN comments c ON c.id = r.comment_id
				WHERE `+in+` AND r.posted_by = m.user_id))`)
		l.Args = append(append(l.Args, args...), args...)
	}
	if f.Search == "" {
		// Every member has exactly one user (foreign key), so without a search on the user's
		// columns the count needs only the members table: ten times cheaper on SQLite.
		l.CountFrom = `FROM members m`
	} else {
		l.Where = append(l.Where, `(LOWER(u.display_name) LIKE ? ESCAPE '\' OR LOWER(u.email) LIKE ? ESCAPE '\')`)
		l.Args = append(l.Args, Like(f.Search), Like(f.Search))
	}
	// Both orders end with the user id, so the key is unique and a page walk visits every
	// member once even when many joined (or were seen) in the same microsecond.
	switch f.Sort {
	case org.SortLastSeenAt:
		l.Where = append(l.Where, `m.last_seen_at IS NOT NULL`)
		l.Order = []string{`m.last_seen_at`, `m.user_id`}
		return Page(ctx, t.q, l, page, func(scan func(...any) error) (org.Member, []any, error) {
			m, err := scanMember(scan)
			if err != nil || m.LastSeenAt == nil {
				return m, nil, err
			}
			return m, []any{Micros(*m.LastSeenAt), m.User.ID}, nil
		})
	default:
		l.Order = []string{`m.joined_at`, `m.user_id`}
		return Page(ctx, t.q, l, page, func(scan func(...any) error) (org.Member, []any, error) {
			m, err := scanMember(scan)
			return m, []any{Micros(m.JoinedAt), m.User.ID}, err
		})
	}
}

func (t orgTx) InsertMember(ctx context.Context, m org.Member) error {
	_, err := t.q.Exec(ctx, `INSERT INTO members (organization_id, user_id, role, disabled, sso, joined_at, last_seen_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, m.OrganizationID, m.User.ID, nullRole(m.Role), m.Disabled, m.SSO,
		Micros(m.JoinedAt), NullMicros(m.LastSeenAt))
	return t.q.emitAfter(err, outbox.MemberAdded, m.OrganizationID, "", m.User.ID, memberEvent{Role: string(m.Role)})
}

func (t orgTx) UpsertMember(ctx context.Context, m org.Member) error {
	_, err := t.q.Exec(ctx, `INSERT INTO members (organization_id, user_id, role, disabled, sso, joined_at, last_seen_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role`,
		m.OrganizationID, m.User.ID, nullRole(m.Role), m.Disabled, m.SSO, Micros(m.JoinedAt), NullMicros(m.LastSeenAt))
	return t.q.emitAfter(err, outbox.MemberUpdated, m.OrganizationID, "", m.User.ID, memberEvent{Role: string(m.Role)})
}

func (t orgTx) SetMemberRole(ctx context.Context, orgID, userID string, role auth.Role) error {
	_, err := t.q.Exec(ctx, `UPDATE members SET role = ? WHERE organization_id = ? AND user_id = ?`, nullRole(role), orgID, userID)
	return t.q.emitAfter(err, outbox.MemberUpdated, orgID, "", userID, memberEvent{Role: string(role)})
}

func (t orgTx) SetMemberSSO(ctx context.Context, orgID, userID string, sso bool) error {
	_, err := t.q.Exec(ctx, `UPDATE members SET sso = ? WHERE organization_id = ? AND user_id = ?`, sso, orgID, userID)
	return t.q.emitAfter(err, outbox.MemberUpdated, orgID, "", userID, nil)
}

func (t orgTx) SetMemberLastSeen(ctx context.Context, orgID, userID string, at time.Time) error {
	_, err := t.q.Exec(ctx, `UPDATE members SET last_seen_at = ? WHERE organization_id = ? AND user_id = ?`, Micros(at), orgID, userID)
	return err
}

func (t orgTx) DeleteMember(ctx context.Context, orgID, userID string) error {
	if _, err := t.q.Exec(ctx, `DELETE FROM team_members WHERE user_id = ?
		AND team_id IN (SELECT id FROM teams WHERE organization_id = ?)`, userID, orgID); err != nil {
		return err
	}
	// Grants on the organization's spaces and collections go too: someone who joins again
	// starts afresh.
	for _, g := range []struct{ table, target, owner string }{
		{"space_user_grants", "space_id", "spaces"}, {"collection_user_grants", "collection_id", "collections"},
	} {
		if _, err := t.q.Exec(ctx, `DELETE FROM `+g.table+` WHERE user_id = ?
			AND `+g.target+` IN (SELECT id FROM `+g.owner+` WHERE organization_id = ?)`, userID, orgID); err != nil {
			return err
		}
	}
	_, err := t.q.Exec(ctx, `DELETE FROM members WHERE organization_id = ? AND user_id = ?`, orgID, userID)
	return t.q.emitAfter(err, outbox.MemberRemoved, orgID, "", userID, nil)
}

func (t orgTx) OtherActiveAdmins(ctx context.Context, orgID, userID string) (int, error) {
	// NO KEY UPDATE serializes this with other admin changes of the organization without
	// blocking the foreign-key checks of rows inserted under it (teams, spaces, members).
	// SQLite needs no lock: its write transactions run one at a time.
	lock := ""
	if t.q.Engine() == Postgres {
		lock = " FOR NO KEY UPDATE"
	}
	var id string
	if err := t.q.QueryRow(ctx, `SELECT id FROM organizations WHERE id = ?`+lock, orgID).Scan(&id); err != nil {
		if errors.Is(err, ErrNotFound) {
			return 0, org.ErrNotFound
		}
		return 0, err
	}
	var n int
	err := t.q.QueryRow(ctx, `SELECT COUNT(*) FROM members
		WHERE organization_id = ? AND user_id <> ? AND role = 'admin' AND disabled = FALSE`, orgID, userID).Scan(&n)
	return n, err
}
