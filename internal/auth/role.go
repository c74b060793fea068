// Package auth holds who is calling (API tokens, the caller) and what roles mean.
package auth

import "strings"

// Role is a member's or grant's role. The empty Role stands for a guest (JSON null).
type Role string

const (
	Admin   Role = "admin"
	Create  Role = "create"
	Review  Role = "review"
	Edit    Role = "edit"
	Comment Role = "comment"
	Read    Role = "read"
	Guest   Role = ""
)

// Roles lists the roles strongest first.
var Roles = []Role{Admin, Create, Review, Edit, Comment, Read}

// rank orders roles: a higher rank includes every right of a lower one.
func (r Role) rank() int {
	switch r {
	case Admin:
		return 6
	case Create:
		return 5
	case Review:
		return 4
	case Edit:
		return 3
	case Comment:
		return 2
	case Read:
		return 1
	}
	return 0
}

// AtLeast reports whether r includes the rights of min. A guest is at least nothing.
func (r Role) AtLeast(min Role) bool { return min != Guest && r.rank() >= min.rank() }

// Stronger returns the stronger of two roles.
func Stronger(a, b Role) Role {
	if b.rank() > a.rank() {
		return b
	}
	return a
}

// ParseRole checks a role name; ok is false for an unknown name.
func ParseRole(s string) (Role, bool) {
	for _, r := range Roles {
		if string(r) == s {
			return r, true
		}
	}
	return Guest, false
}

// RoleNames is the list of role names for error messages.
func RoleNames() string {
	names := make([]string, len(Roles))
	for i, r := range Roles {
		names[i] = string(r)
	}
	return strings.Join(names, ", ")
}
