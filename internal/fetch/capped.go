package fetch

import (
	"fmt"
	"io"
	"net/http"
)

// cappedTransport stops every response body at max bytes. It sits in the transport rather than
// in Get so that libraries given HTTPClient (go-git) are held to the same cap.
// It also checks each request's URL (scheme, literal addresses) for the same reason.
type cappedTransport struct {
	next  http.RoundTripper
	max   int64
	check func(*http.Request) error
}

func (t *cappedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.check != nil {
		if err := t.check(req); err != nil {
			if req.Body != nil {
				req.Body.Close()
			}
			return nil, err
		}
	}
	res, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if res.ContentLength > t.max {
		res.Body.Close()
		return nil, tooLarge(req.URL.Host, t.max)
	}
	res.Body = &cappedBody{rc: res.Body, left: t.max, host: req.URL.Host, max: t.max}
	return res, nil
}

// cappedBody passes through up to max bytes, then fails with ErrTooLarge if more follow.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
	host string
	max  int64
	err  error
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	// Read one byte past the cap, so a body of exactly max bytes still ends cleanly.
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	if int64(n) > b.left {
		n, b.left = int(b.left), 0
		b.err = tooLarge(b.host, b.max)
		return n, b.err
	}
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

func tooLarge(host string, max int64) *Error {
	return newError(ErrTooLarge, host, "the response is larger than the limit of %s", ByteSize(max))
}

// ByteSize names a limit the way an operator sets it: "10 MiB (10485760 bytes)".
func ByteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB (%d bytes)", n>>30, n)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB (%d bytes)", n>>20, n)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB (%d bytes)", n>>10, n)
	}
	return fmt.Sprintf("%d bytes", n)
}
