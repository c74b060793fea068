package httpapi

import (
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/opt"
	"docsd/internal/site"
	"docsd/internal/validate"
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
		SpaceID   *string `json:"spaceId"`
		SectionID *string `json:"sectionId"`
	}
	if err := decode(r, &body); err != nil {
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
		Path      *string           `json:"path"`
		Condition opt.Field[string] `json:"condition"`
		SpaceID   *string           `json:"spaceId"`
	}
	if err := decode(r, &body); err != nil {
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

// movePointer is a position's pointer in the older move operations, which name the target
// in a field of its own (siteSpace, siteSection) or in id.
type movePointer struct {
	Type        string `json:"type"`
	ID          string `json:"id"`
	SiteSpace   string `json:"siteSpace"`
	SiteSection string `json:"siteSection"`
}

type movePosition struct {
	Before *movePointer `json:"before"`
	After  *movePointer `json:"after"`
}

// position reads a move's position; ref turns one pointer (and its field name) into a Ref.
func (p *movePosition) position(ref func(p movePointer, field string) (site.Ref, error)) (site.Position, error) {
	var out site.Position
	if p == nil {
		return out, nil
	}
	if p.Before != nil {
		r, err := ref(*p.Before, "position.before")
		if err != nil {
			return out, err
		}
		out.Before = &r
	}
	if p.After != nil {
		r, err := ref(*p.After, "position.after")
		if err != nil {
			return out, err
		}
		out.After = &r
	}
	return out, nil
}

// pointerOf reads a pointer of a fixed type whose id sits in the field named idField.
func pointerOf(kind, idField string, value func(movePointer) string) func(movePointer, string) (site.Ref, error) {
	return func(p movePointer, field string) (site.Ref, error) {
		if err := validate.OneOf(field+".type", p.Type, kind); err != nil {
			return site.Ref{}, err
		}
		if value(p) == "" {
			return site.Ref{}, validate.Required(field + "." + idField)
		}
		return site.Ref{Kind: kind, ID: value(p)}, nil
	}
}

func decodeMovePosition(r *http.Request) (*movePosition, error) {
	var body struct {
		Position *movePosition `json:"position"`
	}
	err := decode(r, &body)
	return body.Position, err
}

func (s *Server) moveSiteSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	p, err := decodeMovePosition(r)
	if err != nil {
		return err
	}
	pos, err := p.position(pointerOf(site.KindSiteSpace, "siteSpace", func(p movePointer) string { return p.SiteSpace }))
	if err != nil {
		return err
	}
	return s.moveItem(w, r, c, site.Ref{Kind: site.KindSiteSpace, ID: r.PathValue("siteSpaceId")}, pos)
}

func (s *Server) moveSiteSection(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	p, err := decodeMovePosition(r)
	if err != nil {
		return err
	}
	pos, err := p.position(pointerOf(site.KindSection, "siteSection", func(p movePointer) string { return p.SiteSection }))
	if err != nil {
		return err
	}
	return s.moveItem(w, r, c, site.Ref{Kind: site.KindSection, ID: r.PathValue("siteSectionId")}, pos)
}

func (s *Server) moveSiteSectionGroup(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	p, err := decodeMovePosition(r)
	if err != nil {
		return err
	}
	pos, err := p.position(func(p movePointer, field string) (site.Ref, error) { return site.GroupRef(p.Type, p.ID, field) })
	if err != nil {
		return err
	}
	return s.moveItem(w, r, c, site.Ref{Kind: site.KindGroup, ID: r.PathValue("siteSectionGroupId")}, pos)
}

func (s *Server) sortSiteStructure(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Item *struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		} `json:"item"`
		Position *movePosition `json:"position"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.Item == nil {
		return validate.Required("item")
	}
	if body.Position == nil {
		return validate.Required("position")
	}
	pos, err := body.Position.position(func(p movePointer, field string) (site.Ref, error) {
		if err := validate.OneOf(field+".type", p.Type, site.KindSiteSpace, site.KindSection, site.KindGroup); err != nil {
			return site.Ref{}, err
		}
		if p.ID == "" {
			return site.Ref{}, validate.Required(field + ".id")
		}
		return site.Ref{Kind: p.Type, ID: p.ID}, nil
	})
	if err != nil {
		return err
	}
	return s.moveItem(w, r, c, site.Ref{Kind: body.Item.Type, ID: body.Item.ID}, pos)
}

// moveItem moves an item and answers it, whichever kind it is.
func (s *Server) moveItem(w http.ResponseWriter, r *http.Request, c auth.Caller, item site.Ref, pos site.Position) error {
	orgID, id := siteIDs(r)
	m, err := s.Sites.Sort(r.Context(), c, orgID, id, item, pos)
	if err != nil {
		return err
	}
	sc, err := s.convAfter(r, c, m.Tree)
	if err != nil {
		return err
	}
	switch {
	case m.SiteSpace != nil:
		return ok(w, sc.siteSpace(*m.SiteSpace))
	case m.Section != nil:
		return ok(w, sc.section(*m.Section))
	case m.Group != nil:
		return ok(w, sc.group(*m.Group))
	}
	return apperr.New(apperr.Internal, "move returned no item")
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
		SpaceID *string           `json:"spaceId"`
		Title   opt.Field[string] `json:"title"`
		Icon    opt.Field[string] `json:"icon"`
	}
	if err := decode(r, &body); err != nil {
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
		Title            *string           `json:"title"`
		Path             *string           `json:"path"`
		DefaultSiteSpace *string           `json:"defaultSiteSpace"`
		Condition        opt.Field[string] `json:"condition"`
		Icon             opt.Field[string] `json:"icon"`
		Description      opt.Field[string] `json:"description"`
	}
	if err := decode(r, &body); err != nil {
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
	}
	if err := decode(r, &body); err != nil {
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
		Title *string           `json:"title"`
		Icon  opt.Field[string] `json:"icon"`
	}
	if err := decode(r, &body); err != nil {
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
