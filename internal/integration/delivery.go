package integration

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"docsd/internal/auth"
)

// Delivery is what delivering one event needs, read by Service.Delivery.
type Delivery struct {
	Integration  Integration
	Installation *Installation        // nil for an event of no installation
	Content      *ContentInstallation // the space or site installation the event is about, if any
	Event        Event
	Tunnel       string // the development tunnel to send it to; "" to run the integration's script
	Attempt      int    // this attempt's number, from 1
	Secrets      map[string]string
	// SigningSecrets are the integration's, the installation's and the space or site
	// installation's (derived from the installation's, so nothing more is stored).
	SigningIntegration, SigningInstallation, SigningContent string
	// APIToken is a fresh installation token for the script to call the API with ("" without an
	// installation).
	APIToken string
}

// DeliveryJobPayload identifies the event a delivery job sends.
type DeliveryJobPayload struct {
	Integration string `json:"integration"`
	Event       string `json:"event"`
}

// Delivery prepares an attempt to deliver an event; ok is false when the event or its
// integration is gone (nothing to do). The attempt is noted in the event's trace.
func (s *Service) Delivery(ctx context.Context, p DeliveryJobPayload) (d Delivery, ok bool, err error) {
	now := s.clock.Now()
	err = s.store.Write(ctx, now, func(tx Tx) error {
		ev, err := tx.Event(ctx, p.Integration, p.Event)
		if errors.Is(err, ErrNotFound) {
			return nil
		} else if err != nil {
			return err
		}
		it, err := tx.Integration(ctx, p.Integration)
		if errors.Is(err, ErrNotFound) {
			return nil
		} else if err != nil {
			return err
		}
		d = Delivery{Integration: it, Event: ev, Tunnel: it.tunnel(ev.OrgID, now), Attempt: attemptsSinceQueued(ev.Trace) + 1}
		if d.Tunnel == "" && it.Script == "" {
			// Outside development mode the event goes to the published script; there is none.
			ev.Status = Failed
			ev.Trace = append(ev.Trace, LogEntry{Message: "not delivered: the integration is not in development mode and has no script", Timestamp: now, Level: "error"})
			return tx.UpdateEvent(ctx, ev)
		}
		ok = true
		if err := s.openSecrets(&d); err != nil {
			return err
		}
		if ev.InstallationID != "" {
			in, err := tx.Installation(ctx, ev.InstallationID)
			if err == nil {
				if err := s.withInstallation(ctx, tx, &d, in, now); err != nil {
					return err
				}
				d.Content = s.contentOf(ctx, tx, in, ev)
				if d.Content != nil {
					d.SigningContent = ContentSigningSecret(d.SigningInstallation, *d.Content)
				}
			} else if !errors.Is(err, ErrNotFound) {
				return err
			}
		}
		msg := fmt.Sprintf("attempt %d: POST %s/v1", d.Attempt, strings.TrimRight(d.Tunnel, "/"))
		if d.Tunnel == "" {
			msg = fmt.Sprintf("attempt %d: run the script of version %d", d.Attempt, it.Version)
		}
		ev.Trace = append(ev.Trace, LogEntry{Message: msg, Timestamp: now, Level: "info"})
		d.Event = ev
		return tx.UpdateEvent(ctx, ev)
	})
	return d, ok, err
}

// RecordTunnelAttempt records a synchronous event (fetch, ui_render, fetch_published_script,
// fetch_visitor_authentication) that development mode sends to the tunnel, pending with its
// attempt in the trace, so that the developer finds it among the integration's events and
// its outcome (RecordOutcome) counts towards DevelopmentMaxFailures like an asynchronous
// event's. The synchronous events a script answers are kept nowhere: a published page's blocks
// and scripts would write on every read.
func (s *Service) RecordTunnelAttempt(ctx context.Context, d Delivery) error {
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		ev := d.Event
		ev.Status = Pending
		ev.Trace = []LogEntry{{Message: fmt.Sprintf("attempt 1: POST %s/v1", strings.TrimRight(d.Tunnel, "/")), Timestamp: now, Level: "info"}}
		_, err := tx.InsertEvent(ctx, ev)
		return err
	})
}

