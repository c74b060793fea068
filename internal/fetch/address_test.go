package fetch_test

import (
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
		// IPv4 allowed, including the neighbours of each blocked range
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
		// IPv4-mapped variants are judged as the IPv4 address they carry
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:10.1.2.3", "RFC 1918"},
		{"::ffff:169.254.169.254", "link-local"},
		{"::ffff:100.64.0.1", "CGNAT"},
		{"::ffff:0.0.0.0", "unspecified"},
		{"::ffff:8.8.8.8", ""},
		// NAT64 addresses are judged by the IPv4 address they reach
		{"64:ff9b::7f00:1", "loopback behind the NAT64 prefix"},
		{"64:ff9b::a00:1", "RFC 1918"},
		{"64:ff9b::808:808", ""},
		// IPv6 allowed
		{"2001:4860:4860::8888", ""},
		{"2606:4700:4700::1111", ""},
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
