package crashtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// client speaks to docsd as a user's program would.
type client struct {
	base, token string
	http        *http.Client
}

// statusError is an answer with an unexpected status: the server answered, so the write
// was refused rather than cut off by a kill.
type statusError struct {
	method, path string
	status       int
	body         string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%s %s: %d: %.300s", e.method, e.path, e.status, e.body)
}

func newClient(base, token string) *client {
	return &client{base: base, token: token, http: &http.Client{Timeout: 30 * time.Second}}
}

// call sends a request and returns the answer's status and body; a status other than want
// is a *statusError.
func (c *client) call(ctx context.Context, method, path, contentType string, body []byte, want int) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != want {
		return b, &statusError{method, path, resp.StatusCode, string(b)}
	}
	return b, nil
}

// send is call with a JSON body, decoding the answer into out (nil to drop it).
func (c *client) send(ctx context.Context, method, path string, in any, want int, out any) error {
	var body []byte
	ct := ""
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
		ct = "application/json"
	}
	b, err := c.call(ctx, method, path, ct, body, want)
	if err != nil {
		return err
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}
