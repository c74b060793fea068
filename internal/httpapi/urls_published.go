package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/sitepub"
)

// visitorTokenMax bounds a visitor token, as the site readers' own query does.
const visitorTokenMax = 8192

// publishedLookup is the spec's PublishedSiteContentLookup: a redirect, or the content.
// apiToken is always empty: docsd issues no short-lived tokens; read the space with your own.
type publishedLookup struct {
	Target       string `json:"target,omitempty"`
	Redirect     string `json:"redirect,omitempty"`
	Site         string `json:"site,omitempty"`
	SiteSection  string `json:"siteSection,omitempty"`
	SiteSpace    string `json:"siteSpace,omitempty"`
	Space        string `json:"space,omitempty"`
	Pathname     string `json:"pathname"`
	BasePath     string `json:"basePath"`
	SiteBasePath string `json:"siteBasePath"`
	APIToken     string `json:"apiToken"`
	Organization string `json:"organization,omitempty"`
	ShareKey     string `json:"shareKey,omitempty"`
	Complete     bool   `json:"complete"`
	CanonicalURL string `json:"canonicalUrl"`
}

// redirectLookup is the Redirect variant alone.
type redirectLookup struct {
	Target   string `json:"target"`
	Site     string `json:"site,omitempty"` // with target external, as newer versions of the spec require
	Redirect string `json:"redirect"`
}

func (s *Server) getPublishedContentByURL(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	u, err := queryURL(r)
	if err != nil {
		return err
	}
	token, err := queryString(r, "visitorAuthToken", visitorTokenMax)
	if err != nil {
		return err
	}
	redirect, err := queryBool(r, "redirectOnError")
	if err != nil {
		return err
	}
	return s.resolvePublished(w, r, u, sitepub.Reader{Token: token}, redirect != nil && *redirect)
}

func (s *Server) resolvePublishedContentByURL(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		URL             string `json:"url"`
		RedirectOnError bool   `json:"redirectOnError"`
		Visitor         *struct {
			JWTToken       string         `json:"jwtToken"`
			UnsignedClaims map[string]any `json:"unsignedClaims"`
		} `json:"visitor"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	u, err := parseURL("url", body.URL)
	if err != nil {
		return err
	}
	var rd sitepub.Reader
	if v := body.Visitor; v != nil {
		if len(v.JWTToken) > visitorTokenMax {
			return apperr.Invalidf("visitor.jwtToken: must be at most %d characters", visitorTokenMax)
		}
		rd.Token = v.JWTToken
		if len(v.UnsignedClaims) > 0 {
			// Unsigned claims reach a site as ?visitor.<name>= does; the site's schema
			// decides which it keeps.
			q := u.Query()
			for k, val := range v.UnsignedClaims {
				if b, err := json.Marshal(val); err == nil && len(b) > 0 && b[0] == '"' {
					q.Set("visitor."+k, fmt.Sprint(val))
				} else {
					q.Set("visitor."+k, string(b))
				}
			}
			rd.Query = q
		}
	}
	return s.resolvePublished(w, r, u, rd, body.RedirectOnError)
}

func (s *Server) resolvePublished(w http.ResponseWriter, r *http.Request, u *url.URL, rd sitepub.Reader, redirectOnError bool) error {
	own, _ := url.Parse(s.BaseURL)
	res, err := s.PublishedSites.Resolve(r.Context(), u, own, rd, redirectOnError)
	if err != nil {
		return err
	}
	if res.Redirect != "" {
		out := redirectLookup{Target: res.RedirectTarget, Redirect: res.Redirect}
		if res.RedirectTarget == "external" {
			out.Site = res.Site.ID
		}
		return ok(w, out)
	}
	return ok(w, publishedLookup{Site: res.Site.ID, SiteSection: res.SectionID, SiteSpace: res.SiteSpaceID, Space: res.SpaceID,
		Pathname: res.PagePath, BasePath: res.BasePath, SiteBasePath: res.SiteBasePath, Organization: res.Site.OrganizationID,
		ShareKey: res.ShareKey, Complete: true, CanonicalURL: res.Canonical})
}

// subdomainPattern is the spec's pattern for a subdomain.
var subdomainPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$`)

// getSubdomain answers which organization has the subdomain: in docsd, an organization's
// `hostname`. The address of public content is public, so any authenticated caller may ask.
func (s *Server) getSubdomain(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	sub := r.PathValue("subdomain")
	if !subdomainPattern.MatchString(sub) {
		return apperr.Invalidf("subdomain: must be 3 to 32 lowercase letters, digits and inner hyphens (got %q)", sub)
	}
	o, err := s.Orgs.BySubdomain(r.Context(), sub)
	if err != nil {
		return err
	}
	return ok(w, map[string]any{"object": "subdomain", "subdomain": sub, "isActive": true,
		"target": map[string]string{"type": "organization", "organization": o.ID}})
}
