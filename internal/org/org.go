// Package org holds organizations and what belongs to them: members, teams, invite links,
// SAML providers and docs-agent instructions, with the rules for who may do what.
package org

import (
	"context"

	"docsd/internal/access"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"

	"docsd/internal/account"
	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/clock"
	"docsd/internal/ids"
	"docsd/internal/mergerules"
	"docsd/internal/opt"
	"docsd/internal/paging"
	"docsd/internal/validate"
)

// Organization is a tenant: it owns spaces, sites and everything else, and groups members.
type Organization struct {
	ID                 string
	Title              string
	Hostname           *string
	Type               string // business or community
	UseCase            *string
	CommunityType      *string
	DefaultRole        auth.Role // Guest means new members join as guests
	DefaultContentSite *string
	LogoURL            *string
	SSO                bool
	AI                 bool
	InviteLinks        bool
	MergeRules         mergerules.Config
	EmailDomains       []string
	Plan               string
	CreatedAt          time.Time
	UpdatedAt          time.Time
}

// Self-hosted organizations have every feature; the plan and trial fields say so.
const (
	SelfHostedPlan  = "enterprise_2024"
	TypeBusiness    = "business"
	TrialNotApplies = "notapplicable"
	MaxEmailDomains = 50
	titleMin        = 2
	titleMax        = 255
	hostnameMin     = 3
	hostnameMax     = 32
	logoURLMax      = 2048
	emailDomainMax  = 253
)

var hostnamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$`)

var emailDomainPattern = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)

// Errors a Tx returns.
var (
	ErrNotFound      = errors.New("org: not found")
	ErrHostnameTaken = errors.New("org: hostname taken")
)

// Service implements the organization rules on top of a Store.
type Service struct {
	store   Store
	checker *access.Checker
	clock   clock.Clock
	spaces  SpaceCounter // nil until set
	sites   SiteCounter  // nil until set
}

// NewService returns the organization service; it asks acc for members' roles.
func NewService(s Store, acc *access.Checker, c clock.Clock) *Service {
	return &Service{store: s, checker: acc, clock: c}
}

// Store runs reads and write transactions over organization data.
type Store interface {
	Read() Tx
	Write(ctx context.Context, now time.Time, fn func(Tx) error) error
}

// Tx is every storage operation the org service needs, grouped by resource.
type Tx interface {
	OrgTx
	MemberTx
	access.Store
	TeamTx
	InviteTx
	SAMLTx
	AgentTx
}

// OrgTx stores organizations.
type OrgTx interface {
	InsertOrganization(ctx context.Context, o Organization) error
	Organization(ctx context.Context, id string) (Organization, error)
	// OrganizationByHostname finds the organization with that hostname; ErrNotFound if none.
	OrganizationByHostname(ctx context.Context, hostname string) (Organization, error)
	UpdateOrganization(ctx context.Context, o Organization) error
	// OrganizationsOf lists the organizations userID is a member of, ordered by id.
	OrganizationsOf(ctx context.Context, userID string, page paging.Request) (paging.Result[Organization], error)
	// OrganizationsForEmailDomain lists organizations that accept the domain, ordered by id.
	OrganizationsForEmailDomain(ctx context.Context, domain string, page paging.Request) (paging.Result[Organization], error)
}

// Create makes an organization owned by the user ownerID, who becomes its first admin.
func (s *Service) Create(ctx context.Context, title, ownerID string) (Organization, error) {
	title = strings.TrimSpace(title)
	if err := validate.Length("title", title, titleMin, titleMax); err != nil {
		return Organization{}, err
	}
	now := s.clock.Now()
	o := Organization{ID: ids.New(), Title: title, Type: TypeBusiness, DefaultRole: auth.Read, InviteLinks: true,
		MergeRules: mergerules.Default(), EmailDomains: []string{}, Plan: SelfHostedPlan, CreatedAt: now, UpdatedAt: now}
	err := s.store.Write(ctx, now, func(tx Tx) error {
		if err := tx.InsertOrganization(ctx, o); err != nil {
			return err
		}
		return tx.InsertMember(ctx, Member{OrganizationID: o.ID, User: account.User{ID: ownerID}, Role: auth.Admin, JoinedAt: now})
	})
	return o, err
}

// View is an organization as one caller sees it.
type View struct {
	Organization
	Caller Member // the caller's membership
}

// Permissions are what the caller may do with the organization (access.ForOrg).
func (v View) Permissions() OrgPermissions { return access.ForOrg(v.Caller.Role, v.Caller.OwnsTeam) }

// OrgPermissions is the `permissions` object of an organization.
type OrgPermissions = access.OrgPermissions

// access returns the caller's membership of orgID, for a caller the access component lets
// in (access.RequireOrg): non-members, and members whose membership is disabled, get 404.
func (s *Service) access(ctx context.Context, tx Tx, c auth.Caller, orgID string) (Member, error) {
	return s.require(ctx, tx, c, orgID, access.AnyMember)
}

// requireAdmin is access for admins (403 for other members).
func (s *Service) requireAdmin(ctx context.Context, tx Tx, c auth.Caller, orgID string) (Member, error) {
	return s.require(ctx, tx, c, orgID, access.OrgAdmin)
}

// requireMember is access for non-guest members (guests see only what they were granted).
func (s *Service) requireMember(ctx context.Context, tx Tx, c auth.Caller, orgID string) (Member, error) {
	return s.require(ctx, tx, c, orgID, access.NonGuest)
}

// require reads the caller's membership (which answers carry) and asks the access component
// whether it is enough.
func (s *Service) require(ctx context.Context, tx Tx, c auth.Caller, orgID string, need access.OrgNeed) (Member, error) {
	m, err := tx.Member(ctx, orgID, c.UserID)
	found := err == nil
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Member{}, err
	}
	if err := access.RequireOrg(m.Role, found && !m.Disabled, need, orgID); err != nil {
		if !found || m.Disabled {
			m = Member{}
		}
		return m, err
	}
	return m, nil
}

// Role returns the caller's role in orgID and whether they are an (enabled) member. Other
// domains (spaces, sites) build their permissions on it.
func (s *Service) Role(ctx context.Context, c auth.Caller, orgID string) (auth.Role, bool, error) {
	return s.checker.OrgRole(ctx, s.store.Read(), c, orgID)
}

// BySubdomain finds the organization whose hostname is subdomain: the address of its public
// content is public, so any caller may ask (404 when no organization has it).
func (s *Service) BySubdomain(ctx context.Context, subdomain string) (Organization, error) {
	o, err := s.store.Read().OrganizationByHostname(ctx, subdomain)
	if errors.Is(err, ErrNotFound) {
		return o, apperr.NotFoundf("subdomain %s is not taken by any organization", subdomain)
	}
	return o, err
}

// Get returns an organization the caller belongs to.
func (s *Service) Get(ctx context.Context, c auth.Caller, id string) (View, error) {
	tx := s.store.Read()
	m, err := s.access(ctx, tx, c, id)
	if err != nil {
		return View{}, err
	}
	o, err := tx.Organization(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return View{}, apperr.NotFoundf("organization %s not found", id)
	}
	return View{Organization: o, Caller: m}, err
}

// List returns the organizations the caller belongs to.
func (s *Service) List(ctx context.Context, c auth.Caller, page paging.Request) (paging.Result[View], error) {
	tx := s.store.Read()
	res, err := tx.OrganizationsOf(ctx, c.UserID, page)
	if err != nil {
		return paging.Result[View]{}, err
	}
	return s.views(ctx, tx, c, res)
}

func (s *Service) views(ctx context.Context, tx Tx, c auth.Caller, res paging.Result[Organization]) (paging.Result[View], error) {
	out := paging.Result[View]{Count: res.Count, Next: res.Next, Items: make([]View, 0, len(res.Items))}
	for _, o := range res.Items {
		m, err := tx.Member(ctx, o.ID, c.UserID)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return out, err
		}
		out.Items = append(out.Items, View{Organization: o, Caller: m})
	}
	return out, nil
}

// ForEmailDomain lists the organizations that users of an email domain may join. Only a
// caller whose own verified email is on that domain may ask, so the lookup cannot be used to
// discover other companies' organizations.
//
// The public API answers this lookup with one `{organizations: [...]}` object rather than a
// paginated list, so it returns at most MaxDomainOrganizations of them.
func (s *Service) ForEmailDomain(ctx context.Context, c auth.Caller, me account.User, domain string) ([]View, error) {
	domain = strings.ToLower(strings.TrimSpace(domain))
	if err := validateEmailDomain("emailDomain", domain); err != nil {
		return nil, err
	}
	if !me.EmailVerified || me.EmailDomain() != domain {
		return []View{}, nil
	}
	tx := s.store.Read()
	res, err := tx.OrganizationsForEmailDomain(ctx, domain, paging.Request{Limit: MaxDomainOrganizations})
	if err != nil {
		return nil, err
	}
	views, err := s.views(ctx, tx, c, res)
	return views.Items, err
}

// MaxDomainOrganizations bounds the email-domain lookup's answer.
const MaxDomainOrganizations = paging.MaxLimit

// Update holds the organization fields a PATCH may change; nil or unset leaves a field as is.
type Update struct {
	Title              *string
	EmailDomains       *[]string
	Hostname           *string
	DefaultRole        opt.Field[*string] // role name, or null for guests
	DefaultContentSite opt.Field[string]  // null removes
	Logo               opt.Field[string]  // null removes
	SSO                *bool
	AI                 *bool
	InviteLinks        *bool
	MergeRules         *mergerules.Config
}

func validateEmailDomain(field, d string) error {
	if len(d) > emailDomainMax || !emailDomainPattern.MatchString(d) {
		return apperr.Invalidf("%s: must be a domain name such as example.com (got %q)", field, d)
	}
	return nil
}

// validate checks an update and normalises it in place.
func (u *Update) validate() error {
	if u.Title != nil {
		t := strings.TrimSpace(*u.Title)
		if err := validate.Length("title", t, titleMin, titleMax); err != nil {
			return err
		}
		u.Title = &t
	}
	if u.EmailDomains != nil {
		if len(*u.EmailDomains) > MaxEmailDomains {
			return apperr.Invalidf("emailDomains: must hold at most %d domains", MaxEmailDomains)
		}
		seen := map[string]bool{}
		var out []string
		for i, d := range *u.EmailDomains {
			d = strings.ToLower(strings.TrimSpace(d))
			if err := validateEmailDomain("emailDomains["+strconv.Itoa(i)+"]", d); err != nil {
				return err
			}
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
		if out == nil {
			out = []string{}
		}
		u.EmailDomains = &out
	}
	if u.Hostname != nil {
		if err := validate.Length("hostname", *u.Hostname, hostnameMin, hostnameMax); err != nil {
			return err
		}
		if err := validate.Pattern("hostname", *u.Hostname, hostnamePattern); err != nil {
			return err
		}
	}
	if u.DefaultRole.Set && !u.DefaultRole.Null && u.DefaultRole.Value != nil {
		if _, ok := auth.ParseRole(*u.DefaultRole.Value); !ok {
			return apperr.Invalidf("defaultRole: must be one of %s, or null (got %q)", auth.RoleNames(), *u.DefaultRole.Value)
		}
	}
	if u.DefaultContentSite.Set && !u.DefaultContentSite.Null {
		if err := validate.Length("defaultContent.site", u.DefaultContentSite.Value, 1, 64); err != nil {
			return err
		}
	}
	if u.Logo.Set && !u.Logo.Null {
		if err := validate.HTTPURL("logo", u.Logo.Value, logoURLMax); err != nil {
			return err
		}
	}
	if u.MergeRules != nil {
		if err := u.MergeRules.Validate("mergeRules", false); err != nil {
			return err
		}
	}
	return nil
}

// Patch changes an organization; only admins may.
func (s *Service) Patch(ctx context.Context, c auth.Caller, id string, u Update) (View, error) {
	if err := u.validate(); err != nil {
		return View{}, err
	}
	now := s.clock.Now()
	var v View
	err := s.store.Write(ctx, now, func(tx Tx) error {
		m, err := s.requireAdmin(ctx, tx, c, id)
		if err != nil {
			return err
		}
		o, err := tx.Organization(ctx, id)
		if err != nil {
			return err
		}
		if u.Title != nil {
			o.Title = *u.Title
		}
		if u.EmailDomains != nil {
			o.EmailDomains = *u.EmailDomains
		}
		if u.Hostname != nil {
			o.Hostname = u.Hostname
		}
		if u.DefaultRole.Set {
			o.DefaultRole = auth.Guest
			if p := u.DefaultRole.Value; !u.DefaultRole.Null && p != nil {
				o.DefaultRole = auth.Role(*p)
			}
		}
		if u.DefaultContentSite.Set {
			o.DefaultContentSite = u.DefaultContentSite.Ptr()
		}
		if u.Logo.Set {
			o.LogoURL = u.Logo.Ptr()
		}
		if u.SSO != nil {
			o.SSO = *u.SSO
		}
		if u.AI != nil {
			o.AI = *u.AI
		}
		if u.InviteLinks != nil {
			o.InviteLinks = *u.InviteLinks
		}
		if u.MergeRules != nil {
			o.MergeRules = *u.MergeRules
			if o.MergeRules.Rules == nil && o.MergeRules.Type == mergerules.TypeRules {
				o.MergeRules.Rules = []mergerules.Rule{}
			}
		}
		o.UpdatedAt = now
		if err := tx.UpdateOrganization(ctx, o); err != nil {
			if errors.Is(err, ErrHostnameTaken) {
				return apperr.Conflictf("hostname: %q is already used by another organization", *o.Hostname)
			}
			return err
		}
		v = View{Organization: o, Caller: m}
		return nil
	})
	return v, err
}

// Lookup finds an organization by id or by subdomain, for features that show an organization
// to callers outside it (a public integration's owner); 404 when none matches.
func (s *Service) Lookup(ctx context.Context, idOrSubdomain string) (Organization, error) {
	tx := s.store.Read()
	o, err := tx.Organization(ctx, idOrSubdomain)
	if errors.Is(err, ErrNotFound) {
		o, err = tx.OrganizationByHostname(ctx, idOrSubdomain)
	}
	if errors.Is(err, ErrNotFound) {
		return o, apperr.NotFoundf("organization %s not found", idOrSubdomain)
	}
	return o, err
}
