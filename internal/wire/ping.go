package wire

// Ping is the answer to a member's ping. The optional visitor-claims token is not issued
// (docsd attaches no claims to users), so the answer is an empty object.
type Ping struct {
	PlatformVisitorClaims string `json:"platformVisitorClaims,omitempty"`
}