// withInstallation fills d's installation, its signing secret and a fresh installation token
// for the script to call the API with.
func (s *Service) withInstallation(ctx context.Context, tx Tx, d *Delivery, in Installation, now time.Time) error {
	var err error
	d.Installation = &in
	if d.SigningInstallation, err = s.seal.Open(in.SealedSigning); err != nil {
		return err
	}
	tok := auth.NewInstallationToken()
	if err := tx.InsertToken(ctx, auth.HashToken(tok), in.ID, now.Add(InstallationTokenTTL)); err != nil {
		return err
	}
	d.APIToken = tok
	return nil
}

// contentOf finds the space or site installation an event is about, if it still exists.
func (s *Service) contentOf(ctx context.Context, tx Tx, in Installation, ev Event) *ContentInstallation {
	var p struct {
		SpaceID string `json:"spaceId"`
		SiteID  string `json:"siteId"`
	}
	_ = json.Unmarshal(ev.Payload, &p)
	kind, id := SpaceKind, p.SpaceID
	if id == "" {
		kind, id = SiteKind, p.SiteID
	}
	if id == "" {
		return nil
	}
	ci, err := tx.ContentInstallation(ctx, in.ID, kind, id)
	if err != nil {
		return nil
	}
	return &ci
}

// attemptsSinceQueued counts the attempts in a trace since it was last queued (or replayed).
func attemptsSinceQueued(trace []LogEntry) int {
	n := 0
	for _, l := range trace {
		switch {
		case strings.HasPrefix(l.Message, "queued"), l.Message == "replay requested":
			n = 0
		case strings.HasPrefix(l.Message, "attempt "):
			n++
		}
	}
	return n
}

// Outcome is what one attempt came to.
type Outcome struct {
	Success bool
	Final   bool   // no more attempts
	Message string // the answer or the error, for the trace
	Retry   time.Duration
	Logs    []LogEntry // what the script logged and fetched, before Message in the trace
}

// RecordOutcome notes an attempt's outcome in the event's trace and status, and counts the
// development tunnel's failures in a row (which end development mode).
func (s *Service) RecordOutcome(ctx context.Context, d Delivery, o Outcome) error {
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		ev, err := tx.Event(ctx, d.Event.Integration, d.Event.ID)
		if errors.Is(err, ErrNotFound) {
			return nil
		} else if err != nil {
			return err
		}
		level := "info"
		switch {
		case o.Success:
			ev.Status = Success
		case o.Final:
			ev.Status, level = Failed, "error"
		default:
			level = "warn"
		}
		ev.Trace = append(ev.Trace, o.Logs...)
		ev.Trace = append(ev.Trace, LogEntry{Message: o.Message, Timestamp: now, Level: level})
		if !o.Success && !o.Final {
			ev.Trace = append(ev.Trace, LogEntry{Message: fmt.Sprintf("retry after %s", o.Retry.Round(time.Millisecond)), Timestamp: now, Level: "debug"})
		}
		if err := tx.UpdateEvent(ctx, ev); err != nil {
			return err
		}
		it, err := tx.Integration(ctx, ev.Integration)
		if err != nil || d.Tunnel == "" || it.Dev.TunnelURL != d.Tunnel {
			return nil
		}
		dev := it.Dev
		if o.Success {
			dev.Failures = 0
		} else {
			dev.Failures++
		}
		return tx.SetDevelopment(ctx, it.Name, dev)
	})
}

// ContentSigningSecret is a space or site installation's signing secret: an HMAC of its kind
// and target under the installation's secret.
func ContentSigningSecret(installationSecret string, ci ContentInstallation) string {
	m := hmac.New(sha256.New, []byte(installationSecret))
	m.Write([]byte(string(ci.Kind) + ":" + ci.TargetID))
	return hex.EncodeToString(m.Sum(nil))
}
