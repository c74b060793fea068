package httpapi

import (
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/site"
	"docsd/internal/validate"
)

// Moves in a site's structure: sortSiteStructure and the older move operations of site
// spaces, sections and section groups, all one move in the site service.

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
