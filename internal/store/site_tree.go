package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"docsd/internal/site"
)

// scanRows runs a query and scans every row with scan.
func scanRows[T any](ctx context.Context, q *Q, scan func(func(...any) error) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanAll(rows, scan)
}

// scanAll scans every row of rows (which the caller closes).
func scanAll[T any](rows *Rows, scan func(func(...any) error) (T, error)) ([]T, error) {
	var out []T
	for rows.Next() {
		v, err := scan(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, mapErr(rows.Err())
}

// column runs a query of one column and returns its values.
func column[T any](ctx context.Context, q *Q, query string, args ...any) ([]T, error) {
	return scanRows(ctx, q, func(scan func(...any) error) (T, error) {
		var v T
		err := scan(&v)
		return v, err
	}, query, args...)
}

func (t siteTx) Tree(ctx context.Context, siteID string) (site.Tree, error) {
	var tr site.Tree
	var err error
	if tr.Groups, err = scanRows(ctx, t.q, scanGroup, `SELECT g.id, g.site_id, g.parent_id, g.position, g.title,
		g.icon, g.created_at FROM site_section_groups g WHERE g.site_id = ?`, siteID); err != nil {
		return tr, err
	}
	if tr.Sections, err = scanRows(ctx, t.q, scanSection, `SELECT sec.id, sec.site_id, sec.group_id, sec.position,
		sec.title, sec.description, sec.path, sec.condition, sec.icon, sec.is_default, sec.created_at
		FROM site_sections sec WHERE sec.site_id = ?`, siteID); err != nil {
		return tr, err
	}
	tr.SiteSpaces, err = scanRows(ctx, t.q, scanSiteSpace, `SELECT ss.id, ss.site_id, ss.section_id, ss.space_id,
		ss.position, ss.path, ss.condition, ss.is_default, ss.customization, ss.created_at, `+spaceColumns+`
		FROM site_spaces ss JOIN sites st ON st.id = ss.site_id
		JOIN spaces s ON s.id = ss.space_id AND s.organization_id = st.organization_id
		WHERE ss.site_id = ? AND s.deleted_at IS NULL`, siteID)
	return tr, err
}

func scanGroup(scan func(...any) error) (site.SectionGroup, error) {
	var g site.SectionGroup
	var parent, icon sql.NullString
	var created int64
	err := scan(&g.ID, &g.SiteID, &parent, &g.Position, &g.Title, &icon, &created)
	g.ParentID, g.Icon, g.CreatedAt = parent.String, icon.String, FromMicros(created)
	return g, err
}

func scanSection(scan func(...any) error) (site.Section, error) {
	var s site.Section
	var group, desc, cond, icon sql.NullString
	var created int64
	err := scan(&s.ID, &s.SiteID, &group, &s.Position, &s.Title, &desc, &s.Path, &cond, &icon, &s.Default, &created)
	s.GroupID, s.Description, s.Condition, s.Icon = group.String, desc.String, StrPtr(cond), icon.String
	s.CreatedAt = FromMicros(created)
	return s, err
}

func scanSiteSpace(scan func(...any) error) (site.SiteSpace, error) {
	var s site.SiteSpace
	var section, cond, custom sql.NullString
	var created int64
	// The space's columns follow the site space's in the row: scanSpace reads its own and
	// this prepends the site space's destinations.
	sp, err := scanSpace(func(spaceDest ...any) error {
		return scan(append([]any{&s.ID, &s.SiteID, &section, &s.SpaceID, &s.Position, &s.Path, &cond, &s.Default,
			&custom, &created}, spaceDest...)...)
	})
	s.Space, s.SectionID, s.Condition, s.Customization = sp, section.String, StrPtr(cond), rawOf(custom)
	s.CreatedAt = FromMicros(created)
	return s, err
}

func (t siteTx) InsertSection(ctx context.Context, s site.Section) error {
	_, err := t.q.Exec(ctx, `INSERT INTO site_sections (id, site_id, group_id, position, title, description, path,
		condition, icon, is_default, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.SiteID, nullIfEmpty(s.GroupID), s.Position, s.Title, nullIfEmpty(s.Description), s.Path,
		NullStr(s.Condition), nullIfEmpty(s.Icon), s.Default, Micros(s.CreatedAt))
	if err != nil {
		return siteErr(err)
	}
	return t.siteChanged(ctx, "", s.SiteID)
}

func (t siteTx) UpdateSection(ctx context.Context, s site.Section) error {
	_, err := t.q.Exec(ctx, `UPDATE site_sections SET group_id = ?, position = ?, title = ?, description = ?,
		path = ?, condition = ?, icon = ?, is_default = ? WHERE id = ?`,
		nullIfEmpty(s.GroupID), s.Position, s.Title, nullIfEmpty(s.Description), s.Path, NullStr(s.Condition),
		nullIfEmpty(s.Icon), s.Default, s.ID)
	if err != nil {
		return siteErr(err)
	}
	return t.siteChangedVia(ctx, "site_sections", s.ID)
}

func (t siteTx) DeleteSection(ctx context.Context, id string) error {
	if err := t.siteChangedVia(ctx, "site_sections", id); err != nil {
		return err
	}
	_, err := t.q.Exec(ctx, `DELETE FROM site_sections WHERE id = ?`, id)
	return err
}

func (t siteTx) InsertGroup(ctx context.Context, g site.SectionGroup) error {
	_, err := t.q.Exec(ctx, `INSERT INTO site_section_groups (id, site_id, parent_id, position, title, icon, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.SiteID, nullIfEmpty(g.ParentID), g.Position, g.Title, nullIfEmpty(g.Icon), Micros(g.CreatedAt))
	if err != nil {
		return siteErr(err)
	}
	return t.siteChanged(ctx, "", g.SiteID)
}

func (t siteTx) UpdateGroup(ctx context.Context, g site.SectionGroup) error {
	_, err := t.q.Exec(ctx, `UPDATE site_section_groups SET parent_id = ?, position = ?, title = ?, icon = ? WHERE id = ?`,
		nullIfEmpty(g.ParentID), g.Position, g.Title, nullIfEmpty(g.Icon), g.ID)
	if err != nil {
		return siteErr(err)
	}
	return t.siteChangedVia(ctx, "site_section_groups", g.ID)
}

func (t siteTx) DeleteGroup(ctx context.Context, id string) error {
	if err := t.siteChangedVia(ctx, "site_section_groups", id); err != nil {
		return err
	}
	_, err := t.q.Exec(ctx, `DELETE FROM site_section_groups WHERE id = ?`, id)
	return err
}

func (t siteTx) InsertSiteSpace(ctx context.Context, s site.SiteSpace) error {
	_, err := t.q.Exec(ctx, `INSERT INTO site_spaces (id, site_id, section_id, space_id, position, path, condition,
		is_default, customization, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.SiteID, nullIfEmpty(s.SectionID), s.SpaceID, s.Position, s.Path, NullStr(s.Condition), s.Default,
		rawOrNil(s.Customization), Micros(s.CreatedAt))
	if err != nil {
		return siteErr(err)
	}
	return t.siteChanged(ctx, "", s.SiteID)
}

func (t siteTx) UpdateSiteSpace(ctx context.Context, s site.SiteSpace) error {
	_, err := t.q.Exec(ctx, `UPDATE site_spaces SET section_id = ?, space_id = ?, position = ?, path = ?,
		condition = ?, is_default = ?, customization = ? WHERE id = ?`,
		nullIfEmpty(s.SectionID), s.SpaceID, s.Position, s.Path, NullStr(s.Condition), s.Default,
		rawOrNil(s.Customization), s.ID)
	if err != nil {
		return siteErr(err)
	}
	return t.siteChangedVia(ctx, "site_spaces", s.ID)
}

func (t siteTx) DeleteSiteSpace(ctx context.Context, id string) error {
	if err := t.siteChangedVia(ctx, "site_spaces", id); err != nil {
		return err
	}
	_, err := t.q.Exec(ctx, `DELETE FROM site_spaces WHERE id = ?`, id)
	return err
}

// PublishedSiteSpaces implements site.Tx. It reads site_spaces by space (index
// site_spaces_space), so its cost follows the number of places the spaces are published.
func (t siteTx) PublishedSiteSpaces(ctx context.Context, spaceIDs []string) ([]site.PublishedSiteSpace, error) {
	query, args := t.publishedSiteSpaces(spaceIDs)
	return scanRows(ctx, t.q, scanPublishedSiteSpace, query, args...)
}

// PublishedSiteSpacesLater implements site.Tx, with Q.QueryLater.
func (t siteTx) PublishedSiteSpacesLater(ctx context.Context, spaceIDs []string, done func([]site.PublishedSiteSpace)) error {
	query, args := t.publishedSiteSpaces(spaceIDs)
	return t.q.QueryLater(ctx, query, args, func(rows *Rows) error {
		out, err := scanAll(rows, scanPublishedSiteSpace)
		if err == nil {
			done(out)
		}
		return err
	})
}

func (t siteTx) publishedSiteSpaces(spaceIDs []string) (string, []any) {
	in, ids := oneOf(t.q, "ss.space_id", spaceIDs)
	return `SELECT ss.space_id, ss.path, ss.is_default,
		sec.id, sec.path, sec.is_default, st.id, st.organization_id, st.visibility, st.basename, st.hostname,
		st.created_at
		FROM site_spaces ss JOIN sites st ON st.id = ss.site_id
		JOIN spaces s ON s.id = ss.space_id AND s.organization_id = st.organization_id
		LEFT JOIN site_sections sec ON sec.id = ss.section_id
		WHERE ` + in + ` AND st.published = ? AND s.deleted_at IS NULL`, []any{ids, true}
}

// SitesOfSpaces implements site.Tx, by space (index site_spaces_space).
func (t siteTx) SitesOfSpaces(ctx context.Context, spaceIDs []string) (map[string][]string, error) {
	in, ids := oneOf(t.q, "ss.space_id", spaceIDs)
	type pair struct{ space, site string }
	rows, err := scanRows(ctx, t.q, func(scan func(...any) error) (pair, error) {
		var p pair
		err := scan(&p.space, &p.site)
		return p, err
	}, `SELECT DISTINCT ss.space_id, ss.site_id FROM site_spaces ss WHERE `+in, ids)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, p := range rows {
		out[p.space] = append(out[p.space], p.site)
	}
	return out, nil
}

// oneOf is the condition that column is one of values, and its one argument (a JSON array),
// however many values there are. A page of spaces can be a thousand: with a placeholder per
// value (inList), PostgreSQL plans each call afresh at a cost that grows with the list, and
// after five calls turns to a generic plan that is slower still (5 ms, then 80 ms, for 100
// spaces padded to 512 values).
func oneOf(q *Q, column string, values []string) (string, any) {
	if len(values) == 1 {
		// One space's answer, the common case: an equality uses the column's index directly
		// (on SQLite, the JSON table function costs more than the rest of the query).
		return column + ` = ?`, values[0]
	}
	list, _ := json.Marshal(values) // strings only
	if q.Engine() == Postgres {
		return column + ` IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb)))`, string(list)
	}
	return column + ` IN (SELECT value FROM json_each(?))`, string(list)
}

func scanPublishedSiteSpace(scan func(...any) error) (site.PublishedSiteSpace, error) {
	var p site.PublishedSiteSpace
	var sectionID, sectionPath, hostname sql.NullString
	var sectionDefault sql.NullBool
	var created int64
	st := &p.Site
	st.Published = true
	err := scan(&p.SiteSpace.SpaceID, &p.SiteSpace.Path, &p.SiteSpace.Default, &sectionID, &sectionPath, &sectionDefault,
		&st.ID, &st.OrganizationID, &st.Visibility, &st.Basename, &hostname, &created)
	st.Hostname, st.CreatedAt, p.SiteSpace.SiteID = hostname.String, FromMicros(created), st.ID
	if sectionID.Valid {
		p.Section = &site.Section{ID: sectionID.String, SiteID: st.ID, Path: sectionPath.String, Default: sectionDefault.Bool}
		p.SiteSpace.SectionID = sectionID.String
	}
	return p, err
}
