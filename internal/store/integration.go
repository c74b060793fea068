package store

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"time"

	"docsd/internal/integration"
	"docsd/internal/outbox"
	"docsd/internal/paging"
)

// Integrations adapts the DB to integration.Store.
type Integrations struct{ DB *DB }

func (s Integrations) Read() integration.Tx { return integrationTx{s.DB.Read()} }

func (s Integrations) Write(ctx context.Context, now time.Time, fn func(integration.Tx) error) error {
	return s.DB.Write(ctx, now, func(q *Q) error { return fn(integrationTx{q}) })
}

type integrationTx struct{ q *Q }

func integrationErr(err error) error {
	switch {
	case errors.Is(err, ErrNotFound):
		return integration.ErrNotFound
	case errors.Is(err, ErrUniqueViolation):
		return errors.Join(integration.ErrTaken, err)
	}
	return err
}

func (t integrationTx) Now() time.Time { return t.q.Now() }

const integrationColumns = `name, org_id, version, runtime, visibility, target, manifest, script, sealed_secrets,
	sealed_signing, dev_tunnel, dev_all, dev_expires_at, dev_failures, created_at, updated_at`

func scanIntegration(scan func(...any) error) (integration.Integration, error) {
	var it integration.Integration
	var manifest string
	var devExp, created, updated int64
	err := scan(&it.Name, &it.OrgID, &it.Version, &it.Runtime, &it.Visibility, &it.Target, &manifest, &it.Script,
		&it.SealedSecrets, &it.SealedSigning, &it.Dev.TunnelURL, &it.Dev.All, &devExp, &it.Dev.Failures, &created, &updated)
	if err != nil {
		return it, integrationErr(err)
	}
	if err := json.Unmarshal([]byte(manifest), &it.Manifest); err != nil {
		return it, err
	}
	it.Dev.ExpiresAt, it.CreatedAt, it.UpdatedAt = FromMicros(devExp), FromMicros(created), FromMicros(updated)
	return it, nil
}

func (t integrationTx) Integration(ctx context.Context, name string) (integration.Integration, error) {
	return scanIntegration(t.q.QueryRow(ctx, `SELECT `+integrationColumns+` FROM integrations WHERE name = ?`, name).Scan)
}

