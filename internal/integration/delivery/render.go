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
	env, err := d.environment(ctx, dl)
	if err != nil {
		return nil, err
	}
	res, _, err := d.invoke(ctx, dl.Integration.Script, json.RawMessage(dl.Event.Payload), env, nil)
	var ie *jsrun.InvokeError
	switch {
	case errors.As(err, &ie):
		return nil, apperr.New(apperr.BadGateway, "integration %s: the script failed to render: %s", dl.Integration.Name, ie.Message)
	case err != nil:
		return nil, err
	case res.Status != 200:
		return nil, apperr.New(apperr.BadGateway, "integration %s: the script answered %d: %s", dl.Integration.Name, res.Status, snippet(res.Body))
	}
	return res, nil
}
