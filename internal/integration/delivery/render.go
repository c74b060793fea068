package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	"docsd/internal/apperr"
	"docsd/internal/integration"
	"docsd/internal/jsrun"
)

// Render runs a ui_render event (integration.Service.RenderEvent) through the integration's
// script and returns its answer, ContentKit output with the script's Cache-Control. A script
// that fails or answers an error is a 502 saying why.
func (d *Deliverer) Render(ctx context.Context, dl integration.Delivery) (*jsrun.Response, error) {
	res, err := d.answer(ctx, dl, nil, "render")
	if err == nil && res.Status != 200 {
		return nil, apperr.New(apperr.BadGateway, "integration %s: the script answered %d: %s", dl.Integration.Name, res.Status, snippet(res.Body))
	}
	return res, err
}

// Fetch runs a fetch event (integration.Service.FetchEvent) through the integration's script
// with the body of the request it stands for (nil for none) and returns the script's answer as
// it is: status, headers and body (at most the engine's response limit). A script that fails
// (throws, reaches a limit, answers nothing) is a 502 saying why.
func (d *Deliverer) Fetch(ctx context.Context, dl integration.Delivery, body []byte) (*jsrun.Response, error) {
	return d.answer(ctx, dl, body, "answer its public endpoint")
}

// answer runs a synchronous event, one a caller waits on, and says why in a 502 when the
// script fails to do what (the purpose) asked.
//
// In development mode (dl.Tunnel set) the event goes to the tunnel instead, as every event
// does, and its answer is returned the same way; a tunnel that fails or does not answer within
// the tunnel client's timeout is a 502.
func (d *Deliverer) answer(ctx context.Context, dl integration.Delivery, fetchBody []byte, what string) (*jsrun.Response, error) {
	if dl.Tunnel != "" {
		return d.answerFromTunnel(ctx, dl, fetchBody, what)
	}
	env, err := d.environment(ctx, dl)
	if err != nil {
		return nil, err
	}
	res, _, err := d.invoke(ctx, dl.Integration.Script, json.RawMessage(dl.Event.Payload), env, fetchBody)
	var ie *jsrun.InvokeError
	if errors.As(err, &ie) {
		return nil, apperr.New(apperr.BadGateway, "integration %s: the script failed to %s: %s", dl.Integration.Name, what, ie.Message)
	}
	return res, err
}

// TunnelAnswerBytes bounds what a development tunnel's answer to a synchronous event may hold.
const TunnelAnswerBytes = 5 << 20

// answerFromTunnel sends a synchronous event to the development tunnel and returns its answer.
func (d *Deliverer) answerFromTunnel(ctx context.Context, dl integration.Delivery, fetchBody []byte, what string) (*jsrun.Response, error) {
	resp, err := d.post(ctx, dl, fetchBody)
	if err != nil {
		return nil, apperr.New(apperr.BadGateway, "integration %s: its development tunnel failed to %s: %v", dl.Integration.Name, what, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, TunnelAnswerBytes+1))
	if err != nil {
		return nil, apperr.New(apperr.BadGateway, "integration %s: its development tunnel failed to %s: %v", dl.Integration.Name, what, err)
	}
	if len(body) > TunnelAnswerBytes {
		return nil, apperr.New(apperr.BadGateway, "integration %s: its development tunnel answered more than %d bytes", dl.Integration.Name, TunnelAnswerBytes)
	}
	return &jsrun.Response{Status: resp.StatusCode, Headers: resp.Header, Body: body}, nil
}
