package delivery

import (
	"context"
	"encoding/json"
	"errors"

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
func (d *Deliverer) answer(ctx context.Context, dl integration.Delivery, fetchBody []byte, what string) (*jsrun.Response, error) {
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
