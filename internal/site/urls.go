package site

import (
	"net/url"
	"strings"
)

// PublishedPath is the path under the server where a site is served to readers:
// /sites/{organizationId}/{basename}. A request that arrives with the site's custom hostname
// is served the site from the root instead.
func PublishedPath(st Site) string {
	return "/sites/" + url.PathEscape(st.OrganizationID) + "/" + url.PathEscape(st.Basename)
}

// PublishedURL is the address readers open: https://{hostname}/ (with base's scheme) when the
// site has a custom hostname, otherwise base followed by PublishedPath. It ends with a slash.
func PublishedURL(base string, st Site) string {
	if st.Hostname != "" {
		scheme := "https"
		if u, err := url.Parse(base); err == nil && u.Scheme != "" {
			scheme = u.Scheme
		}
		return scheme + "://" + st.Hostname + "/"
	}
	return strings.TrimSuffix(base, "/") + PublishedPath(st) + "/"
}

// ShareKeyParam is the query parameter that carries a share link's key to the published site
// (as in the API's shareKey).
const ShareKeyParam = "shareKey"

// ShareLinkURL is the published address with a share link's key.
func ShareLinkURL(base string, st Site, l ShareLink) string {
	return PublishedURL(base, st) + "?" + ShareKeyParam + "=" + url.QueryEscape(l.Key)
}
