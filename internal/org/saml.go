package org

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/opt"
	"docsd/internal/paging"
	"docsd/internal/validate"
)

// SAMLProvider is an identity provider that members of an organization can log in with.
type SAMLProvider struct {
	ID             string
	OrganizationID string
	Label          string
	EntityID       string // the identity provider's entity id; "" until configured
	Certificate    string // PEM certificate the provider signs with; "" until configured
	SSOURL         string // where login requests are sent; "" until configured
	DefaultTeamID  *string
	DefaultRole    auth.Role // role of users who join through the provider; Guest for guests
	Status         string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// A provider is pending until everything a login needs is configured, and active after.
const (
	SAMLActive  = "active"
	SAMLPending = "pending"
)

const (
	samlLabelMin       = 1
	samlLabelMax       = 30
	samlEntityIDMax    = 1024
	samlCertificateMax = 10000
	samlSSOURLMax      = 2048
)

func (p SAMLProvider) status() string {
	if p.EntityID != "" && p.Certificate != "" && p.SSOURL != "" {
		return SAMLActive
	}
	return SAMLPending
}

// SAMLTx stores SAML providers.
type SAMLTx interface {
	InsertSAMLProvider(ctx context.Context, p SAMLProvider) error
	// SAMLProvider returns a provider of orgID; ErrNotFound if none.
	SAMLProvider(ctx context.Context, orgID, id string) (SAMLProvider, error)
	UpdateSAMLProvider(ctx context.Context, p SAMLProvider) error
	// DeleteSAMLProvider removes a provider; deleting an absent one is no error.
	DeleteSAMLProvider(ctx context.Context, orgID, id string) error
	// SAMLProviders lists the providers of orgID, oldest first.
	SAMLProviders(ctx context.Context, orgID string, page paging.Request) (paging.Result[SAMLProvider], error)
	// ActiveSAMLProviders lists every active provider of orgID, oldest first.
	ActiveSAMLProviders(ctx context.Context, orgID string) ([]SAMLProvider, error)
}

// SAMLView is a provider with its default team as the caller sees it.
type SAMLView struct {
	SAMLProvider
	DefaultTeam *TeamView
}

// SAMLInput holds the fields of a create or update; unset fields are left as they are.
// entityID, certificate and ssoURL may be "" to mark them as not configured; defaultTeam and
// defaultRole may be null.
type SAMLInput struct {
	Label       opt.Field[string]
	EntityID    opt.Field[string]
	Certificate opt.Field[string]
	SSOURL      opt.Field[string]
	DefaultTeam opt.Field[string]
	DefaultRole opt.Field[string] // null for guests
}

func notNull(field string, f opt.Field[string]) error {
	if f.Set && f.Null {
		return apperr.Invalidf("%s: must be a string, not null", field)
	}
	return nil
}

// validate checks the input and normalises it in place.
func (in *SAMLInput) validate() error {
	if err := validate.First(notNull("label", in.Label), notNull("entityID", in.EntityID),
		notNull("certificate", in.Certificate), notNull("ssoURL", in.SSOURL)); err != nil {
		return err
	}
	if in.Label.Set {
		in.Label.Value = strings.TrimSpace(in.Label.Value)
		if err := validate.Length("label", in.Label.Value, samlLabelMin, samlLabelMax); err != nil {
			return err
		}
	}
	if in.EntityID.Set {
		if err := validate.Length("entityID", in.EntityID.Value, 0, samlEntityIDMax); err != nil {
			return err
		}
		in.EntityID.Value = strings.TrimSpace(in.EntityID.Value)
	}
	if in.Certificate.Set {
		cert, err := validateCertificate(in.Certificate.Value)
		if err != nil {
			return err
		}
		in.Certificate.Value = cert
	}
	if in.SSOURL.Set && in.SSOURL.Value != "" {
		if err := validate.HTTPURL("ssoURL", in.SSOURL.Value, samlSSOURLMax); err != nil {
			return err
		}
	}
	if in.DefaultTeam.Set && !in.DefaultTeam.Null && in.DefaultTeam.Value == "" {
		return apperr.Invalidf("defaultTeam: must be a team id or null (got \"\")")
	}
	if in.DefaultRole.Set && !in.DefaultRole.Null {
		if _, ok := auth.ParseRole(in.DefaultRole.Value); !ok {
			return apperr.Invalidf("defaultRole: must be one of %s, or null (got %q)", auth.RoleNames(), in.DefaultRole.Value)
		}
	}
	return nil
}

// validateCertificate checks that s is one PEM-encoded X.509 certificate (or "" for none)
// and returns it without surrounding whitespace. The limit applies to the text as sent.
func validateCertificate(s string) (string, error) {
	if err := validate.Length("certificate", s, 0, samlCertificateMax); err != nil {
		return "", err
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	bad := apperr.Invalidf("certificate: must be one PEM-encoded X.509 certificate (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----)")
	if !strings.HasPrefix(s, "-----BEGIN CERTIFICATE-----") {
		return "", bad
	}
	block, rest := pem.Decode([]byte(s))
	if block == nil || block.Type != "CERTIFICATE" || strings.TrimSpace(string(rest)) != "" {
		return "", bad
	}
	if _, err := x509.ParseCertificate(block.Bytes); err != nil {
		return "", apperr.Invalidf("certificate: is not a valid X.509 certificate: %v", err)
	}
	return s, nil
}

// apply copies the set fields of the input onto p.
func (in SAMLInput) apply(p *SAMLProvider) {
	if in.Label.Set {
		p.Label = in.Label.Value
	}
	if in.EntityID.Set {
		p.EntityID = in.EntityID.Value
	}
	if in.Certificate.Set {
		p.Certificate = in.Certificate.Value
	}
	if in.SSOURL.Set {
		p.SSOURL = in.SSOURL.Value
	}
	if in.DefaultTeam.Set {
		p.DefaultTeamID = in.DefaultTeam.Ptr()
	}
	if in.DefaultRole.Set {
		p.DefaultRole = auth.Role(in.DefaultRole.Value) // "" (guest) when null
	}
	p.Status = p.status()
}

// checkDefaultTeam refuses a default team that is not a team of the organization, and locks
// it so that it stays until the transaction commits.
func (s *Service) checkDefaultTeam(ctx context.Context, tx Tx, orgID string, in SAMLInput) error {
	if !in.DefaultTeam.Set || in.DefaultTeam.Null {
		return nil
	}
	err := tx.LockTeam(ctx, orgID, in.DefaultTeam.Value)
	if errors.Is(err, ErrNotFound) {
		return apperr.Invalidf("defaultTeam: %q is not a team of the organization", in.DefaultTeam.Value)
	}
	return err
}

// viewSAML embeds the provider's default team.
func (s *Service) viewSAML(ctx context.Context, tx Tx, caller Member, p SAMLProvider) (SAMLView, error) {
	v := SAMLView{SAMLProvider: p}
	if p.DefaultTeamID == nil {
		return v, nil
	}
	t, err := tx.Team(ctx, p.OrganizationID, *p.DefaultTeamID)
	if errors.Is(err, ErrNotFound) {
		return v, nil
	}
	if err != nil {
		return v, err
	}
	tv, err := s.viewTeam(ctx, tx, caller, t)
	v.DefaultTeam = &tv
	return v, err
}

func samlNotFound(id string) error { return apperr.NotFoundf("SAML provider %s not found", id) }

// CreateSAMLProvider adds a provider; only admins may. Without a defaultRole, users who join
// through the provider get the role the organization gives new members.
func (s *Service) CreateSAMLProvider(ctx context.Context, c auth.Caller, orgID string, in SAMLInput) (SAMLView, error) {
	if !in.Label.Set {
		return SAMLView{}, validate.Required("label")
	}
	if err := in.validate(); err != nil {
		return SAMLView{}, err
	}
	now := s.clock.Now()
	var v SAMLView
	err := s.store.Write(ctx, now, func(tx Tx) error {
		caller, err := s.requireAdmin(ctx, tx, c, orgID)
		if err != nil {
			return err
		}
		if err := s.checkDefaultTeam(ctx, tx, orgID, in); err != nil {
			return err
		}
		p := SAMLProvider{ID: ids.New(), OrganizationID: orgID, CreatedAt: now, UpdatedAt: now}
		if !in.DefaultRole.Set {
			o, err := tx.Organization(ctx, orgID)
			if err != nil {
				return err
			}
			p.DefaultRole = o.DefaultRole
		}
		in.apply(&p)
		if err := tx.InsertSAMLProvider(ctx, p); err != nil {
			return err
		}
		v, err = s.viewSAML(ctx, tx, caller, p)
		return err
	})
	return v, err
}

// GetSAMLProvider returns a provider to an admin.
func (s *Service) GetSAMLProvider(ctx context.Context, c auth.Caller, orgID, id string) (SAMLView, error) {
	tx := s.store.Read()
	caller, err := s.requireAdmin(ctx, tx, c, orgID)
	if err != nil {
		return SAMLView{}, err
	}
	p, err := tx.SAMLProvider(ctx, orgID, id)
	if errors.Is(err, ErrNotFound) {
		return SAMLView{}, samlNotFound(id)
	}
	if err != nil {
		return SAMLView{}, err
	}
	return s.viewSAML(ctx, tx, caller, p)
}

// ListSAMLProviders lists an organization's providers to an admin.
func (s *Service) ListSAMLProviders(ctx context.Context, c auth.Caller, orgID string, page paging.Request) (paging.Result[SAMLView], error) {
	tx := s.store.Read()
	caller, err := s.requireAdmin(ctx, tx, c, orgID)
	if err != nil {
		return paging.Result[SAMLView]{}, err
	}
	res, err := tx.SAMLProviders(ctx, orgID, page)
	if err != nil {
		return paging.Result[SAMLView]{}, err
	}
	out := paging.Result[SAMLView]{Count: res.Count, Next: res.Next, Items: make([]SAMLView, 0, len(res.Items))}
	for _, p := range res.Items {
		v, err := s.viewSAML(ctx, tx, caller, p)
		if err != nil {
			return out, err
		}
		out.Items = append(out.Items, v)
	}
	return out, nil
}

// UpdateSAMLProvider changes a provider; only admins may.
func (s *Service) UpdateSAMLProvider(ctx context.Context, c auth.Caller, orgID, id string, in SAMLInput) (SAMLView, error) {
	if err := in.validate(); err != nil {
		return SAMLView{}, err
	}
	now := s.clock.Now()
	var v SAMLView
	err := s.store.Write(ctx, now, func(tx Tx) error {
		caller, err := s.requireAdmin(ctx, tx, c, orgID)
		if err != nil {
			return err
		}
		p, err := tx.SAMLProvider(ctx, orgID, id)
		if errors.Is(err, ErrNotFound) {
			return samlNotFound(id)
		}
		if err != nil {
			return err
		}
		if err := s.checkDefaultTeam(ctx, tx, orgID, in); err != nil {
			return err
		}
		in.apply(&p)
		p.UpdatedAt = now
		if err := tx.UpdateSAMLProvider(ctx, p); err != nil {
			return err
		}
		v, err = s.viewSAML(ctx, tx, caller, p)
		return err
	})
	return v, err
}

// DeleteSAMLProvider removes a provider; only admins may. An absent provider is no error.
func (s *Service) DeleteSAMLProvider(ctx context.Context, c auth.Caller, orgID, id string) error {
	return s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		if _, err := s.requireAdmin(ctx, tx, c, orgID); err != nil {
			return err
		}
		return tx.DeleteSAMLProvider(ctx, orgID, id)
	})
}

// SSOLogins lists the providers members can log in to the organization with: the active
// ones, since a pending provider cannot complete a login. Anyone who can see the
// organization may ask.
func (s *Service) SSOLogins(ctx context.Context, c auth.Caller, orgID string) ([]SAMLProvider, error) {
	tx := s.store.Read()
	if _, err := s.access(ctx, tx, c, orgID); err != nil {
		return nil, err
	}
	return tx.ActiveSAMLProviders(ctx, orgID)
}
