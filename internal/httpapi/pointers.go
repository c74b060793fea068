package httpapi

import "docsd/internal/apperr"

// sitePointer is the `{type: site, site: <id>}` body variant.
type sitePointer struct {
	Type string `json:"type"`
	Site string `json:"site"`
}

func (p sitePointer) validate(field string) error {
	if p.Type != "site" {
		return apperr.Invalidf("%s.type: must be site (got %q)", field, p.Type)
	}
	if p.Site == "" {
		return apperr.Invalidf("%s.site: is required", field)
	}
	return nil
}
