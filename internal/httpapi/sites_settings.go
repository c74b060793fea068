package httpapi

import (
	"encoding/json"
	"net/http"

	"docsd/internal/auth"
	"docsd/internal/opt"
	"docsd/internal/site"
	"docsd/internal/wire"
)

// Share links, the adaptive schema, customization, visitor-auth settings and the published
// profile of a site.

func (s *Server) listShareLinks(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	list := "site-share-links/" + id
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	st, res, err := s.Sites.ListShareLinks(r.Context(), c, orgID, id, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, func(l site.ShareLink) wire.ShareLink { return s.urls.FromShareLink(st, l) })
}

func (s *Server) createShareLink(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Name *string `json:"name"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	st, l, err := s.Sites.CreateShareLink(r.Context(), c, orgID, id, body.Name)
	if err != nil {
		return err
	}
	return created(w, "", s.urls.FromShareLink(st, l))
}

func (s *Server) patchShareLink(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Active *bool   `json:"active"`
		Name   *string `json:"name"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	st, l, err := s.Sites.PatchShareLink(r.Context(), c, orgID, id, r.PathValue("shareLinkId"),
		site.ShareLinkUpdate{Active: body.Active, Name: body.Name})
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromShareLink(st, l))
}

func (s *Server) deleteShareLink(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	if err := s.Sites.DeleteShareLink(r.Context(), c, orgID, id, r.PathValue("shareLinkId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) getAdaptiveSchema(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	a, err := s.Sites.GetAdaptiveSchema(r.Context(), c, orgID, id)
	if err != nil {
		return err
	}
	return ok(w, wire.FromAdaptiveSchema(a))
}

func (s *Server) putAdaptiveSchema(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		JSONSchema json.RawMessage `json:"jsonSchema"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	a, err := s.Sites.PutAdaptiveSchema(r.Context(), c, orgID, id, body.JSONSchema)
	if err != nil {
		return err
	}
	return ok(w, wire.FromAdaptiveSchema(a))
}

func (s *Server) listTemplateConditions(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	list, err := s.Sites.TemplateConditions(r.Context(), c, orgID, id)
	if err != nil {
		return err
	}
	out := struct {
		Items []wire.TemplateCondition `json:"items"`
	}{Items: make([]wire.TemplateCondition, 0, len(list))}
	for _, t := range list {
		out.Items = append(out.Items, wire.TemplateCondition{Description: t.Description, Condition: t.Condition})
	}
	return ok(w, out)
}

// rawBody reads a JSON object body as it is (the schema check happens in the domain).
func rawBody(r *http.Request) (json.RawMessage, error) {
	var raw json.RawMessage
	err := decode(r, &raw)
	return raw, err
}

// unmaskedParam checks the customization reads' `unmasked` flag. docsd keeps no secret in a
// customization, so both answers are the same.
func unmaskedParam(r *http.Request) error {
	_, err := queryBool(r, "unmasked")
	return err
}

func (s *Server) getSiteCustomization(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := unmaskedParam(r); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	doc, err := s.Sites.GetCustomization(r.Context(), c, orgID, id)
	if err != nil {
		return err
	}
	return ok(w, doc)
}

func (s *Server) putSiteCustomization(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	raw, err := rawBody(r)
	if err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	doc, err := s.Sites.PutCustomization(r.Context(), c, orgID, id, raw)
	if err != nil {
		return err
	}
	return ok(w, doc)
}

// withOverrides adds `hasOverrides` to a site space's effective customization.
func withOverrides(v site.SiteSpaceCustomizationView) (json.RawMessage, error) {
	var m map[string]any
	if err := json.Unmarshal(v.Effective, &m); err != nil {
		return nil, err
	}
	m["hasOverrides"] = v.HasOverrides
	return json.Marshal(m)
}

func (s *Server) getSiteSpaceCustomization(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := unmaskedParam(r); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	v, err := s.Sites.GetSiteSpaceCustomization(r.Context(), c, orgID, id, r.PathValue("siteSpaceId"))
	if err != nil {
		return err
	}
	doc, err := withOverrides(v)
	if err != nil {
		return err
	}
	return ok(w, doc)
}

func (s *Server) patchSiteSpaceCustomization(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	raw, err := rawBody(r)
	if err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	v, err := s.Sites.OverrideSiteSpaceCustomization(r.Context(), c, orgID, id, r.PathValue("siteSpaceId"), raw)
	if err != nil {
		return err
	}
	doc, err := withOverrides(v)
	if err != nil {
		return err
	}
	return ok(w, doc)
}

func (s *Server) deleteSiteSpaceCustomization(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	if err := s.Sites.DeleteSiteSpaceCustomization(r.Context(), c, orgID, id, r.PathValue("siteSpaceId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) getPublishingAuth(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	a, err := s.Sites.GetVisitorAuth(r.Context(), c, orgID, id)
	if err != nil {
		return err
	}
	return ok(w, wire.FromVisitorAuth(a))
}

func (s *Server) patchPublishingAuth(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Backend     *string           `json:"backend"`
		FallbackURL opt.Field[string] `json:"fallbackURL"`
		newerAuthPatch
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := body.check(); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	a, err := s.Sites.PatchVisitorAuth(r.Context(), c, orgID, id, site.VisitorAuthUpdate{Backend: body.Backend, FallbackURL: body.FallbackURL})
	if err != nil {
		return err
	}
	return ok(w, wire.FromVisitorAuth(a))
}

func (s *Server) regeneratePublishingAuth(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	a, err := s.Sites.RegenerateVisitorAuthKey(r.Context(), c, orgID, id)
	if err != nil {
		return err
	}
	return ok(w, wire.FromVisitorAuth(a))
}

// getPublishedSite answers the published profile: the site, its structure, the effective
// customization of the site and of every site space, and its scripts (docsd runs no
// integration scripts yet, so none).
func (s *Server) getPublishedSite(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	sc, err := s.structureOf(r, c)
	if err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	v, err := s.Sites.Get(r.Context(), c, orgID, id)
	if err != nil {
		return err
	}
	siteDoc, err := s.Sites.SiteCustomization(v.Site)
	if err != nil {
		return err
	}
	out := wire.PublishedContentSite{Object: "published-content-site", Site: s.siteWire(v), Structure: sc.siteStructure(),
		Customizations: wire.PublishedCustomization{Site: siteDoc.Raw, SiteSpaces: map[string]json.RawMessage{}},
		Scripts:        []any{}}
	for _, ss := range sc.tree.SiteSpaces {
		raw, err := site.EffectiveCustomization(v.Site, ss)
		if err != nil {
			return err
		}
		out.Customizations.SiteSpaces[ss.ID] = raw
	}
	return ok(w, out)
}
