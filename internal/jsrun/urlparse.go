package jsrun

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// parseURL backs the URL class: Go's parser, with the WHATWG serialisation scripts expect
// (lower-case scheme and host, default ports dropped, "/" as the path of an empty http URL).
// hasBase says whether base was given at all (an empty string is still a base to resolve).
func parseURL(input, base string, hasBase bool) (any, error) {
	input = strings.TrimSpace(input)
	u, err := url.Parse(input)
	if err != nil {
		return nil, fmt.Errorf("Invalid URL: %q", input)
	}
	if hasBase {
		b, err := url.Parse(strings.TrimSpace(base))
		if err != nil || b.Scheme == "" {
			return nil, fmt.Errorf("Invalid base URL: %q", base)
		}
		u = b.ResolveReference(u)
	}
	if u.Scheme == "" {
		return nil, fmt.Errorf("Invalid URL: %q", input)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	special := u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "ws" || u.Scheme == "wss" || u.Scheme == "ftp"
	if special && u.Host == "" && u.Opaque == "" {
		return nil, fmt.Errorf("Invalid URL: %q", input)
	}
	u.Host = strings.ToLower(u.Host)
	port := u.Port()
	if (u.Scheme == "http" || u.Scheme == "ws") && port == "80" || (u.Scheme == "https" || u.Scheme == "wss") && port == "443" {
		u.Host = strings.TrimSuffix(u.Host, ":"+port)
		port = ""
	}
	if special && u.Path == "" && u.Opaque == "" {
		u.Path = "/"
	}
	parts := map[string]string{
		"protocol": u.Scheme + ":",
		"username": u.User.Username(),
		"host":     u.Host,
		"hostname": u.Hostname(),
		"port":     port,
		"pathname": u.EscapedPath(),
		"search":   "",
		"hash":     "",
	}
	if u.Opaque != "" {
		parts["pathname"] = u.Opaque
	}
	if p, ok := u.User.Password(); ok {
		parts["password"] = p
	} else {
		parts["password"] = ""
	}
	if u.RawQuery != "" {
		parts["search"] = "?" + u.RawQuery
	}
	if u.Fragment != "" {
		parts["hash"] = "#" + u.EscapedFragment()
	}
	if special {
		parts["origin"] = u.Scheme + "://" + u.Host
	} else {
		parts["origin"] = "null"
	}
	parts["href"] = u.String()
	out, err := json.Marshal(parts)
	return string(out), err
}
