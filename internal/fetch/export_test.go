package fetch

import (
	"net"
	"net/netip"
)

// NewExempting is New with one address treated as public, so a loopback test server can play
// the part of an outside server that redirects inwards.
func NewExempting(o Options, public netip.AddrPort) *Client {
	c := New(o)
	c.exempt = func(ap netip.AddrPort) bool { return ap == public }
	return c
}

// CheckAddress is the dial-time check.
func CheckAddress(host, address string) error { return checkAddress(host, address) }

// SetInterfaceAddrs replaces the host's interface list until the returned func is called.
func SetInterfaceAddrs(f func() ([]net.Addr, error)) (restore func()) {
	old := interfaceAddrs
	interfaceAddrs = f
	return func() { interfaceAddrs = old }
}
