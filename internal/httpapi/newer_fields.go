package httpapi

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"docsd/internal/apperr"
	"docsd/internal/opt"
	"docsd/internal/validate"
)

// The request fields below came with versions of the GitBook API newer than the reference
// (0.146.0). Their clients send them, so the strict decoder must not refuse them; docsd has
// nothing behind them yet, so each is checked for the type, shape and limits the newest spec
// gives and then not acted on. api/openapi.yaml lists them under x-docsd-accepted-unused.
// TestNewestRequestFieldsAccepted notices the next ones.

// templateRef is the newer spec's {id, params} naming a template to fill a new space with.
type templateRef struct {
	ID     *string         `json:"id"`
	Params json.RawMessage `json:"params"`
}

func (t *templateRef) check(field string) error {
	if t == nil {
		return nil
	}
	if t.ID == nil || *t.ID == "" {
		return validate.Required(field + ".id")
	}
	if len(t.Params) > 0 && t.Params[0] != '{' && string(t.Params) != "null" {
		return apperr.Invalidf("%s.params: must be an object", field)
	}
	return nil
}

// checkLocalized checks a map of locale to text, each at most max characters.
func checkLocalized(field string, m map[string]string, max int) error {
	for k, v := range m {
		if k == "" || utf8.RuneCountInString(k) > 16 {
			return apperr.Invalidf("%s: keys must be locales (1 to 16 characters)", field)
		}
		if err := validate.Length(field+"."+k, v, 0, max); err != nil {
			return err
		}
	}
	return nil
}

// newerSiteSpaceAdd: POST site-spaces.
type newerSiteSpaceAdd struct {
	Title    *string           `json:"title"`
	PageID   opt.Field[string] `json:"pageId"`
	Template *templateRef      `json:"template"`
}

func (n newerSiteSpaceAdd) check() error {
	if n.Title != nil {
		if err := validate.Length("title", *n.Title, 2, 128); err != nil {
			return err
		}
	}
	return n.Template.check("template")
}

// newerSiteSpacePatch: PATCH site-spaces/{siteSpaceId}.
type newerSiteSpacePatch struct {
	Hidden *bool             `json:"hidden"`
	PageID opt.Field[string] `json:"pageId"`
}

// newerSectionAdd: POST sections.
type newerSectionAdd struct {
	PageID             *string      `json:"pageId"`
	SiteSectionGroupID *string      `json:"siteSectionGroupId"`
	Template           *templateRef `json:"template"`
}

func (n newerSectionAdd) check() error { return n.Template.check("template") }

// newerSectionPatch: PATCH sections/{siteSectionId}.
type newerSectionPatch struct {
	LocalizedTitle       map[string]string `json:"localizedTitle"`
	LocalizedDescription map[string]string `json:"localizedDescription"`
	SiteSectionGroupID   opt.Field[string] `json:"siteSectionGroupId"`
}

func (n newerSectionPatch) check() error {
	return validate.First(checkLocalized("localizedTitle", n.LocalizedTitle, 128),
		checkLocalized("localizedDescription", n.LocalizedDescription, 256))
}

// newerGroupPatch: PATCH section-groups/{siteSectionGroupId}.
type newerGroupPatch struct {
	LocalizedTitle       map[string]string `json:"localizedTitle"`
	ParentSectionGroupID opt.Field[string] `json:"parentSectionGroupId"`
}

func (n newerGroupPatch) check() error {
	return checkLocalized("localizedTitle", n.LocalizedTitle, 128)
}

// newerSitePatch: PATCH sites/{siteId}.
type newerSitePatch struct {
	DefaultLevel opt.Field[string] `json:"defaultLevel"`
	Styleguide   opt.Field[string] `json:"styleguide"`
}

func (n newerSitePatch) check() error {
	if n.DefaultLevel.Set && !n.DefaultLevel.Null {
		return validate.OneOf("defaultLevel", n.DefaultLevel.Value, "admin", "create", "edit", "review", "comment", "read", "inherit")
	}
	return nil
}

// newerAuthPatch: PATCH publishing/auth.
type newerAuthPatch struct {
	LogoutURL opt.Field[string] `json:"logoutURL"`
}

func (n newerAuthPatch) check() error {
	if n.LogoutURL.Set && !n.LogoutURL.Null {
		return validate.HTTPURL("logoutURL", n.LogoutURL.Value, 2048)
	}
	return nil
}

// newerImport: POST imports.
type newerImport struct {
	Enhance *bool   `json:"enhance"`
	Site    *string `json:"site"`
}

// newerChangeRequestCreate: POST change-requests.
type newerChangeRequestCreate struct {
	Template *templateRef `json:"template"`
}

func (n newerChangeRequestCreate) check() error { return n.Template.check("template") }

// changeRequestLink is the newer spec's ChangeRequestLinkInput.
type changeRequestLink struct {
	ID    *string `json:"id"`
	Ref   *string `json:"ref"`
	Title *string `json:"title"`
}

// newerChangeRequestPatch: PATCH change-requests/{changeRequestId}.
type newerChangeRequestPatch struct {
	Links []changeRequestLink `json:"links"`
}

func (n newerChangeRequestPatch) check() error {
	if len(n.Links) > 10 {
		return apperr.Invalidf("links: at most 10 items (got %d)", len(n.Links))
	}
	for i, l := range n.Links {
		if l.Ref == nil {
			return validate.Required("links[" + strconv.Itoa(i) + "].ref")
		}
		if err := validate.HTTPURL("links["+strconv.Itoa(i)+"].ref", *l.Ref, 2048); err != nil {
			return err
		}
	}
	return nil
}

// newerTemplateApply: POST content/template.
type newerTemplateApply struct {
	ChangeRequestID *string `json:"changeRequestId"`
}
