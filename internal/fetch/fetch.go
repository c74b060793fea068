// Package fetch is the one way docsd fetches URLs that users give it (OpenAPI sources, git
// imports, integration tunnels): http and https only, with a timeout, a response size cap,
// checked redirects, and an address policy applied to the resolved address at dial time, so a
// host name that resolves (or re-resolves) to loopback or a private network is refused.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"docsd/internal/config"
)

// Options configure a Client. Zero values take the defaults below.
type Options struct {
	AllowPrivate bool          // reach loopback, private, link-local... targets (operator's choice)
	Timeout      time.Duration // whole request, body included; default 30s
	MaxBytes     int64         // largest response body; default 10 MiB
	MaxRedirects int           // redirects followed; default 5; negative refuses every redirect
	// KeepRedirects answers a redirect as it is, never following it: for a server whose
	// redirect is meant for someone else (a development tunnel's, for the reader it answers).
	KeepRedirects bool
	// WaitTimeout bounds connecting and then waiting for the response's headers, each; default
	// 20s or Timeout if shorter. A server that accepts and never answers holds the request
	// (and a gate slot) this long, not the whole Timeout.
	WaitTimeout time.Duration
	// TestPublic lists addresses treated as public, for tests (see config.FetchTestPublic).
	TestPublic []netip.AddrPort
}

const (
	DefaultTimeout      = 30 * time.Second
	DefaultMaxBytes     = 10 << 20
	DefaultMaxRedirects = 5
	DefaultWaitTimeout  = 20 * time.Second
)

// FromConfig is the operator's address policy with default limits.
func FromConfig(cfg config.Config) Options {
	return Options{AllowPrivate: cfg.FetchAllowPrivate, TestPublic: cfg.FetchTestPublic}
}

// Client fetches user-given URLs under one set of Options. It is safe for concurrent use.
type Client struct {
	opts Options
	http *http.Client
	// exempt lets tests stand a loopback server in for a public one; nil in production.
	exempt func(netip.AddrPort) bool
}

// New builds a Client.
func New(o Options) *Client {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxRedirects == 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	if o.WaitTimeout <= 0 {
		o.WaitTimeout = DefaultWaitTimeout
	}
	o.WaitTimeout = min(o.WaitTimeout, o.Timeout)
	c := &Client{opts: o}
	if len(o.TestPublic) > 0 {
		c.exempt = func(ap netip.AddrPort) bool { return slices.Contains(o.TestPublic, ap) }
	}
	c.http = &http.Client{
		Transport: &cappedTransport{next: c.newTransport(), max: o.MaxBytes, check: func(req *http.Request) error {
			if err := c.checkURL(req.URL); err != nil {
				return err
			}
			return nil
		}},
		CheckRedirect: c.checkRedirect,
		Timeout:       o.Timeout,
	}
	return c
}

// Options are the effective options, defaults filled in.
func (c *Client) Options() Options { return c.opts }

// HTTPClient is the underlying client, for libraries that take an *http.Client (go-git). The
// address policy, redirect checks, timeout and size cap all live inside it; errors reach the
// library wrapped in its own types, so pass them through Classify.
func (c *Client) HTTPClient() *http.Client { return c.http }

// Do sends req after checking its URL. Every error is an *Error (or context.Canceled). The body
// of the response stops with an *Error of kind ErrTooLarge past MaxBytes; the caller closes it.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	if err := c.checkURL(req.URL); err != nil {
		return nil, err
	}
	res, err := c.http.Do(req)
	if err != nil {
		if !errors.As(err, new(*Error)) && req.Context().Err() == context.DeadlineExceeded {
			// The caller's deadline, not our Timeout, ran out: say so rather than name our limit.
			e := newError(ErrTimeout, req.URL.Host, "no complete answer before the deadline")
			e.Err = err
			return nil, e
		}
		return nil, c.Classify(req.URL.Host, err)
	}
	return res, nil
}

// Response is a whole response read into memory.
type Response struct {
	URL         string // after redirects
	StatusCode  int
	ContentType string
	Body        []byte
}

