package httpapi

import (
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/opt"
	"docsd/internal/site"
)

// structureOf loads a site's structure and a converter for the caller.
func (s *Server) structureOf(r *http.Request, c auth.Caller) (*siteConv, error) {
	orgID, id := siteIDs(r)
	st, tr, err := s.Sites.Structure(r.Context(), c, orgID, id)
	if err != nil {
		return nil, err
	}
	key, err := s.shareKeyOf(r, st)
	if err != nil {
		return nil, err
	}
	return s.newSiteConv(r.Context(), c, st, tr, key)
}

// convAfter is a converter over a structure returned by a change.
func (s *Server) convAfter(r *http.Request, c auth.Caller, tr site.Tree) (*siteConv, error) {
	orgID, id := siteIDs(r)
	st, err := s.Sites.Get(r.Context(), c, orgID, id)
	if err != nil {
		return nil, err
	}
	if tr.Sections == nil && tr.Groups == nil && tr.SiteSpaces == nil {
		if _, tr, err = s.Sites.Structure(r.Context(), c, orgID, id); err != nil {
			return nil, err
		}
	}
	return s.newSiteConv(r.Context(), c, st.Site, tr, "")
}

func (s *Server) getSiteStructure(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	sc, err := s.structureOf(r, c)
	if err != nil {
		return err
	}
	return ok(w, sc.siteStructure())
}

// pageStructure pages a flat list of structure items in structure order.
func pageStructure[T, W any](s *Server, w http.ResponseWriter, r *http.Request, sc *siteConv, kind string, items []T, id func(T) string, conv func(T) W) error {
	list := "site-" + kind + "/" + sc.site.ID + "/" + r.URL.Query().Get("default") + "/" + sc.shareKey
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	keys := sc.tree.OrderKeys()
	res := site.PageOf(items, func(it T) string { return keys[id(it)] }, page)
	return writeList(s, w, list, res, conv)
}

func (s *Server) listSiteSpaces(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	def, err := queryBool(r, "default")
	if err != nil {
		return err
	}
	sc, err := s.structureOf(r, c)
	if err != nil {
		return err
	}
	var items []site.SiteSpace
	for _, ss := range sc.tree.SiteSpaces {
		if def == nil || ss.Default == *def {
			items = append(items, ss)
		}
	}
	return pageStructure(s, w, r, sc, "spaces", items, func(ss site.SiteSpace) string { return ss.ID }, sc.siteSpace)
}

func (s *Server) addSiteSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		newerSiteSpaceAdd
		SpaceID   *string `json:"spaceId"`
		SectionID *string `json:"sectionId"`
		Draft     *bool   `json:"draft"` // the newer spec's; docsd has no drafts
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := body.check(); err != nil {
		return err
	}
	if err := refuseDraft(body.Draft); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	ss, err := s.Sites.AddSiteSpace(r.Context(), c, orgID, id, body.SpaceID, body.SectionID)
	if err != nil {
		return err
	}
	sc, err := s.convAfter(r, c, site.Tree{})
	if err != nil {
		return err
	}
	return created(w, "", sc.siteSpace(ss))
}

func (s *Server) patchSiteSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		newerSiteSpacePatch
		Path      *string           `json:"path"`
		Condition opt.Field[string] `json:"condition"`
		SpaceID   *string           `json:"spaceId"`
		Draft     *bool             `json:"draft"` // the newer spec's; docsd has no drafts
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := refuseDraft(body.Draft); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	ss, err := s.Sites.PatchSiteSpace(r.Context(), c, orgID, id, r.PathValue("siteSpaceId"),
		site.SiteSpaceUpdate{Path: body.Path, Condition: body.Condition, SpaceID: body.SpaceID})
	if err != nil {
		return err
	}
	sc, err := s.convAfter(r, c, site.Tree{})
	if err != nil {
		return err
	}
	return ok(w, sc.siteSpace(ss))
}

