package store

import (
	"context"
	"errors"

	"docsd/internal/paging"
	"docsd/internal/site"
)

const shareLinkColumns = `l.id, l.site_id, l.name, l.share_key, l.active, l.created_at`

func scanShareLink(scan func(...any) error) (site.ShareLink, error) {
	var l site.ShareLink
	var created int64
	err := scan(&l.ID, &l.SiteID, &l.Name, &l.Key, &l.Active, &created)
	l.CreatedAt = FromMicros(created)
	return l, siteErr(err)
}

func (t siteTx) InsertShareLink(ctx context.Context, l site.ShareLink) error {
	_, err := t.q.Exec(ctx, `INSERT INTO site_share_links (id, site_id, name, share_key, active, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, l.ID, l.SiteID, l.Name, l.Key, l.Active, Micros(l.CreatedAt))
	if err != nil {
		return siteErr(err)
	}
	return t.siteChanged(ctx, "", l.SiteID)
}

func (t siteTx) UpdateShareLink(ctx context.Context, l site.ShareLink) error {
	var siteID string
	err := t.q.QueryRow(ctx, `UPDATE site_share_links SET name = ?, active = ? WHERE id = ? RETURNING site_id`,
		l.Name, l.Active, l.ID).Scan(&siteID)
	if errors.Is(err, ErrNotFound) {
		return nil // as the UPDATE alone was
	}
	if err != nil {
		return siteErr(err)
	}
	return t.siteChanged(ctx, "", siteID)
}

func (t siteTx) DeleteShareLink(ctx context.Context, siteID, id string) error {
	if _, err := t.q.Exec(ctx, `DELETE FROM site_share_links WHERE site_id = ? AND id = ?`, siteID, id); err != nil {
		return err
	}
	return t.siteChanged(ctx, "", siteID)
}

func (t siteTx) ShareLink(ctx context.Context, siteID, id string) (site.ShareLink, error) {
	return scanShareLink(t.q.QueryRow(ctx, `SELECT `+shareLinkColumns+` FROM site_share_links l
		WHERE l.site_id = ? AND l.id = ?`, siteID, id).Scan)
}

func (t siteTx) ShareLinkByKey(ctx context.Context, key string) (site.ShareLink, error) {
	return scanShareLink(t.q.QueryRow(ctx, `SELECT `+shareLinkColumns+` FROM site_share_links l WHERE l.share_key = ?`, key).Scan)
}

func (t siteTx) ListShareLinks(ctx context.Context, siteID string, page paging.Request) (paging.Result[site.ShareLink], error) {
	l := List{Select: shareLinkColumns, From: `FROM site_share_links l`, Where: []string{"l.site_id = ?"},
		Args: []any{siteID}, Order: []string{"l.created_at", "l.id"}}
	return Page(ctx, t.q, l, page, func(scan func(...any) error) (site.ShareLink, []any, error) {
		sl, err := scanShareLink(scan)
		return sl, []any{Micros(sl.CreatedAt), sl.ID}, err
	})
}
