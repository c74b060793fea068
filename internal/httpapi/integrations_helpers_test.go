package httpapi_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"testing"

	"docsd/internal/apitest"
)

// pngBase64 is a w×h PNG image in base64, as publishers send icons.
func pngBase64(t testing.TB, w, h int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, 0, color.RGBA{R: uint8(x), A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// integrationBody is a valid publication for org, with fields overridden by more.
func integrationBody(org string, more map[string]any) map[string]any {
	b := map[string]any{
		"organization": org, "title": "Acme Analytics", "description": "Counts visits",
		"script": "export default { fetch() { return new Response('ok') } }",
		"scopes": []string{"space:content:read", "space:metadata:read"}, "visibility": "public",
		"categories": []string{"analytics"},
		"blocks":     []map[string]any{{"id": "chart", "title": "Chart", "urlUnfurl": []string{"https://charts.acme.test/view/*"}}},
		"configurations": map[string]any{
			"account": map[string]any{"properties": map[string]any{
				"apiKey": map[string]any{"type": "string", "title": "API key"},
				"level":  map[string]any{"type": "string", "enum": []string{"low", "high"}},
			}, "required": []string{"apiKey"}},
			"space": map[string]any{"properties": map[string]any{"tracked": map[string]any{"type": "boolean"}}},
		},
		"secrets": map[string]string{"TOKEN": "s3cr3t-value-never-shown"},
	}
	for k, v := range more {
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
	}
	return b
}

// publish publishes an integration named name in the env's organization and returns the answer.
func publish(e *apitest.Env, name string, more map[string]any) *apitest.Resp {
	e.T.Helper()
	return e.Post(e.Admin, "/v1/integrations/"+name, integrationBody(e.Org, more)).Expect(200)
}
