package sitepub

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"docsd/internal/access"
	"docsd/internal/apperr"
	"docsd/internal/clock"
)

// Service answers the questions serving asks: which site, may this reader read it, and what
// do they see.
type Service struct {
	src   Source
	clock clock.Clock
	eval  *Evaluator

	mu      sync.Mutex
	schemas map[string]*ClaimSchema // compiled adaptive schemas, by their text
}

// NewService returns the published-site service over src.
func NewService(src Source, c clock.Clock) *Service {
	return &Service{src: src, clock: c, eval: NewEvaluator(), schemas: map[string]*ClaimSchema{}}
}

// maxCachedSchemas bounds the compiled adaptive schemas kept; one per site is plenty.
const maxCachedSchemas = 1024

// claimSchema compiles a site's adaptive schema once per version of its text.
func (s *Service) claimSchema(schema json.RawMessage) *ClaimSchema {
	key := string(schema)
	s.mu.Lock()
	cs, ok := s.schemas[key]
	s.mu.Unlock()
	if ok {
		return cs
	}
	cs = CompileClaimSchema(schema)
	s.mu.Lock()
	if len(s.schemas) >= maxCachedSchemas {
		clear(s.schemas)
	}
	s.schemas[key] = cs
	s.mu.Unlock()
	return cs
}

// Site returns the published site of an organization with a basename; an unpublished or
// absent site is a 404.
func (s *Service) Site(ctx context.Context, orgID, basename string) (Site, error) {
	site, err := s.src.SiteByBasename(ctx, orgID, basename)
	return published(site, err, "site "+basename)
}

// SiteByHostname returns the published site with that hostname (port and case ignored).
func (s *Service) SiteByHostname(ctx context.Context, host string) (Site, error) {
	host = strings.ToLower(host)
	if h, _, ok := strings.Cut(host, ":"); ok {
		host = h
	}
	site, err := s.src.SiteByHostname(ctx, host)
	return published(site, err, "site at "+host)
}

func published(site Site, err error, what string) (Site, error) {
	if err != nil {
		return Site{}, err
	}
	if !site.Published {
		return Site{}, apperr.NotFoundf("%s is not published", what)
	}
	return site, nil
}

// Reader is what a request brings to identify its reader.
type Reader struct {
	ShareKey       string              // from the query or the site's share cookie
	Token          string              // visitor token, from the query or the cookie
	UnsignedCookie string              // the public claims cookie's JSON
	Query          map[string][]string // for visitor.<name> unsigned claims
}

// Admission is a reader let in, with the claims that decide what they see.
type Admission struct {
	Claims Claims
	// NoIndex asks search engines not to index what this reader sees.
	NoIndex bool
}

// Refusal is a reader kept out: NotFound (share-link sites, whose existence a reader without
// the key must not learn) or Unauthorized with the login URL to send them to, if any.
type Refusal struct {
	Unauthorized bool
	LoginURL     string
	Reason       error
}

func (r *Refusal) Error() string { return "reader refused: " + r.Reason.Error() }

// Admit decides whether reader may read site. It authenticates the reader (an active share
// key, a valid visitor token) and leaves the decision to the access component
// (access.AdmitReader). Errors are a *Refusal, or a storage failure.
func (s *Service) Admit(ctx context.Context, site Site, reader Reader) (Admission, error) {
	adm := Admission{NoIndex: site.Visibility != Public}
	caller := access.Caller{Kind: access.Anonymous, Site: site.ID}
	reason := errors.New("unknown visibility " + string(site.Visibility))
	switch site.Visibility {
	case ShareLink:
		reason = errors.New("no active share link key")
		if reader.ShareKey != "" {
			ok, err := s.src.ShareKeyActive(ctx, site.ID, reader.ShareKey)
			if err != nil {
				return adm, err
			}
			if ok {
				caller.Kind, caller.ShareKey = access.ShareLink, reader.ShareKey
			}
		}
	case VisitorAuth:
		claims, err := VerifyToken(reader.Token, site.Auth.Key, s.clock.Now())
		if err == nil {
			caller.Kind, caller.Claims = access.SiteVisitor, claims
			adm.Claims.Signed = claims
		}
		reason = err
	}
	switch access.AdmitReader(string(site.Visibility), caller) {
	case access.DenyUnauthenticated:
		return adm, &Refusal{Unauthorized: true, LoginURL: site.Auth.FallbackURL, Reason: reason}
	case access.Allow:
	default:
		return adm, &Refusal{Reason: reason}
	}
	adm.Claims.Unsigned = s.claimSchema(site.AdaptiveSchema).Unsigned(reader.UnsignedCookie, reader.Query)
	return adm, nil
}

// SignedClaims verifies an optional visitor token on a site that is not behind visitor auth
// (adaptive content through the signed cookie): a valid token adds its claims, anything else
// adds none.
func (s *Service) SignedClaims(site Site, token string) map[string]any {
	if token == "" || site.Visibility == VisitorAuth {
		return nil
	}
	claims, err := VerifyToken(token, site.Auth.Key, s.clock.Now())
	if err != nil {
		return nil
	}
	return claims
}

// Structure returns what a reader with claims sees of the site's structure.
func (s *Service) Structure(ctx context.Context, site Site, c Claims) (Structure, error) {
	st, err := s.src.Structure(ctx, site)
	if err != nil {
		return Structure{}, err
	}
	return Visible(st, s.eval, c), nil
}

// Visible reports whether a condition holds for claims (see Evaluator.Visible).
func (s *Service) Visible(condition string, c Claims) bool { return s.eval.Visible(condition, c) }

// Now is the service's clock, for cookie expiries.
func (s *Service) Now() time.Time { return s.clock.Now() }
