package fetch

import (
	"net/netip"
)

// checkAddress refuses a resolved address ("ip:port") that the policy blocks; host is what the
// URL named, so the message shows both the name and what it resolved to.
func checkAddress(host, address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return newError(ErrForbiddenAddress, host, "cannot check the address %q before connecting", address)
	}
	if rule, blocked := Blocked(ap.Addr()); blocked {
		return newError(ErrForbiddenAddress, host,
			"%s is refused (%s); the operator can allow private targets with DOCSD_FETCH_ALLOW_PRIVATE", ap.Addr(), rule)
	}
	return nil
}

// A blockedRange is a block of addresses a user-given URL may not reach, with the rule named
// the way an error message should name it.
type blockedRange struct {
	prefix netip.Prefix
	rule   string
}

// blockedRanges are the targets that sit inside the operator's network or the host itself.
// IPv4-mapped IPv6 addresses are unmapped before the lookup, so ::ffff:127.0.0.1 is loopback.
var blockedRanges = []blockedRange{
	{netip.MustParsePrefix("0.0.0.0/8"), "unspecified (0.0.0.0/8, \"this network\")"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private (RFC 1918)"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private (RFC 1918)"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private (RFC 1918)"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared address space (CGNAT, RFC 6598)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved (240.0.0.0/4, broadcast)"},
	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("::/96"), "reserved (IPv4-compatible IPv6)"},
	{netip.MustParsePrefix("fc00::/7"), "private (unique local, RFC 4193)"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("fec0::/10"), "private (site-local, deprecated)"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

// nat64 is the well-known NAT64 prefix (RFC 6052): its last 32 bits are an IPv4 address that a
// translator on the path would reach, so that address decides.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// Blocked reports whether ip is a target user-given URLs may not reach when private targets are
// not allowed, and which rule refuses it ("loopback", "private (RFC 1918)", ...).
func Blocked(ip netip.Addr) (rule string, blocked bool) {
	if !ip.IsValid() {
		return "invalid address", true
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() && nat64.Contains(ip) {
		b := ip.As16()
		if rule, blocked := Blocked(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})); blocked {
			return rule + " behind the NAT64 prefix", true
		}
		return "", false
	}
	for _, r := range blockedRanges {
		if r.prefix.Contains(ip) {
			return r.rule, true
		}
	}
	return "", false
}
