package integration

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/ids"
)

// FetchRequest is the HTTP request a caller made to an integration's or installation's
// urls.publicEndpoint, as the fetch event hands it to the script.
type FetchRequest struct {
	Method  string
	URL     string // absolute, as the caller addressed it
	Headers http.Header
}

// fetchHeadersDropped leaves out the headers that say how the request reached docsd rather than
// what its sender said: the script sees what an integration behind GitBook would.
var fetchHeadersDropped = map[string]bool{"Connection": true, "Keep-Alive": true, "Te": true, "Trailer": true,
	"Transfer-Encoding": true, "Upgrade": true, "Proxy-Authorization": true, "Proxy-Connection": true}

// FetchEvent returns the fetch event for a request to the public endpoint of integration name
// (installationID "") or of one of its installations, with what the script's environment
// needs (secrets, signing secrets and, for an installation, a fresh installation token). The
// endpoint is public, as GitBook's is: OAuth callbacks, incoming webhooks and slash commands
// arrive without docsd credentials and the script checks what it must (signatures, state). An
// unknown integration or installation, or an installation of another integration, is 404; an
// integration without a script is 503. The event is answered synchronously and not kept in
// the integration's events.
//
// On a space or site installation's endpoint (kind and targetID set, with installationID), the
// event carries spaceId or siteId, and the environment that space or site installation with
// its signing secret; a target the installation is not on is 404.
func (s *Service) FetchEvent(ctx context.Context, name, installationID string, kind Kind, targetID string, req FetchRequest) (Delivery, error) {
	var d Delivery
	now := s.clock.Now()
	err := s.store.Write(ctx, now, func(tx Tx) error {
		it, err := tx.Integration(ctx, name)
		if errors.Is(err, ErrNotFound) {
			return apperr.NotFoundf("integration %s: not found", name)
		} else if err != nil {
			return err
		}
		d = Delivery{Integration: it, Attempt: 1}
		if err := s.openSecrets(&d); err != nil {
			return err
		}
		ev := Event{ID: ids.New(), Integration: it.Name, OrgID: it.OrgID, Type: "fetch", CreatedAt: now}
		headers := map[string]string{}
		for k, v := range req.Headers {
			if !fetchHeadersDropped[http.CanonicalHeaderKey(k)] {
				headers[strings.ToLower(k)] = strings.Join(v, ", ")
			}
		}
		payload := map[string]any{"type": ev.Type, "eventId": ev.ID,
			"request": map[string]any{"url": req.URL, "method": req.Method, "headers": headers}}
		if installationID != "" {
			in, err := tx.Installation(ctx, installationID)
			if errors.Is(err, ErrNotFound) || (err == nil && in.Integration != it.Name) {
				return apperr.NotFoundf("installation %s of integration %s: not found", installationID, name)
			} else if err != nil {
				return err
			}
			if err := s.withInstallation(ctx, tx, &d, in, now); err != nil {
				return err
			}
			ev.InstallationID, ev.OrgID = in.ID, in.OrgID
			payload["installationId"] = in.ID
			if targetID != "" {
				ci, err := tx.ContentInstallation(ctx, in.ID, kind, targetID)
				if errors.Is(err, ErrNotFound) {
					return apperr.NotFoundf("%s %s: the installation %s is not on it", kind, targetID, in.ID)
				} else if err != nil {
					return err
				}
				d.Content = &ci
				d.SigningContent = ContentSigningSecret(d.SigningInstallation, ci)
				payload[string(kind)+"Id"] = targetID
			}
		}
		// In development mode the event goes to the tunnel, as every event does.
		if d.Tunnel = it.tunnel(ev.OrgID, now); d.Tunnel == "" && it.Script == "" {
			return apperr.New(apperr.Unavailable, "integration %s has no script to answer its public endpoint", name)
		}
		if ev.Payload, err = json.Marshal(payload); err != nil {
			return err
		}
		d.Event = ev
		return nil
	})
	return d, err
}

// openSecrets fills d's integration secrets and signing secret from d.Integration.
func (s *Service) openSecrets(d *Delivery) error {
	var err error
	if d.SigningIntegration, err = s.seal.Open(d.Integration.SealedSigning); err != nil {
		return err
	}
	secrets, err := s.seal.Open(d.Integration.SealedSecrets)
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(secrets), &d.Secrets)
}