// Get fetches rawURL and reads the whole body under the size cap. A status other than 2xx is an
// *Error of kind ErrStatus.
func (c *Client) Get(ctx context.Context, rawURL string) (*Response, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, invalidURL(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, invalidURL(err)
	}
	res, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	host := res.Request.URL.Host
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, &Error{Kind: ErrStatus, Host: host, StatusCode: res.StatusCode,
			Message: fmt.Sprintf("the server answered %s", res.Status)}
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, c.Classify(host, err)
	}
	return &Response{URL: res.Request.URL.String(), StatusCode: res.StatusCode,
		ContentType: res.Header.Get("Content-Type"), Body: body}, nil
}

// invalidURL reports a URL that does not parse; its host is unknown, so the message quotes
// the parser's complaint (which may include the URL) only through Err, for logs.
func invalidURL(err error) *Error {
	e := newError(ErrInvalidURL, "", "the URL does not parse")
	e.Err = err
	return e
}

// CheckURL applies the checks made before connecting to u, for callers that hand the URL to a
// library which may rewrite it before its requests reach HTTPClient (go-git does).
func (c *Client) CheckURL(u *url.URL) error {
	if err := c.checkURL(u); err != nil {
		return err
	}
	return nil
}

// checkURL refuses what is not an absolute http or https URL with a host (the scheme in any
// case: url.Parse lowers it), and a host that is an address the policy refuses, before any
// connection: a literal address with a zone id ("[fe80::1%25eth0]") would otherwise fail at
// dial time with a connection error rather than the policy's refusal.
func (c *Client) checkURL(u *url.URL) *Error {
	if scheme := strings.ToLower(u.Scheme); scheme != "http" && scheme != "https" {
		return newError(ErrUnsupportedScheme, u.Host, "scheme %q is not allowed, only http and https", u.Scheme)
	}
	host := u.Hostname()
	if host == "" {
		return newError(ErrInvalidURL, u.Host, "the URL has no host")
	}
	if c.opts.AllowPrivate {
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if ip.Zone() != "" {
			return newError(ErrForbiddenAddress, u.Host,
				"%s is refused (an address with a zone id is link-local); the operator can allow private targets with DOCSD_FETCH_ALLOW_PRIVATE", ip.WithZone(""))
		}
		port := uint16(80)
		if p, err := strconv.ParseUint(u.Port(), 10, 16); err == nil {
			port = uint16(p)
		}
		if c.exempt != nil && c.exempt(netip.AddrPortFrom(ip, port)) {
			return nil
		}
		if err := checkAddress(u.Host, netip.AddrPortFrom(ip, port).String()); err != nil {
			return err.(*Error)
		}
	}
	return nil
}

// checkRedirect re-checks each hop's URL and counts hops; the address of the new host is
// checked when it is dialled, like the first. With KeepRedirects no hop is made.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if c.opts.KeepRedirects {
		return http.ErrUseLastResponse
	}
	if len(via) > c.opts.MaxRedirects || c.opts.MaxRedirects < 0 {
		return newError(ErrTooManyRedirects, via[0].URL.Host, "more than %d redirects", max(c.opts.MaxRedirects, 0))
	}
	if err := c.checkURL(req.URL); err != nil {
		if errors.Is(err, ErrForbiddenAddress) {
			// The address is the message: name the target, as a refusal at dial time would.
			err.Message = "redirected to a refused address: " + err.Message
			return err
		}
		// Name the host that redirected, which the caller knows, not the target's.
		err.Host = via[len(via)-1].URL.Host
		err.Message = "redirected to a URL that is refused: " + err.Message
		return err
	}
	return nil
}

// newTransport is a transport that dials only allowed addresses and never uses a proxy: with a
// proxy the dialled address would be the proxy's, and the policy would check the wrong host.
func (c *Client) newTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           c.dial,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: c.opts.WaitTimeout,
		ExpectContinueTimeout: time.Second,
	}
}

// dial resolves and connects, checking every address the dialer tries against the policy at
// the moment of connecting (Control runs after resolution, before connect), so a name whose DNS
// answer changes between a check and the connection cannot slip through.
func (c *Client) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: c.opts.WaitTimeout, KeepAlive: 30 * time.Second}
	if !c.opts.AllowPrivate {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			if c.exempt != nil {
				if ap, err := netip.ParseAddrPort(address); err == nil && c.exempt(ap) {
					return nil
				}
			}
			return checkAddress(addr, address)
		}
	}
	return d.DialContext(ctx, network, addr)
}
