package fetch

import "net/netip"

// NewExempting is New with one address treated as public, so a loopback test server can play
// the part of an outside server that redirects inwards.
func NewExempting(o Options, public netip.AddrPort) *Client {
	c := New(o)
	c.exempt = func(ap netip.AddrPort) bool { return ap == public }
	return c
}
