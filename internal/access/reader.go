package access

// DenyUnauthenticated refuses a reader who must prove who they are first (401), as a
// visitor of a site behind visitor authentication without a valid token.
const DenyUnauthenticated Outcome = DenyForbidden + 1

// Published-site visibilities, as sites name them.
const (
	SitePublic      = "public"
	SiteUnlisted    = "unlisted"
	SiteShareLink   = "share-link"
	SiteVisitorAuth = "visitor-auth"
)

// AdmitReader decides whether a reader of a published site with visibility may read it.
// The caller says what the reader proved (the serving code authenticates them: a share
// key it found active is a ShareLink caller, a visitor token it verified a SiteVisitor one):
// public and unlisted sites admit anyone; a share-link site admits its share-link readers
// and is absent (404) to anyone else, whose existence they must not learn; a site behind
// visitor authentication admits verified visitors and asks anyone else to sign in (401).
// An unknown visibility admits nobody.
func AdmitReader(visibility string, c Caller) Outcome {
	switch visibility {
	case SitePublic, SiteUnlisted:
		return Allow
	case SiteShareLink:
		if c.Kind == ShareLink {
			return Allow
		}
	case SiteVisitorAuth:
		if c.Kind == SiteVisitor {
			return Allow
		}
		return DenyUnauthenticated
	}
	return DenyNotFound
}