func (s *Server) deleteSiteSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	if err := s.Sites.DeleteSiteSpace(r.Context(), c, orgID, id, r.PathValue("siteSpaceId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) listSiteSections(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	sc, err := s.structureOf(r, c)
	if err != nil {
		return err
	}
	return pageStructure(s, w, r, sc, "sections", sc.tree.Sections, func(sec site.Section) string { return sec.ID }, sc.section)
}

func (s *Server) addSiteSection(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		newerSectionAdd
		SpaceID *string           `json:"spaceId"`
		Title   opt.Field[string] `json:"title"`
		Icon    opt.Field[string] `json:"icon"`
		Draft   *bool             `json:"draft"` // the newer spec's; docsd has no drafts
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := body.check(); err != nil {
		return err
	}
	if err := refuseDraft(body.Draft); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	sec, err := s.Sites.AddSection(r.Context(), c, orgID, id, site.NewSection{SpaceID: body.SpaceID, Title: body.Title, Icon: body.Icon})
	if err != nil {
		return err
	}
	sc, err := s.convAfter(r, c, site.Tree{})
	if err != nil {
		return err
	}
	return created(w, "", sc.section(sec))
}

func (s *Server) patchSiteSection(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		newerSectionPatch
		Title            *string           `json:"title"`
		Path             *string           `json:"path"`
		DefaultSiteSpace *string           `json:"defaultSiteSpace"`
		Condition        opt.Field[string] `json:"condition"`
		Icon             opt.Field[string] `json:"icon"`
		Description      opt.Field[string] `json:"description"`
		Draft            *bool             `json:"draft"` // the newer spec's; docsd has no drafts
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := body.check(); err != nil {
		return err
	}
	if err := refuseDraft(body.Draft); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	sec, err := s.Sites.PatchSection(r.Context(), c, orgID, id, r.PathValue("siteSectionId"), site.SectionUpdate{
		Title: body.Title, Path: body.Path, DefaultSiteSpace: body.DefaultSiteSpace, Condition: body.Condition,
		Icon: body.Icon, Description: body.Description})
	if err != nil {
		return err
	}
	sc, err := s.convAfter(r, c, site.Tree{})
	if err != nil {
		return err
	}
	return ok(w, sc.section(sec))
}

func (s *Server) deleteSiteSection(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	if err := s.Sites.DeleteSection(r.Context(), c, orgID, id, r.PathValue("siteSectionId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) listSiteSectionGroups(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	sc, err := s.structureOf(r, c)
	if err != nil {
		return err
	}
	return pageStructure(s, w, r, sc, "groups", sc.tree.Groups, func(g site.SectionGroup) string { return g.ID }, sc.group)
}

func (s *Server) addSiteSectionGroup(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Title    *string           `json:"title"`
		Icon     opt.Field[string] `json:"icon"`
		Sections []string          `json:"sections"`
		Parent   *string           `json:"parent"`
		Draft    *bool             `json:"draft"` // the newer spec's; docsd has no drafts
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := refuseDraft(body.Draft); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	g, err := s.Sites.AddGroup(r.Context(), c, orgID, id, site.NewGroup{Title: body.Title, Icon: body.Icon,
		Sections: body.Sections, Parent: body.Parent})
	if err != nil {
		return err
	}
	sc, err := s.convAfter(r, c, site.Tree{})
	if err != nil {
		return err
	}
	return created(w, "", sc.group(g))
}

func (s *Server) patchSiteSectionGroup(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		newerGroupPatch
		Title *string           `json:"title"`
		Icon  opt.Field[string] `json:"icon"`
		Draft *bool             `json:"draft"` // the newer spec's; docsd has no drafts
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := body.check(); err != nil {
		return err
	}
	if err := refuseDraft(body.Draft); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	g, err := s.Sites.PatchGroup(r.Context(), c, orgID, id, r.PathValue("siteSectionGroupId"), site.GroupUpdate{Title: body.Title, Icon: body.Icon})
	if err != nil {
		return err
	}
	sc, err := s.convAfter(r, c, site.Tree{})
	if err != nil {
		return err
	}
	return ok(w, sc.group(g))
}

func (s *Server) deleteSiteSectionGroup(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	if err := s.Sites.DeleteGroup(r.Context(), c, orgID, id, r.PathValue("siteSectionGroupId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) addSectionToGroup(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		SectionID *string `json:"sectionId"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	g, tr, err := s.Sites.AddSectionToGroup(r.Context(), c, orgID, id, r.PathValue("siteSectionGroupId"), body.SectionID)
	if err != nil {
		return err
	}
	sc, err := s.convAfter(r, c, tr)
	if err != nil {
		return err
	}
	return created(w, "", sc.group(g))
}

func (s *Server) removeSectionFromGroup(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	if err := s.Sites.RemoveSectionFromGroup(r.Context(), c, orgID, id, r.PathValue("siteSectionGroupId"), r.PathValue("siteSectionId")); err != nil {
		return err
	}
	return noContent(w)
}

// refuseDraft accepts the `draft` field newer clients send when it is false, and refuses
// true: docsd's site structure is always live, it has no draft sections or site spaces.
func refuseDraft(draft *bool) error {
	if draft != nil && *draft {
		return apperr.Invalidf("draft: docsd has no draft site structure; only false is accepted")
	}
	return nil
}