func (t integrationTx) Integrations(ctx context.Context) ([]integration.Integration, error) {
	rows, err := t.q.Query(ctx, `SELECT `+integrationColumns+` FROM integrations ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []integration.Integration
	for rows.Next() {
		it, err := scanIntegration(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

func (t integrationTx) SaveIntegration(ctx context.Context, it integration.Integration, images []integration.Image) error {
	// Every organization's sites may show the integration's scripts.
	if err := installationsChanged(t.q, "", it.Name); err != nil {
		return err
	}
	manifest, err := json.Marshal(it.Manifest)
	if err != nil {
		return err
	}
	_, err = t.q.Exec(ctx, `INSERT INTO integrations (`+integrationColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET version = excluded.version, runtime = excluded.runtime,
			visibility = excluded.visibility, target = excluded.target, manifest = excluded.manifest,
			script = excluded.script, sealed_secrets = excluded.sealed_secrets, updated_at = excluded.updated_at`,
		it.Name, it.OrgID, it.Version, it.Runtime, it.Visibility, it.Target, string(manifest), it.Script,
		it.SealedSecrets, it.SealedSigning, it.Dev.TunnelURL, it.Dev.All, Micros(it.Dev.ExpiresAt), it.Dev.Failures,
		Micros(it.CreatedAt), Micros(it.UpdatedAt))
	if err != nil {
		return integrationErr(err)
	}
	for _, img := range images {
		if _, err := t.q.Exec(ctx, `INSERT INTO integration_images (integration_name, id, content_type, data)
			VALUES (?, ?, ?, ?) ON CONFLICT (integration_name, id) DO NOTHING`,
			it.Name, img.ID, img.ContentType, base64.StdEncoding.EncodeToString(img.Data)); err != nil {
			return err
		}
	}
	// Images no version shows any more go.
	keep := []string{}
	if it.Manifest.Icon != "" {
		keep = append(keep, it.Manifest.Icon)
	}
	keep = append(keep, it.Manifest.PreviewImages...)
	rows, err := t.q.Query(ctx, `SELECT id FROM integration_images WHERE integration_name = ?`, it.Name)
	if err != nil {
		return err
	}
	var gone []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		if !contains(keep, id) {
			gone = append(gone, id)
		}
	}
	rows.Close()
	for _, id := range gone {
		if _, err := t.q.Exec(ctx, `DELETE FROM integration_images WHERE integration_name = ? AND id = ?`, it.Name, id); err != nil {
			return err
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (t integrationTx) SetDevelopment(ctx context.Context, name string, d integration.Development) error {
	// Every organization's sites may show the integration's scripts.
	if err := installationsChanged(t.q, "", name); err != nil {
		return err
	}
	_, err := t.q.Exec(ctx, `UPDATE integrations SET dev_tunnel = ?, dev_all = ?, dev_expires_at = ?, dev_failures = ?
		WHERE name = ?`, d.TunnelURL, d.All, Micros(d.ExpiresAt), d.Failures, name)
	return err
}

func (t integrationTx) DeleteIntegration(ctx context.Context, name string) (bool, error) {
	// Every organization's sites may show the integration's scripts.
	if err := installationsChanged(t.q, "", name); err != nil {
		return false, err
	}
	res, err := t.q.Exec(ctx, `DELETE FROM integrations WHERE name = ?`, name)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

func (t integrationTx) Image(ctx context.Context, name, id string) (integration.Image, error) {
	img := integration.Image{ID: id}
	var data string
	err := t.q.QueryRow(ctx, `SELECT content_type, data FROM integration_images WHERE integration_name = ? AND id = ?`,
		name, id).Scan(&img.ContentType, &data)
	if err != nil {
		return img, integrationErr(err)
	}
	img.Data, err = base64.StdEncoding.DecodeString(data)
	return img, err
}

const installationColumns = `id, integration_name, org_id, status, space_selection, site_selection, configuration,
	external_ids, sealed_signing, created_at, updated_at`

func scanInstallation(scan func(...any) error) (integration.Installation, error) {
	var in integration.Installation
	var conf, ext string
	var created, updated int64
	err := scan(&in.ID, &in.Integration, &in.OrgID, &in.Status, &in.SpaceSelection, &in.SiteSelection, &conf, &ext,
		&in.SealedSigning, &created, &updated)
	if err != nil {
		return in, integrationErr(err)
	}
	in.Configuration = json.RawMessage(conf)
	if err := json.Unmarshal([]byte(ext), &in.ExternalIDs); err != nil {
		return in, err
	}
	in.CreatedAt, in.UpdatedAt = FromMicros(created), FromMicros(updated)
	return in, nil
}

func (t integrationTx) Installation(ctx context.Context, id string) (integration.Installation, error) {
	return scanInstallation(t.q.QueryRow(ctx, `SELECT `+installationColumns+` FROM integration_installations WHERE id = ?`, id).Scan)
}

func (t integrationTx) InstallationIn(ctx context.Context, name, orgID string) (integration.Installation, error) {
	return scanInstallation(t.q.QueryRow(ctx, `SELECT `+installationColumns+` FROM integration_installations
		WHERE integration_name = ? AND org_id = ?`, name, orgID).Scan)
}

func (t integrationTx) Installations(ctx context.Context, name, orgID string) ([]integration.Installation, error) {
	rows, err := t.q.Query(ctx, `SELECT `+installationColumns+` FROM integration_installations
		WHERE (? = '' OR integration_name = ?) AND (? = '' OR org_id = ?) ORDER BY id`, name, name, orgID, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []integration.Installation
	for rows.Next() {
		in, err := scanInstallation(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, rows.Err()
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// installationsChanged writes an InstallationChanged event, once per transaction and
// installation: the published site caches drop the pages of the organization's sites (of
// every organization when orgID is "", for a change of the integration itself).
func installationsChanged(q *Q, orgID, subject string) error {
	for _, e := range q.events {
		if e.Kind == outbox.InstallationChanged && e.OrgID == orgID && e.Subject == subject {
			return nil
		}
	}
	return q.Emit(outbox.InstallationChanged, orgID, "", subject, nil)
}

func (t integrationTx) InsertInstallation(ctx context.Context, in integration.Installation) error {
	if err := installationsChanged(t.q, in.OrgID, in.ID); err != nil {
		return err
	}
	_, err := t.q.Exec(ctx, `INSERT INTO integration_installations (`+installationColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, in.ID, in.Integration, in.OrgID, in.Status, in.SpaceSelection,
		in.SiteSelection, string(in.Configuration), jsonText(in.ExternalIDs), in.SealedSigning, Micros(in.CreatedAt),
		Micros(in.UpdatedAt))
	return integrationErr(err)
}

func (t integrationTx) UpdateInstallation(ctx context.Context, in integration.Installation) error {
	if err := installationsChanged(t.q, in.OrgID, in.ID); err != nil {
		return err
	}
	_, err := t.q.Exec(ctx, `UPDATE integration_installations SET status = ?, space_selection = ?, site_selection = ?,
		configuration = ?, external_ids = ?, updated_at = ? WHERE id = ?`, in.Status, in.SpaceSelection, in.SiteSelection,
		string(in.Configuration), jsonText(in.ExternalIDs), Micros(in.UpdatedAt), in.ID)
	return err
}

func (t integrationTx) DeleteInstallation(ctx context.Context, id string) error {
	var orgID string
	if err := t.q.QueryRow(ctx, `SELECT org_id FROM integration_installations WHERE id = ?`, id).Scan(&orgID); err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		return err
	}
	if err := installationsChanged(t.q, orgID, id); err != nil {
		return err
	}
	_, err := t.q.Exec(ctx, `DELETE FROM integration_installations WHERE id = ?`, id)
	return err
}

const contentInstallationColumns = `ci.installation_id, i.integration_name, i.org_id, ci.kind, ci.target_id, ci.status,
	ci.configuration, ci.external_ids, ci.created_at, ci.updated_at`

func scanContentInstallation(scan func(...any) error) (integration.ContentInstallation, error) {
	var ci integration.ContentInstallation
	var conf, ext string
	var created, updated int64
	err := scan(&ci.InstallationID, &ci.Integration, &ci.OrgID, &ci.Kind, &ci.TargetID, &ci.Status, &conf, &ext, &created, &updated)
	if err != nil {
		return ci, integrationErr(err)
	}
	ci.Configuration = json.RawMessage(conf)
	if err := json.Unmarshal([]byte(ext), &ci.ExternalIDs); err != nil {
		return ci, err
	}
	ci.CreatedAt, ci.UpdatedAt = FromMicros(created), FromMicros(updated)
	return ci, nil
}

func (t integrationTx) ContentInstallation(ctx context.Context, installationID string, kind integration.Kind, targetID string) (integration.ContentInstallation, error) {
	return scanContentInstallation(t.q.QueryRow(ctx, `SELECT `+contentInstallationColumns+`
		FROM integration_content_installations ci JOIN integration_installations i ON i.id = ci.installation_id
		WHERE ci.installation_id = ? AND ci.kind = ? AND ci.target_id = ?`, installationID, string(kind), targetID).Scan)
}

func (t integrationTx) contentInstallations(ctx context.Context, where string, args ...any) ([]integration.ContentInstallation, error) {
	rows, err := t.q.Query(ctx, `SELECT `+contentInstallationColumns+`
		FROM integration_content_installations ci JOIN integration_installations i ON i.id = ci.installation_id
		WHERE `+where+` ORDER BY ci.installation_id, ci.kind, ci.target_id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []integration.ContentInstallation
	for rows.Next() {
		ci, err := scanContentInstallation(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, ci)
	}
	return out, rows.Err()
}

func (t integrationTx) ContentInstallations(ctx context.Context, installationID string, kind integration.Kind, targetID string) ([]integration.ContentInstallation, error) {
	return t.contentInstallations(ctx, `(? = '' OR ci.installation_id = ?) AND (? = '' OR ci.kind = ?) AND (? = '' OR ci.target_id = ?)`,
		installationID, installationID, string(kind), string(kind), targetID, targetID)
}

func (t integrationTx) ContentInstallationsOf(ctx context.Context, name string, kind integration.Kind) ([]integration.ContentInstallation, error) {
	return t.contentInstallations(ctx, `i.integration_name = ? AND ci.kind = ?`, name, string(kind))
}

func (t integrationTx) SaveContentInstallation(ctx context.Context, ci integration.ContentInstallation) error {
	if ci.Kind == integration.SiteKind {
		if err := siteChanged(t.q, "", ci.TargetID); err != nil {
			return err
		}
	}
	_, err := t.q.Exec(ctx, `INSERT INTO integration_content_installations (installation_id, kind, target_id, status,
		configuration, external_ids, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (installation_id, kind, target_id) DO UPDATE SET status = excluded.status,
			configuration = excluded.configuration, external_ids = excluded.external_ids, updated_at = excluded.updated_at`,
		ci.InstallationID, string(ci.Kind), ci.TargetID, ci.Status, string(ci.Configuration), jsonText(ci.ExternalIDs),
		Micros(ci.CreatedAt), Micros(ci.UpdatedAt))
	return err
}

func (t integrationTx) DeleteContentInstallation(ctx context.Context, installationID string, kind integration.Kind, targetID string) (bool, error) {
	if kind == integration.SiteKind {
		if err := siteChanged(t.q, "", targetID); err != nil {
			return false, err
		}
	}
	res, err := t.q.Exec(ctx, `DELETE FROM integration_content_installations WHERE installation_id = ? AND kind = ? AND target_id = ?`,
		installationID, string(kind), targetID)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

const integrationEventColumns = `id, integration_name, installation_id, org_id, type, payload, status, trace, created_at`

func scanIntegrationEvent(scan func(...any) error) (integration.Event, []any, error) {
	var ev integration.Event
	var payload, trace string
	var created int64
	err := scan(&ev.ID, &ev.Integration, &ev.InstallationID, &ev.OrgID, &ev.Type, &payload, &ev.Status, &trace, &created)
	if err != nil {
		return ev, nil, integrationErr(err)
	}
	ev.Payload = json.RawMessage(payload)
	if err := json.Unmarshal([]byte(trace), &ev.Trace); err != nil {
		return ev, nil, err
	}
	ev.CreatedAt = FromMicros(created)
	return ev, []any{created, ev.ID}, nil
}

func (t integrationTx) InsertEvent(ctx context.Context, ev integration.Event) (bool, error) {
	res, err := t.q.Exec(ctx, `INSERT INTO integration_events (`+integrationEventColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`,
		ev.ID, ev.Integration, ev.InstallationID, ev.OrgID, ev.Type, string(ev.Payload), ev.Status, jsonText(ev.Trace),
		Micros(ev.CreatedAt))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

func (t integrationTx) SpaceOrg(ctx context.Context, spaceID string) (string, error) {
	var org string
	err := t.q.QueryRow(ctx, `SELECT organization_id FROM spaces WHERE id = ?`, spaceID).Scan(&org)
	return org, integrationErr(err)
}

func (t integrationTx) SiteOrg(ctx context.Context, siteID string) (string, error) {
	var org string
	err := t.q.QueryRow(ctx, `SELECT organization_id FROM sites WHERE id = ?`, siteID).Scan(&org)
	return org, integrationErr(err)
}

func (t integrationTx) UpdateEvent(ctx context.Context, ev integration.Event) error {
	_, err := t.q.Exec(ctx, `UPDATE integration_events SET status = ?, trace = ? WHERE id = ?`, ev.Status, jsonText(ev.Trace), ev.ID)
	return err
}

func (t integrationTx) Event(ctx context.Context, name, id string) (integration.Event, error) {
	ev, _, err := scanIntegrationEvent(t.q.QueryRow(ctx, `SELECT `+integrationEventColumns+` FROM integration_events
		WHERE integration_name = ? AND id = ?`, name, id).Scan)
	return ev, err
}

func (t integrationTx) Events(ctx context.Context, name string, page paging.Request, f integration.EventFilter) (paging.Result[integration.Event], error) {
	where, args := []string{"integration_name = ?"}, []any{name}
	for _, s := range f.ExcludeStatuses {
		where, args = append(where, "status <> ?"), append(args, s)
	}
	for _, typ := range f.ExcludeTypes {
		where, args = append(where, "type <> ?"), append(args, typ)
	}
	for _, typ := range f.ExcludeUninstalled {
		where, args = append(where, "(type <> ? OR installation_id <> '')"), append(args, typ)
	}
	return Page(ctx, t.q, List{Select: integrationEventColumns, From: "FROM integration_events", Where: where,
		Args: args, Order: []string{"created_at", "id"}, Desc: true}, page, scanIntegrationEvent)
}

func (t integrationTx) EnqueueDelivery(ctx context.Context, name, eventID string, runAt time.Time) error {
	return t.q.EnqueueJob(ctx, integration.DeliveryJob, integration.DeliveryJobPayload{Integration: name, Event: eventID}, runAt, "")
}

func (t integrationTx) InsertToken(ctx context.Context, hash, installationID string, expires time.Time) error {
	// Expired tokens go as new ones come, so the table holds only live ones and a few more.
	if _, err := t.q.Exec(ctx, `DELETE FROM integration_tokens WHERE expires_at < ?`, Micros(t.q.Now())); err != nil {
		return err
	}
	_, err := t.q.Exec(ctx, `INSERT INTO integration_tokens (hash, installation_id, expires_at) VALUES (?, ?, ?)`,
		hash, installationID, Micros(expires))
	return err
}

func (t integrationTx) TokenInstallation(ctx context.Context, hash string, now time.Time) (integration.Installation, error) {
	return scanInstallation(t.q.QueryRow(ctx, `SELECT `+prefixed("i.", installationColumns)+`
		FROM integration_tokens tk JOIN integration_installations i ON i.id = tk.installation_id
		WHERE tk.hash = ? AND tk.expires_at > ?`, hash, Micros(now)).Scan)
}

func (t integrationTx) PruneEvents(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := t.q.Exec(ctx, `DELETE FROM integration_events WHERE created_at < ?`, Micros(cutoff))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
