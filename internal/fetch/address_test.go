package fetch_test

import (
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"

	"docsd/internal/fetch"
)

func TestBlockedClassifiesAddresses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		ip   string
		rule string // "" means allowed
	}{
		// IPv4 blocked
		{"127.0.0.1", "loopback"},
		{"127.255.255.254", "loopback"},
		{"10.0.0.1", "RFC 1918"},
		{"172.16.0.1", "RFC 1918"},
		{"172.31.255.255", "RFC 1918"},
		{"192.168.1.1", "RFC 1918"},
		{"100.64.0.1", "CGNAT"},
		{"100.127.255.255", "CGNAT"},
		{"169.254.169.254", "link-local"},
		{"0.0.0.0", "unspecified"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"255.255.255.255", "broadcast"},
		// the rest of the IANA IPv4 special-purpose registry
		{"0.255.255.255", "this network"},
		{"100.100.100.200", "CGNAT"},
		{"192.0.0.1", "IETF protocol assignments"},
		{"192.0.0.170", "IETF protocol assignments"},
		{"192.0.2.2", "TEST-NET-1"},
		{"192.31.196.1", "AS112"},
		{"192.52.193.1", "AMT"},
		{"192.88.99.1", "6to4 relay"},
		{"192.175.48.1", "AS112"},
		{"198.18.0.1", "benchmarking"},
		{"198.19.255.255", "benchmarking"},
		{"198.51.100.7", "TEST-NET-2"},
		{"203.0.113.9", "TEST-NET-3"},
		{"240.0.0.1", "reserved"},
		{"255.255.255.254", "reserved"},
		// IPv4 allowed, including the neighbours of each blocked range
		{"192.0.1.255", ""},
		{"192.0.3.0", ""},
		{"198.17.255.255", ""},
		{"198.20.0.0", ""},
		{"198.51.99.255", ""},
		{"198.51.101.0", ""},
		{"203.0.112.255", ""},
		{"203.0.114.0", ""},
		{"8.8.8.8", ""},
		{"1.1.1.1", ""},
		{"11.0.0.1", ""},
		{"172.15.255.255", ""},
		{"172.32.0.1", ""},
		{"192.169.0.1", ""},
		{"100.63.255.255", ""},
		{"100.128.0.1", ""},
		{"169.253.255.255", ""},
		{"223.255.255.255", ""},
		// IPv6 blocked
		{"::1", "loopback"},
		{"::", "unspecified"},
		{"fc00::1", "RFC 4193"},
		{"fd12:3456:789a::1", "RFC 4193"},
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"febf:ffff::1", "link-local"},
		{"fec0::1", "site-local"},
		{"ff02::1", "multicast"},
		{"::127.0.0.1", "IPv4-compatible"},
		// the rest of the IANA IPv6 special-purpose registry
		{"64:ff9b:1::1", "local-use IPv4/IPv6 translation"},
		{"100::1", "discard-only"},
		{"100:0:0:1::1", "dummy prefix"},
		{"2001::1", "Teredo"},
		{"2001:2::1", "benchmarking"},
		{"2001:db8::1", "documentation"},
		{"2001:db8:ffff:ffff::1", "documentation"},
		{"2002:7f00:1::1", "6to4"},
		{"2620:4f:8000::1", "AS112"},
		{"3fff::1", "documentation"},
		{"5f00::1", "segment routing"},
		{"fd00::2", "RFC 4193"},
		{"fe80::fc:ff:fe00:1", "link-local"},
		// IPv4-mapped variants are judged as the IPv4 address they carry
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:10.1.2.3", "RFC 1918"},
		{"::ffff:169.254.169.254", "link-local"},
		{"::ffff:100.64.0.1", "CGNAT"},
		{"::ffff:0.0.0.0", "unspecified"},
		{"::ffff:8.8.8.8", ""},
		{"::ffff:192.0.2.2", "TEST-NET-1"},
		{"::ffff:198.18.0.1", "benchmarking"},
		{"::ffff:255.255.255.255", "broadcast"},
		// NAT64 addresses are judged by the IPv4 address they reach
		{"64:ff9b::7f00:1", "loopback behind the NAT64 prefix"},
		{"64:ff9b::a00:1", "RFC 1918"},
		{"64:ff9b::808:808", ""},
		{"64:ff9b::c000:202", "TEST-NET-1) behind the NAT64 prefix"},
		{"64:ff9b::c633:6401", "TEST-NET-2) behind the NAT64 prefix"},
		// IPv6 allowed
		{"2001:4860:4860::8888", ""},
		{"2606:4700:4700::1111", ""},
		{"2001:200::1", ""},
		{"2001:db7:ffff::1", ""},
		{"2003::1", ""},
		{"fbff:ffff::1", ""},
		{"fe00::1", ""},
	}
	for _, tc := range cases {
		rule, blocked := fetch.Blocked(netip.MustParseAddr(tc.ip))
		switch {
		case tc.rule == "" && blocked:
			t.Errorf("Blocked(%s) = %q, want allowed", tc.ip, rule)
		case tc.rule != "" && !blocked:
			t.Errorf("Blocked(%s) allowed, want blocked as %q", tc.ip, tc.rule)
		case tc.rule != "" && !strings.Contains(rule, tc.rule):
			t.Errorf("Blocked(%s) rule = %q, want it to mention %q", tc.ip, rule, tc.rule)
		}
	}
	if _, blocked := fetch.Blocked(netip.Addr{}); !blocked {
		t.Error("the zero Addr is allowed, want blocked")
	}
}

func TestOwnInterfaceAddressesRefused(t *testing.T) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatalf("InterfaceAddrs: %v", err)
	}
	checked := 0
	for _, a := range addrs {
		ipn, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		ip, _ := netip.AddrFromSlice(ipn.IP)
		ip = ip.Unmap()
		checked++
		err := fetch.CheckAddress("h", netip.AddrPortFrom(ip, 80).String())
		if !errors.Is(err, fetch.ErrForbiddenAddress) {
			t.Errorf("%s (an interface address of this host): %v, want refused", ip, err)
		}
	}
	if checked == 0 {
		t.Fatal("this host lists no interface address")
	}
	// A public address that one of the host's interfaces carries is refused as the host's.
	restore := fetch.SetInterfaceAddrs(func() ([]net.Addr, error) {
		return []net.Addr{&net.IPNet{IP: net.ParseIP("8.8.4.4"), Mask: net.CIDRMask(24, 32)}}, nil
	})
	defer restore()
	err = fetch.CheckAddress("h", "8.8.4.4:443")
	if !errors.Is(err, fetch.ErrForbiddenAddress) || !strings.Contains(err.Error(), "an address of this host") {
		t.Errorf("8.8.4.4 on an interface: %v, want refused as an address of this host", err)
	}
	if err := fetch.CheckAddress("h", "8.8.8.8:443"); err != nil {
		t.Errorf("8.8.8.8: %v, want allowed", err)
	}
}
