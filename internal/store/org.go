package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"docsd/internal/auth"
	"docsd/internal/mergerules"
	"docsd/internal/org"
	"docsd/internal/paging"
)

// Orgs adapts the DB to org.Store.
type Orgs struct{ DB *DB }

func (s Orgs) Read() org.Tx { return orgTx{s.DB.Read()} }

func (s Orgs) Write(ctx context.Context, now time.Time, fn func(org.Tx) error) error {
	return s.DB.Write(ctx, now, func(q *Q) error { return fn(orgTx{q}) })
}

// orgTx implements org.Tx; its methods are spread over one file per resource group.
type orgTx struct{ q *Q }

const orgColumns = `o.id, o.title, o.hostname, o.type, o.use_case, o.community_type, o.default_role,
	o.default_content_site, o.logo_url, o.sso, o.ai, o.invite_links, o.merge_rules, o.plan, o.created_at, o.updated_at,
	(SELECT COALESCE(STRING_AGG(d.domain, ',' ORDER BY d.position), '') FROM organization_email_domains d WHERE d.organization_id = o.id)`

func scanOrg(scan func(...any) error) (org.Organization, error) {
	var o org.Organization
	var hostname, useCase, community, role, site, logo sql.NullString
	var rules, domains string
	var created, updated int64
	err := scan(&o.ID, &o.Title, &hostname, &o.Type, &useCase, &community, &role, &site, &logo,
		&o.SSO, &o.AI, &o.InviteLinks, &rules, &o.Plan, &created, &updated, &domains)
	if err != nil {
		return o, err
	}
	o.Hostname, o.UseCase, o.CommunityType = StrPtr(hostname), StrPtr(useCase), StrPtr(community)
	o.DefaultRole = auth.Role(role.String)
	o.DefaultContentSite, o.LogoURL = StrPtr(site), StrPtr(logo)
	o.CreatedAt, o.UpdatedAt = FromMicros(created), FromMicros(updated)
	o.MergeRules = mergerules.Default()
	if err := json.Unmarshal([]byte(rules), &o.MergeRules); err != nil {
		return o, err
	}
	o.EmailDomains = []string{}
	if domains != "" {
		o.EmailDomains = strings.Split(domains, ",")
	}
	return o, nil
}

func nullRole(r auth.Role) any {
	if r == auth.Guest {
		return nil
	}
	return string(r)
}

func (t orgTx) InsertOrganization(ctx context.Context, o org.Organization) error {
	rules, err := json.Marshal(o.MergeRules)
	if err != nil {
		return err
	}
	_, err = t.q.Exec(ctx, `INSERT INTO organizations (id, title, hostname, type, use_case, community_type, default_role,
		default_content_site, logo_url, sso, ai, invite_links, merge_rules, plan, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.ID, o.Title, NullStr(o.Hostname), o.Type, NullStr(o.UseCase), NullStr(o.CommunityType), nullRole(o.DefaultRole),
		NullStr(o.DefaultContentSite), NullStr(o.LogoURL), o.SSO, o.AI, o.InviteLinks, string(rules), o.Plan,
		Micros(o.CreatedAt), Micros(o.UpdatedAt))
	if errors.Is(err, ErrUniqueViolation) {
		return org.ErrHostnameTaken
	}
	if err != nil {
		return err
	}
	return t.setEmailDomains(ctx, o.ID, o.EmailDomains)
}

func (t orgTx) setEmailDomains(ctx context.Context, orgID string, domains []string) error {
	if _, err := t.q.Exec(ctx, `DELETE FROM organization_email_domains WHERE organization_id = ?`, orgID); err != nil {
		return err
	}
	for i, d := range domains {
		if _, err := t.q.Exec(ctx, `INSERT INTO organization_email_domains (organization_id, domain, position) VALUES (?, ?, ?)`, orgID, d, i); err != nil {
			return err
		}
	}
	return nil
}

func (t orgTx) Organization(ctx context.Context, id string) (org.Organization, error) {
	o, err := scanOrg(t.q.QueryRow(ctx, `SELECT `+orgColumns+` FROM organizations o WHERE o.id = ?`, id).Scan)
	if errors.Is(err, ErrNotFound) {
		return o, org.ErrNotFound
	}
	return o, err
}

func (t orgTx) OrganizationByHostname(ctx context.Context, hostname string) (org.Organization, error) {
	o, err := scanOrg(t.q.QueryRow(ctx, `SELECT `+orgColumns+` FROM organizations o WHERE o.hostname = ?`, hostname).Scan)
	if errors.Is(err, ErrNotFound) {
		return o, org.ErrNotFound
	}
	return o, err
}

func (t orgTx) UpdateOrganization(ctx context.Context, o org.Organization) error {
	rules, err := json.Marshal(o.MergeRules)
	if err != nil {
		return err
	}
	_, err = t.q.Exec(ctx, `UPDATE organizations SET title = ?, hostname = ?, default_role = ?, default_content_site = ?,
		logo_url = ?, sso = ?, ai = ?, invite_links = ?, merge_rules = ?, updated_at = ? WHERE id = ?`,
		o.Title, NullStr(o.Hostname), nullRole(o.DefaultRole), NullStr(o.DefaultContentSite), NullStr(o.LogoURL),
		o.SSO, o.AI, o.InviteLinks, string(rules), Micros(o.UpdatedAt), o.ID)
	if errors.Is(err, ErrUniqueViolation) {
		return org.ErrHostnameTaken
	}
	if err != nil {
		return err
	}
	return t.setEmailDomains(ctx, o.ID, o.EmailDomains)
}

func scanOrgKeyed(scan func(...any) error) (org.Organization, []any, error) {
	o, err := scanOrg(scan)
	return o, []any{o.ID}, err
}

func (t orgTx) OrganizationsOf(ctx context.Context, userID string, page paging.Request) (paging.Result[org.Organization], error) {
	return Page(ctx, t.q, List{
		Select: orgColumns,
		From:   `FROM organizations o JOIN members m ON m.organization_id = o.id`,
		Where:  []string{`m.user_id = ?`, `m.disabled = FALSE`},
		Args:   []any{userID},
		Order:  []string{`o.id`},
	}, page, scanOrgKeyed)
}

func (t orgTx) OrganizationsForEmailDomain(ctx context.Context, domain string, page paging.Request) (paging.Result[org.Organization], error) {
	return Page(ctx, t.q, List{
		Select: orgColumns,
		From:   `FROM organizations o JOIN organization_email_domains e ON e.organization_id = o.id`,
		Where:  []string{`e.domain = ?`},
		Args:   []any{domain},
		Order:  []string{`o.id`},
	}, page, scanOrgKeyed)
}
