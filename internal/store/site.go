package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"docsd/internal/outbox"
	"docsd/internal/paging"
	"docsd/internal/site"
	"docsd/internal/space"
)

// Sites adapts the DB to site.Store.
type Sites struct{ DB *DB }

func (s Sites) Read() site.Tx { return siteTx{s.DB.Read()} }

func (s Sites) Write(ctx context.Context, now time.Time, fn func(site.Tx) error) error {
	return s.DB.Write(ctx, now, func(q *Q) error { return fn(siteTx{q}) })
}

type siteTx struct{ q *Q }

// SiteTx is the same transaction as a site.Tx, for reading in a space write what its answer
// needs of sites (see space.Update.Then).
func (t spaceTx) SiteTx() site.Tx { return siteTx{t.q} }

// siteErr maps storage misses and unique violations to the site package's errors.
func siteErr(err error) error {
	switch {
	case errors.Is(err, ErrNotFound):
		return site.ErrNotFound
	case errors.Is(err, ErrUniqueViolation):
		return errors.Join(site.ErrTaken, err)
	}
	return err
}

func rawOrNil(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

func rawOf(v sql.NullString) []byte {
	if !v.Valid {
		return nil
	}
	return []byte(v.String)
}

const siteColumns = `st.id, st.organization_id, st.type, st.title, st.visibility, st.basename, st.hostname,
	st.proxy_origin, st.published, st.adaptive_content, st.agents_context, st.customization, st.adaptive_schema,
	st.adaptive_schema_at, st.visitor_auth_key, st.visitor_auth_backend, st.visitor_auth_fallback,
	st.created_at, st.updated_at`

func scanSite(scan func(...any) error) (site.Site, error) {
	var st site.Site
	var hostname, proxy, custom, schema, fallback sql.NullString
	var schemaAt sql.NullInt64
	var created, updated int64
	err := scan(&st.ID, &st.OrganizationID, &st.Type, &st.Title, &st.Visibility, &st.Basename, &hostname,
		&proxy, &st.Published, &st.AdaptiveContent, &st.AgentsContext, &custom, &schema,
		&schemaAt, &st.VisitorAuth.Key, &st.VisitorAuth.Backend, &fallback, &created, &updated)
	if err != nil {
		return st, siteErr(err)
	}
	st.Hostname, st.ProxyOrigin, st.VisitorAuth.FallbackURL = hostname.String, proxy.String, fallback.String
	st.Customization, st.AdaptiveSchema, st.AdaptiveSchemaAt = rawOf(custom), rawOf(schema), TimePtr(schemaAt)
	st.CreatedAt, st.UpdatedAt = FromMicros(created), FromMicros(updated)
	return st, nil
}

func (t siteTx) InsertSite(ctx context.Context, st site.Site) error {
	_, err := t.q.Exec(ctx, `INSERT INTO sites (id, organization_id, type, title, visibility, basename, hostname,
		proxy_origin, published, adaptive_content, agents_context, customization, adaptive_schema, adaptive_schema_at,
		visitor_auth_key, visitor_auth_backend, visitor_auth_fallback, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		st.ID, st.OrganizationID, st.Type, st.Title, st.Visibility, st.Basename, nullIfEmpty(st.Hostname),
		nullIfEmpty(st.ProxyOrigin), st.Published, st.AdaptiveContent, st.AgentsContext, rawOrNil(st.Customization),
		rawOrNil(st.AdaptiveSchema), NullMicros(st.AdaptiveSchemaAt), st.VisitorAuth.Key, st.VisitorAuth.Backend,
		nullIfEmpty(st.VisitorAuth.FallbackURL), Micros(st.CreatedAt), Micros(st.UpdatedAt))
	if err != nil || !st.Published {
		return siteErr(err)
	}
	return t.q.Emit(outbox.SitePublished, st.OrganizationID, "", st.ID, nil)
}

func (t siteTx) UpdateSite(ctx context.Context, st site.Site) error {
	// Whether it was published tells a publication from another update, for the event.
	var was bool
	if err := t.q.QueryRow(ctx, `SELECT published FROM sites WHERE id = ?`, st.ID).Scan(&was); err != nil {
		return siteErr(err)
	}
	_, err := t.q.Exec(ctx, `UPDATE sites SET type = ?, title = ?, visibility = ?, basename = ?, hostname = ?,
		proxy_origin = ?, published = ?, adaptive_content = ?, agents_context = ?, customization = ?,
		adaptive_schema = ?, adaptive_schema_at = ?, visitor_auth_key = ?, visitor_auth_backend = ?,
		visitor_auth_fallback = ?, updated_at = ? WHERE id = ?`,
		st.Type, st.Title, st.Visibility, st.Basename, nullIfEmpty(st.Hostname), nullIfEmpty(st.ProxyOrigin),
		st.Published, st.AdaptiveContent, st.AgentsContext, rawOrNil(st.Customization), rawOrNil(st.AdaptiveSchema),
		NullMicros(st.AdaptiveSchemaAt), st.VisitorAuth.Key, st.VisitorAuth.Backend,
		nullIfEmpty(st.VisitorAuth.FallbackURL), Micros(st.UpdatedAt), st.ID)
	if err != nil {
		return siteErr(err)
	}
	if was == st.Published {
		return t.siteChanged(ctx, st.OrganizationID, st.ID)
	}
	kind := outbox.SitePublished
	if !st.Published {
		kind = outbox.SiteUnpublished
	}
	return t.q.Emit(kind, st.OrganizationID, "", st.ID, nil)
}

// siteChanged writes a SiteUpdated event for a site, once per transaction: the published
// site caches of every instance drop the site's pages on it (see sitehttp/cache.go).
func (t siteTx) siteChanged(ctx context.Context, orgID, siteID string) error {
	return siteChanged(t.q, orgID, siteID)
}

func siteChanged(q *Q, orgID, siteID string) error {
	for _, e := range q.events {
		if e.Kind == outbox.SiteUpdated && e.Subject == siteID {
			return nil
		}
	}
	return q.Emit(outbox.SiteUpdated, orgID, "", siteID, nil)
}

// siteChangedVia is siteChanged for the site of the row of table (site_sections,
// site_section_groups, site_spaces) with id; nothing when there is no such row.
func (t siteTx) siteChangedVia(ctx context.Context, table, id string) error {
	var siteID string
	err := t.q.QueryRow(ctx, `SELECT site_id FROM `+table+` WHERE id = ?`, id).Scan(&siteID)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return t.siteChanged(ctx, "", siteID)
}

func (t siteTx) DeleteSite(ctx context.Context, id string) error {
	var published bool
	var orgID string
	if err := t.q.QueryRow(ctx, `SELECT published, organization_id FROM sites WHERE id = ?`, id).Scan(&published, &orgID); err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		return err
	}
	if _, err := t.q.Exec(ctx, `DELETE FROM sites WHERE id = ?`, id); err != nil || !published {
		return err
	}
	return t.q.Emit(outbox.SiteUnpublished, orgID, "", id, nil)
}

func (t siteTx) Site(ctx context.Context, id string) (site.Site, error) {
	lock := ""
	if t.q.inTx() {
		lock = t.q.ForUpdate() // serializes changes to one site's structure on PostgreSQL
	}
	return scanSite(t.q.QueryRow(ctx, `SELECT `+siteColumns+` FROM sites st WHERE st.id = ?`+lock, id).Scan)
}

func (t siteTx) SiteByHostname(ctx context.Context, hostname string) (site.Site, error) {
	return scanSite(t.q.QueryRow(ctx, `SELECT `+siteColumns+` FROM sites st WHERE st.hostname = ?`, hostname).Scan)
}

func (t siteTx) SiteByBasename(ctx context.Context, orgID, basename string) (site.Site, error) {
	return scanSite(t.q.QueryRow(ctx, `SELECT `+siteColumns+` FROM sites st
		WHERE st.organization_id = ? AND st.basename = ?`, orgID, basename).Scan)
}

func (t siteTx) BasenameTaken(ctx context.Context, orgID, basename string) (bool, error) {
	var n int
	err := t.q.QueryRow(ctx, `SELECT COUNT(*) FROM sites WHERE organization_id = ? AND basename = ?`, orgID, basename).Scan(&n)
	return n > 0, err
}

func (t siteTx) ListSites(ctx context.Context, orgID string, f site.Filter, page paging.Request) (paging.Result[site.Site], error) {
	l := List{Select: siteColumns, From: `FROM sites st`, Where: []string{"st.organization_id = ?"}, Args: []any{orgID},
		Order: []string{"st.created_at", "st.id"}}
	if f.Title != "" {
		l.Where = append(l.Where, `LOWER(st.title) LIKE ? ESCAPE '\'`)
		l.Args = append(l.Args, Like(f.Title))
	}
	if f.Published != nil {
		l.Where = append(l.Where, "st.published = ?")
		l.Args = append(l.Args, *f.Published)
	}
	if f.Space != "" {
		l.Where = append(l.Where, "EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.site_id = st.id AND ss.space_id = ?)")
		l.Args = append(l.Args, f.Space)
	}
	if len(f.Types) > 0 {
		l.Where = append(l.Where, "st.type IN ("+placeholders(len(f.Types))+")")
		l.Args = append(l.Args, stringArgs(f.Types)...)
	}
	return Page(ctx, t.q, l, page, func(scan func(...any) error) (site.Site, []any, error) {
		st, err := scanSite(scan)
		return st, []any{Micros(st.CreatedAt), st.ID}, err
	})
}

func (t siteTx) CountSiteSpaces(ctx context.Context, siteIDs []string) (map[string]int, error) {
	out := map[string]int{}
	if len(siteIDs) == 0 {
		return out, nil
	}
	rows, err := t.q.Query(ctx, `SELECT ss.site_id, COUNT(*) FROM site_spaces ss JOIN sites st ON st.id = ss.site_id
		JOIN spaces s ON s.id = ss.space_id AND s.organization_id = st.organization_id
		WHERE s.deleted_at IS NULL AND ss.site_id IN (`+placeholders(len(siteIDs))+`) GROUP BY ss.site_id`, stringArgs(siteIDs)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, mapErr(rows.Err())
}

func (t siteTx) Space(ctx context.Context, id string) (space.Space, error) {
	sp, err := scanSpace(t.q.QueryRow(ctx, `SELECT `+spaceColumns+` FROM spaces s WHERE s.id = ?`, id).Scan)
	return sp, siteErr(err)
}
