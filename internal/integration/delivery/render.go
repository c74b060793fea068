package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/integration"
	"docsd/internal/jsrun"
)

// Render runs a ui_render event (integration.Service.RenderEvent) through the integration's
// script and returns its answer, ContentKit output with the script's Cache-Control. A script
// that fails or answers an error is a 502 saying why.
func (d *Deliverer) Render(ctx context.Context, dl integration.Delivery) (*jsrun.Response, error) {
	return d.answer(ctx, dl, nil, purpose{what: "render", accepts: is200})
}

// Fetch runs a fetch event (integration.Service.FetchEvent) through the integration's script
// with the body of the request it stands for (nil for none) and returns the script's answer as
// it is: status, headers and body (at most the engine's response limit). A script that fails
// (throws, reaches a limit, answers nothing) is a 502 saying why.
func (d *Deliverer) Fetch(ctx context.Context, dl integration.Delivery, body []byte) (*jsrun.Response, error) {
	// Every answer is the caller's; one below 500 is the integration doing its job (a 401 to a
	// bad signature), which is what a development tunnel's event is recorded by.
	return d.answer(ctx, dl, body, purpose{what: "answer its public endpoint", accepts: func(status int) bool { return status < 500 }, pass: true})
}

// purpose is what a synchronous event asks of the integration: what, for messages, and the
// statuses of the answers that do it; any other answer is a 502 naming who gave it, unless
// pass hands every answer to the caller as it is (a public endpoint's).
type purpose struct {
	what    string
	accepts func(status int) bool
	pass    bool
}

func is200(status int) bool { return status == http.StatusOK }

// answer runs a synchronous event, one a caller waits on, and says why in a 502 when the
// script fails to do what the purpose asks.
//
// In development mode (dl.Tunnel set) the event goes to the tunnel instead, as every event
// does, and its answer is returned the same way; a tunnel that fails or does not answer within
// the tunnel client's timeout is a 502. Such an event is recorded among the integration's
// events with its outcome, which counts towards the failures that end development mode.
func (d *Deliverer) answer(ctx context.Context, dl integration.Delivery, fetchBody []byte, p purpose) (*jsrun.Response, error) {
	var res *jsrun.Response
	var err error
	who := "the script"
	if dl.Tunnel != "" {
		who = "its development tunnel"
		res, err = d.answerFromTunnel(ctx, dl, fetchBody, p)
	} else {
		res, err = d.answerFromScript(ctx, dl, fetchBody, p)
	}
	if err == nil && !p.pass && !p.accepts(res.Status) {
		return nil, apperr.New(apperr.BadGateway, "integration %s: %s answered %d: %s", dl.Integration.Name, who, res.Status, snippet(res.Body))
	}
	return res, err
}

// answerFromScript runs a synchronous event in the integration's script.
func (d *Deliverer) answerFromScript(ctx context.Context, dl integration.Delivery, fetchBody []byte, p purpose) (*jsrun.Response, error) {
	env, err := d.environment(ctx, dl)
	if err != nil {
		return nil, err
	}
	res, _, err := d.invoke(ctx, dl.Integration.Script, json.RawMessage(dl.Event.Payload), env, fetchBody)
	var ie *jsrun.InvokeError
	if errors.As(err, &ie) {
		return nil, apperr.New(apperr.BadGateway, "integration %s: the script failed to %s: %s", dl.Integration.Name, p.what, ie.Message)
	}
	return res, err
}

// TunnelAnswerBytes bounds what a development tunnel's answer to a synchronous event may hold.
const TunnelAnswerBytes = 5 << 20

// answerFromTunnel sends a synchronous event to the development tunnel and returns its answer,
// recording the event and its outcome.
func (d *Deliverer) answerFromTunnel(ctx context.Context, dl integration.Delivery, fetchBody []byte, p purpose) (*jsrun.Response, error) {
	// The record outlives a caller who leaves: the tunnel got the event all the same.
	rec := context.WithoutCancel(ctx)
	if err := d.Integrations.RecordTunnelAttempt(rec, dl); err != nil {
		return nil, err
	}
	res, err := d.fromTunnel(ctx, dl, fetchBody, p)
	o := integration.Outcome{Final: true}
	var ae *apperr.Error
	switch {
	case errors.As(err, &ae):
		o.Message = "error: " + ae.Message
	case err != nil:
		return nil, err
	case p.accepts(res.Status):
		o.Success, o.Final, o.Message = true, false, fmt.Sprintf("answer %d: delivered", res.Status)
	default:
		o.Message = fmt.Sprintf("answer %d: %s", res.Status, snippet(res.Body))
	}
	if rerr := d.Integrations.RecordOutcome(rec, dl, o); rerr != nil {
		return nil, rerr
	}
	return res, err
}

// fromTunnel posts a synchronous event to the development tunnel and reads its answer.
func (d *Deliverer) fromTunnel(ctx context.Context, dl integration.Delivery, fetchBody []byte, p purpose) (*jsrun.Response, error) {
	resp, err := d.post(ctx, dl, fetchBody)
	if err != nil {
		return nil, apperr.New(apperr.BadGateway, "integration %s: its development tunnel failed to %s: %v", dl.Integration.Name, p.what, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, TunnelAnswerBytes+1))
	if err != nil {
		return nil, apperr.New(apperr.BadGateway, "integration %s: its development tunnel failed to %s: %v", dl.Integration.Name, p.what, err)
	}
	if len(body) > TunnelAnswerBytes {
		return nil, apperr.New(apperr.BadGateway, "integration %s: its development tunnel answered more than %d bytes", dl.Integration.Name, TunnelAnswerBytes)
	}
	return &jsrun.Response{Status: resp.StatusCode, Headers: resp.Header, Body: body}, nil
}
