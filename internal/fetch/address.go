package fetch

import (
	"net"
	"net/netip"
)

// checkAddress refuses a resolved address ("ip:port") that the policy blocks; host is what the
// URL named, so the message shows both the name and what it resolved to.
func checkAddress(host, address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return newError(ErrForbiddenAddress, host, "cannot check the address %q before connecting", address)
	}
	rule, blocked := Blocked(ap.Addr())
	if ownAddress(ap.Addr()) && !ap.Addr().Unmap().IsLoopback() {
		// Named first: whatever range it is in, the target is this host.
		if blocked {
			rule = "an address of this host, " + rule
		} else {
			rule, blocked = "an address of this host", true
		}
	}
	if blocked {
		return newError(ErrForbiddenAddress, host,
			"%s is refused (%s); the operator can allow private targets with DOCSD_FETCH_ALLOW_PRIVATE", ap.Addr().WithZone(""), rule)
	}
	return nil
}

// A blockedRange is a block of addresses a user-given URL may not reach, with the rule named
// the way an error message should name it.
type blockedRange struct {
	prefix netip.Prefix
	rule   string
}

// blockedRanges are the targets that sit inside the operator's network or the host itself, or
// that no public server has: the IANA IPv4 and IPv6 special-purpose address registries (RFC
// 6890 and its updates), multicast, and what was deprecated. IPv4-mapped IPv6 addresses are
// unmapped before the lookup, so ::ffff:127.0.0.1 is loopback; NAT64 and 6to4 addresses are
// judged by the IPv4 address inside them (see Blocked).
var blockedRanges = []blockedRange{
	{netip.MustParsePrefix("0.0.0.0/8"), "unspecified (0.0.0.0/8, \"this network\")"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private (RFC 1918)"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private (RFC 1918)"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private (RFC 1918)"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared address space (CGNAT, RFC 6598)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments (192.0.0.0/24)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation (TEST-NET-1)"},
	{netip.MustParsePrefix("192.31.196.0/24"), "AS112 (192.31.196.0/24)"},
	{netip.MustParsePrefix("192.52.193.0/24"), "AMT (192.52.193.0/24)"},
	{netip.MustParsePrefix("192.88.99.0/24"), "6to4 relay anycast (deprecated)"},
	{netip.MustParsePrefix("192.175.48.0/24"), "AS112 (192.175.48.0/24)"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking (198.18.0.0/15)"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation (TEST-NET-2)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation (TEST-NET-3)"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved (240.0.0.0/4, broadcast)"},
	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("::/96"), "reserved (IPv4-compatible IPv6)"},
	{netip.MustParsePrefix("::ffff:0:0/96"), "reserved (IPv4-mapped IPv6)"}, // reached only if unmapping did not apply
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local-use IPv4/IPv6 translation (64:ff9b:1::/48)"},
	{netip.MustParsePrefix("100::/64"), "discard-only (100::/64)"},
	{netip.MustParsePrefix("100:0:0:1::/64"), "dummy prefix (100:0:0:1::/64)"},
	{netip.MustParsePrefix("2001::/23"), "IETF protocol assignments (2001::/23: Teredo, benchmarking, ORCHID...)"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation (2001:db8::/32)"},
	{netip.MustParsePrefix("2002::/16"), "6to4 (2002::/16)"},
	{netip.MustParsePrefix("2620:4f:8000::/48"), "AS112 (2620:4f:8000::/48)"},
	{netip.MustParsePrefix("3fff::/20"), "documentation (3fff::/20)"},
	{netip.MustParsePrefix("5f00::/16"), "segment routing (5f00::/16)"},
	{netip.MustParsePrefix("fc00::/7"), "private (unique local, RFC 4193)"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("fec0::/10"), "private (site-local, deprecated)"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

// interfaceAddrs lists the host's own addresses; a variable so tests can see the lookup fail.
var interfaceAddrs = net.InterfaceAddrs

// ownAddress reports whether ip is an address of one of this host's interfaces: a server
// listening there (the API itself, a database, an admin port) is the host, whatever range the
// address is in. The list is read at each check, as interfaces come and go; if it cannot be
// read, nothing is refused on this ground (the ranges still apply).
func ownAddress(ip netip.Addr) bool {
	ip = ip.Unmap().WithZone("")
	addrs, err := interfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		var p netip.Addr
		switch v := a.(type) {
		case *net.IPNet:
			p, _ = netip.AddrFromSlice(v.IP)
		case *net.IPAddr:
			p, _ = netip.AddrFromSlice(v.IP)
		}
		if p.IsValid() && p.Unmap() == ip {
			return true
		}
	}
	return false
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
