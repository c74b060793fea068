package httpapi

import (
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/opt"
	"docsd/internal/space"
)

// contentPointer is the `{type: space, space: <id>}` or `{type: collection, collection: <id>}`
// body variant that positions name a sibling with.
type contentPointer struct {
	Type       string `json:"type"`
	Space      string `json:"space"`
	Collection string `json:"collection"`
}

func (p *contentPointer) pointer(field string) (*space.Pointer, error) {
	if p == nil {
		return nil, nil
	}
	switch {
	case p.Type == "space" && p.Space != "" && p.Collection == "":
		return &space.Pointer{Kind: space.SpaceKind, ID: p.Space}, nil
	case p.Type == "collection" && p.Collection != "" && p.Space == "":
		return &space.Pointer{Kind: space.CollectionKind, ID: p.Collection}, nil
	case p.Type != "space" && p.Type != "collection":
		return nil, apperr.Invalidf("%s.type: must be space or collection (got %q)", field, p.Type)
	}
	return nil, apperr.Invalidf("%s: must be {type: %s, %s: <id>}", field, p.Type, p.Type)
}

// decodeMove reads the body of a space or collection move.
func decodeMove(r *http.Request) (space.Move, error) {
	var body struct {
		Parent   opt.Field[string] `json:"parent"`
		Position *struct {
			Before *contentPointer `json:"before"`
			After  *contentPointer `json:"after"`
		} `json:"position"`
	}
	if err := decode(r, &body); err != nil {
		return space.Move{}, err
	}
	m := space.Move{Parent: body.Parent}
	if body.Position != nil {
		before, err := body.Position.Before.pointer("position.before")
		if err != nil {
			return m, err
		}
		after, err := body.Position.After.pointer("position.after")
		if err != nil {
			return m, err
		}
		m.Position = &space.Position{Before: before, After: after}
	}
	return m, nil
}

// transferBody is the body of a space or collection transfer. `parent` (a collection of the
// target organization) is our extension, named as in moves: the public API transfers "to an
// organization, a collection or both" without naming the collection's field.
type transferBody struct {
	Organization string  `json:"organization"`
	Parent       *string `json:"parent"`
}

func decodeTransfer(r *http.Request) (transferBody, error) {
	var body transferBody
	err := decode(r, &body)
	return body, err
}
