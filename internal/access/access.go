// Package access decides what a caller may do: every permission decision, for every kind of
// caller (members and guests of an organization, share-link readers, site visitors,
// installation tokens), is made here, from facts that only this package's store methods
// read. Handlers and domain services ask; none decides a role itself.
//
// A decision is one of three outcomes: allowed; refused as 404, for a caller who may not
// know the resource exists; refused as 403, for a caller who may see it but not do this.
package access

import (
	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// Outcome is what a decision says.
type Outcome int

const (
	Allow         Outcome = iota
	DenyNotFound          // the caller may not know the resource exists: 404
	DenyForbidden         // the caller sees it but may not do this: 403
)

// Decide is the outcome for a caller holding role on a resource when the action needs min:
// below read access the resource does not exist for them.
func Decide(role, min auth.Role) Outcome {
	switch {
	case !role.AtLeast(auth.Read):
		return DenyNotFound
	case !role.AtLeast(min):
		return DenyForbidden
	}
	return Allow
}

// Require is Decide as the API error a refusal answers (nil when allowed); kind and id name
// the resource in the message.
func Require(role, min auth.Role, kind, id string) error {
	switch Decide(role, min) {
	case DenyNotFound:
		return apperr.NotFoundf("%s %s not found", kind, id)
	case DenyForbidden:
		return apperr.Forbiddenf("this needs the %s role on %s %s (you have %s)", min, kind, id, role)
	}
	return nil
}
