// Package delivery sends integration events where they go, as the integration runtime expects
// them (POST <base>/v1 with a multipart/form-data body of `event`, `environment`, an
// IntegrationEnvironment, and `fetch-body`): to the integration's own script in the embedded
// engine, or in development mode to its tunnel, signed with HMAC-SHA256 over the timestamp and
// the body. It runs as a durable job per event, at least once: a tunnel is retried with backoff
// on network errors, 5xx and 429 (honouring Retry-After) and given up after MaxAttempts; what
// a script answers is final.
package delivery

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"

	"docsd/internal/clock"
	"docsd/internal/fetch"
	"docsd/internal/integration"
	"docsd/internal/jobs"
	"docsd/internal/org"
	"docsd/internal/wire"
)

// Limits of delivery.
const (
	MaxAttempts  = 6
	FirstBackoff = time.Second
	MaxBackoff   = 5 * time.Minute
	// SignatureHeader carries "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">", keyed
	// with the installation's signing secret (the integration's for events of no installation).
	SignatureHeader = "X-GitBook-Signature"
)

// Orgs looks up the owner organization shown in the environment's integration.
type Orgs interface {
	Lookup(ctx context.Context, idOrSubdomain string) (org.Organization, error)
}

// Deliverer delivers events. BaseURL must be set before jobs run (the API's address).
type Deliverer struct {
	Integrations *integration.Service
	Orgs         Orgs
	Client       *fetch.Client // requests to development tunnels
	Clock        clock.Clock
	BaseURL      string
	// Scripts runs events in the integrations' own scripts outside development mode; its
	// engine serves the scripts' requests to BaseURL in the process (jsrun.Runner.WithLocal).
	Scripts *Scripts

	siteScripts siteScripts
	blocks      blockAnswers
}

// Register adds the delivery job to q.
func (d *Deliverer) Register(q *jobs.Queue) {
	// The job's own timeout outlasts one attempt (the tunnel client's timeout, or the script's
	// time limit), so an attempt that times out records its outcome before the job stops.
	timeout := time.Minute
	if d.Client != nil {
		timeout = max(timeout, 2*d.Client.Options().Timeout)
	}
	q.Register(integration.DeliveryJob, d.Handle, jobs.MaxAttempts(MaxAttempts), jobs.Backoff(FirstBackoff, MaxBackoff),
		jobs.Timeout(timeout), jobs.OnFail(d.onFail))
}

// Handle makes one attempt to deliver the job's event.
func (d *Deliverer) Handle(ctx context.Context, payload json.RawMessage) error {
	var p integration.DeliveryJobPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return jobs.Permanent(err)
	}
	dl, ok, err := d.Integrations.Delivery(ctx, p)
	if err != nil || !ok {
		return err
	}
	if dl.Tunnel == "" {
		o, err := d.runScript(ctx, dl)
		if err != nil {
			return err
		}
		if err := d.Integrations.RecordOutcome(ctx, dl, o); err != nil || o.Success {
			return err
		}
		return jobs.Permanent(errors.New(o.Message))
	}
	status, retryAfter, sendErr := d.send(ctx, dl)
	o := integration.Outcome{}
	switch {
	case sendErr == nil && status >= 200 && status < 300:
		o.Success, o.Message = true, fmt.Sprintf("answer %d: delivered", status)
	case sendErr != nil:
		o.Message = "error: " + sendErr.Error()
	default:
		o.Message = fmt.Sprintf("answer %d", status)
	}
	retryable := sendErr != nil || status == http.StatusTooManyRequests || status >= 500
	o.Final = !o.Success && (!retryable || dl.Attempt >= MaxAttempts)
	if !o.Success && !o.Final {
		o.Retry = max(retryAfter, FirstBackoff<<min(dl.Attempt-1, 20))
		o.Retry = min(o.Retry, MaxBackoff)
	}
	if err := d.Integrations.RecordOutcome(ctx, dl, o); err != nil {
		return err
	}
	switch {
	case o.Success:
		return nil
	case o.Final:
		return jobs.Permanent(errors.New(o.Message))
	case retryAfter > 0:
		return jobs.RetryAfter(errors.New(o.Message), retryAfter)
	}
	return errors.New(o.Message)
}

// onFail notes a job that stopped without recording its outcome (its worker died during the
// last attempt).
func (d *Deliverer) onFail(ctx context.Context, payload []byte, err error) {}

// send posts the event and returns the answer's status and Retry-After.
func (d *Deliverer) send(ctx context.Context, dl integration.Delivery) (int, time.Duration, error) {
	resp, err := d.post(ctx, dl, nil)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, retryAfter(resp.Header.Get("Retry-After"), d.Clock.Now()), nil
}

// post sends the event to the development tunnel as the runtime expects it, signed, with
// fetchBody (nil for none), and returns the tunnel's answer; the caller closes its body.
func (d *Deliverer) post(ctx context.Context, dl integration.Delivery, fetchBody []byte) (*http.Response, error) {
	env, err := d.environment(ctx, dl)
	if err != nil {
		return nil, err
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, f := range []struct {
		name  string
		value []byte
	}{{"event", dl.Event.Payload}, {"environment", env}, {"fetch-body", fetchBody}} {
		if err := mw.WriteField(f.name, string(f.value)); err != nil {
			return nil, err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(dl.Tunnel, "/")+"/v1", bytes.NewReader(body.Bytes()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("User-Agent", "docsd-integrations")
	req.Header.Set("X-GitBook-Event-Id", dl.Event.ID)
	if csp := integration.CSPHeader(dl.Integration.Manifest.CSP); csp != "" {
		req.Header.Set("Content-Security-Policy", csp)
	}
	secret := dl.SigningInstallation
	if secret == "" {
		secret = dl.SigningIntegration
	}
	req.Header.Set(SignatureHeader, Sign(secret, d.Clock.Now(), body.Bytes()))
	return d.Client.Do(req)
}

// Sign is the signature header's value for body sent at t.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts + "."))
	m.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(m.Sum(nil))
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// environment is the IntegrationEnvironment the runtime reads.
func (d *Deliverer) environment(ctx context.Context, dl integration.Delivery) ([]byte, error) {
	urls := wire.URLs{Base: d.BaseURL}
	owner, err := d.Orgs.Lookup(ctx, dl.Integration.OrgID)
	if err != nil {
		return nil, err
	}
	env := map[string]any{
		"apiEndpoint":    d.BaseURL,
		"apiTokens":      map[string]string{"integration": dl.APIToken},
		"integration":    urls.FromIntegration(integration.View{Integration: dl.Integration, Owner: owner}),
		"secrets":        dl.Secrets,
		"signingSecrets": map[string]string{"integration": dl.SigningIntegration},
	}
	if dl.Installation != nil {
		env["apiTokens"] = map[string]string{"integration": dl.APIToken, "installation": dl.APIToken}
		env["installation"] = urls.FromInstallation(*dl.Installation)
		env["signingSecrets"] = map[string]string{"integration": dl.SigningIntegration, "installation": dl.SigningInstallation}
	}
	if ci := dl.Content; ci != nil {
		w := urls.FromContentInstallation(*ci, ci.TargetID)
		key := "siteInstallation"
		if ci.Kind == integration.SpaceKind {
			key = "spaceInstallation"
		}
		env[key] = w
		env["signingSecrets"] = map[string]string{"integration": dl.SigningIntegration,
			"installation": dl.SigningInstallation, key: dl.SigningContent}
	}
	return json.Marshal(env)
}
