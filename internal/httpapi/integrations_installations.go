package httpapi

import (
	"encoding/json"
	"net/http"

	"docsd/internal/auth"
	"docsd/internal/integration"
	"docsd/internal/wire"
)

// Installations of integrations on organizations, their tokens, and the organization's views of
// them.
func (s *Server) integrationInstallationRoutes() {
	s.handle("GET /v1/integrations/{integrationName}/installations", s.listIntegrationInstallations)
	s.handle("POST /v1/integrations/{integrationName}/installations", s.installIntegration)
	s.handle("GET /v1/integrations/{integrationName}/installations/{installationId}", s.getIntegrationInstallation)
	s.handle("PATCH /v1/integrations/{integrationName}/installations/{installationId}", s.updateIntegrationInstallation)
	s.handle("DELETE /v1/integrations/{integrationName}/installations/{installationId}", s.uninstallIntegration)
	s.handle("POST /v1/integrations/{integrationName}/installations/{installationId}/tokens", s.createInstallationToken)
	s.handle("GET /v1/orgs/{organizationId}/installations", s.listOrganizationInstallations)
	s.handle("GET /v1/orgs/{organizationId}/integrations/{integrationName}/installation_status", s.getOrganizationIntegrationStatus)
	s.handle("GET /v1/orgs/{organizationId}/integrations/installations-status", s.listOrganizationIntegrationsStatus)
}

func installationIDs(r *http.Request) (name, id string) {
	return r.PathValue("integrationName"), r.PathValue("installationId")
}

func (s *Server) listIntegrationInstallations(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	ext, err := queryString(r, "externalId", 256)
	if err != nil {
		return err
	}
	name := r.PathValue("integrationName")
	list := "integration-installations/" + name + "/" + ext
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Integrations.ListInstallations(r.Context(), c, name, integration.InstallationFilter{ExternalID: ext}, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromInstallation)
}

func (s *Server) installIntegration(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Organization string `json:"organization"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	in, err := s.Integrations.Install(r.Context(), c, r.PathValue("integrationName"), body.Organization)
	if err != nil {
		return err
	}
	out := s.urls.FromInstallation(in)
	return created(w, out.URLs.Location, out)
}

func (s *Server) getIntegrationInstallation(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	name, id := installationIDs(r)
	in, err := s.Integrations.GetInstallation(r.Context(), c, name, id)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromInstallation(in))
}

func (s *Server) updateIntegrationInstallation(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		ExternalIDs    *[]string       `json:"externalIds"`
		Configuration  json.RawMessage `json:"configuration"`
		SpaceSelection *string         `json:"space_selection"`
		SiteSelection  *string         `json:"site_selection"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	name, id := installationIDs(r)
	in, err := s.Integrations.UpdateInstallation(r.Context(), c, name, id, integration.InstallationUpdate{
		ExternalIDs: body.ExternalIDs, Configuration: body.Configuration, SpaceSelection: body.SpaceSelection,
		SiteSelection: body.SiteSelection})
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromInstallation(in))
}

func (s *Server) uninstallIntegration(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	name, id := installationIDs(r)
	deleted, err := s.Integrations.Uninstall(r.Context(), c, name, id)
	if err != nil {
		return err
	}
	return goneOrAbsent(w, deleted)
}

func (s *Server) createInstallationToken(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	name, id := installationIDs(r)
	tok, err := s.Integrations.CreateToken(r.Context(), c, name, id)
	if err != nil {
		return err
	}
	return ok(w, map[string]string{"token": tok})
}

func (s *Server) listOrganizationInstallations(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	search, err := queryString(r, "search", 200)
	if err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	list := "org-installations/" + orgID + "/" + search
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Integrations.ListOrgInstallations(r.Context(), c, orgID, search, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, func(o integration.OrgInstallation) orgInstallation {
		return orgInstallation{Integration: s.integrationWire(o.Integration), Installation: s.urls.FromInstallation(o.Installation)}
	})
}

type orgInstallation struct {
	Integration  wire.Integration  `json:"integration"`
	Installation wire.Installation `json:"installation"`
}

func (s *Server) getOrganizationIntegrationStatus(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	st, err := s.Integrations.OrgStatus(r.Context(), c, r.PathValue("organizationId"), r.PathValue("integrationName"))
	if err != nil {
		return err
	}
	return ok(w, map[string]string{"status": st})
}

func (s *Server) listOrganizationIntegrationsStatus(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	target, err := queryEnum(r, "target", "organization", "organization", "space", "site")
	if err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	list := "org-integration-status/" + orgID + "/" + target
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Integrations.OrgStatuses(r.Context(), c, orgID, target, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, func(st integration.Status) installedIntegration {
		return installedIntegration{Status: st.Status, Integration: s.integrationWire(st.Integration),
			Target: map[string]string{"type": st.TargetKind, st.TargetKind + "Id": st.TargetID}}
	})
}

type installedIntegration struct {
	Status      string            `json:"status"`
	Integration wire.Integration  `json:"integration"`
	Target      map[string]string `json:"target"`
}

// integrationList renders a whole list held in memory with the list envelope.
func integrationList[T, W any](w http.ResponseWriter, items []T, conv func(T) W) error {
	out := wire.List[W]{Count: len(items), Items: make([]W, 0, len(items))}
	for _, it := range items {
		out.Items = append(out.Items, conv(it))
	}
	return ok(w, out)
}
