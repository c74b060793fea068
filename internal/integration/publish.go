package integration

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // icons and previews may be GIF
	_ "image/jpeg" // or JPEG
	_ "image/png"  // or PNG
	"net/url"
	"regexp"
	"slices"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/jsrun"
	"docsd/internal/validate"
)

// NamePattern is the pattern of integration names.
var NamePattern = regexp.MustCompile(`^[a-zA-Z0-9-_.]+$`)

// Publication is the body of publishIntegration; nil fields keep the published value (and
// take the default for a new integration).
type Publication struct {
	Runtime        *string
	Icon           *string // base64
	Title          *string
	Description    *string
	Summary        *string
	PreviewImages  *[]string // base64 each
	Visibility     *string
	Target         *string
	Scopes         *[]string
	Categories     *[]string
	Blocks         *[]Block
	ContentSources json.RawMessage
	ExternalLinks  json.RawMessage
	Configurations json.RawMessage
	Script         *string
	Organization   *string
	Secrets        map[string]string
	CSP            json.RawMessage
}

// Publish creates an integration, or publishes a new version of one the caller's organization
// owns (version + 1). Errors: 400 for invalid fields, 404 when the organization is unknown to
// the caller, 403 for non-admins and for a name another organization owns.
func (s *Service) Publish(ctx context.Context, c auth.Caller, name string, p Publication) (View, error) {
	if err := validate.Pattern("integrationName", name, NamePattern); err != nil {
		return View{}, err
	}
	if len(name) > NameMax {
		return View{}, apperr.Invalidf("integrationName: must be at most %d characters", NameMax)
	}
	now := s.clock.Now()
	var out View
	err := s.store.Write(ctx, now, func(tx Tx) error {
		prev, err := tx.Integration(ctx, name)
		isNew := errors.Is(err, ErrNotFound)
		if err != nil && !isNew {
			return err
		}
		if isNew {
			for field, missing := range map[string]bool{"organization": p.Organization == nil, "title": p.Title == nil,
				"description": p.Description == nil, "script": p.Script == nil, "scopes": p.Scopes == nil} {
				if missing {
					return validate.Required(field)
				}
			}
		}
		orgID := prev.OrgID
		if !isNew {
			// Only the owner's admins publish new versions; to others a private integration
			// does not exist.
			if _, err := s.owned(ctx, tx, c, name); err != nil {
				return err
			}
		}
		if p.Organization != nil {
			o, err := s.orgs.Lookup(ctx, *p.Organization)
			if err != nil {
				return err
			}
			if _, member, err := s.member(ctx, c, o.ID); err != nil {
				return err
			} else if !member {
				return apperr.NotFoundf("organization %s not found", *p.Organization)
			}
			if !isNew && o.ID != prev.OrgID {
				return apperr.Forbiddenf("integration %s belongs to another organization", name)
			}
			orgID = o.ID
		}
		if err := s.requireOrgAdmin(ctx, c, orgID); err != nil {
			return err
		}
		it, images, err := s.apply(prev, isNew, p)
		if err != nil {
			return err
		}
		it.Name, it.OrgID, it.UpdatedAt = name, orgID, now
		if isNew {
			it.Version, it.CreatedAt = 1, now
			it.SealedSigning = s.seal.Seal(ids.Secret())
		} else {
			it.Version = prev.Version + 1
		}
		if err := tx.SaveIntegration(ctx, it, images); err != nil {
			return err
		}
		out = View{Integration: it, Admin: true}
		return nil
	})
	if err != nil {
		return View{}, err
	}
	return s.view(ctx, c, out.Integration)
}

// apply validates a publication and lays it over the previous version.
func (s *Service) apply(prev Integration, isNew bool, p Publication) (Integration, []Image, error) {
	it := prev
	m := &it.Manifest
	if isNew {
		it = Integration{Runtime: "v1", Visibility: "private", Target: "all"}
		m = &it.Manifest
		m.Scopes, m.Categories, m.Blocks = []string{}, []string{}, []Block{}
	}
	var errs []error
	enum := func(field string, v *string, allowed []string, dst *string) {
		if v != nil {
			if err := validate.OneOf(field, *v, allowed...); err != nil {
				errs = append(errs, err)
			}
			*dst = *v
		}
	}
	enum("runtime", p.Runtime, Runtimes, &it.Runtime)
	enum("visibility", p.Visibility, Visibilities, &it.Visibility)
	enum("target", p.Target, Targets, &it.Target)
	if p.Title != nil {
		errs = append(errs, validate.Length("title", *p.Title, TitleMin, TitleMax))
		m.Title = *p.Title
	}
	if p.Description != nil {
		errs = append(errs, validate.Length("description", *p.Description, 0, DescriptionMax))
		m.Description = *p.Description
	}
	if p.Summary != nil {
		errs = append(errs, validate.Length("summary", *p.Summary, 0, SummaryMax))
		m.Summary = *p.Summary
	}
	list := func(field string, v *[]string, allowed []string, dst *[]string) {
		if v == nil {
			return
		}
		for i, x := range *v {
			if err := validate.OneOf(fmt.Sprintf("%s[%d]", field, i), x, allowed...); err != nil {
				errs = append(errs, err)
			}
		}
		*dst = slices.Compact(slices.Sorted(slices.Values(*v)))
	}
	list("scopes", p.Scopes, Scopes, &m.Scopes)
	list("categories", p.Categories, Categories, &m.Categories)
	if p.Blocks != nil {
		errs = append(errs, checkBlocks(*p.Blocks))
		m.Blocks = *p.Blocks
	}
	if p.ContentSources != nil {
		errs = append(errs, checkContentSources(p.ContentSources))
		m.ContentSources = p.ContentSources
	}
	if p.ExternalLinks != nil {
		errs = append(errs, checkExternalLinks(p.ExternalLinks))
		m.ExternalLinks = p.ExternalLinks
	}
	if p.Configurations != nil {
		_, err := configurationSchemas(p.Configurations)
		errs = append(errs, err)
		m.Configurations = p.Configurations
	}
	if p.CSP != nil {
		errs = append(errs, checkCSP(p.CSP))
		m.CSP = p.CSP
	}
	if p.Script != nil {
		if len(*p.Script) > ScriptBytesMax {
			errs = append(errs, apperr.New(apperr.TooLarge, "script: must be at most %d bytes", ScriptBytesMax))
		} else if !validate.IsText(*p.Script) {
			errs = append(errs, apperr.Invalidf("script: must be UTF-8 text"))
		} else if _, err := jsrun.Prepare(*p.Script); err != nil {
			// A script that cannot run would fail every event: refuse it now, naming the line.
			var pe *jsrun.ParseError
			if !errors.As(err, &pe) {
				return it, nil, err
			}
			errs = append(errs, apperr.Invalidf("script: %s", pe.Error()))
		}
		it.Script = *p.Script
	}
	if p.Secrets != nil {
		if len(p.Secrets) > SecretsMax {
			errs = append(errs, apperr.Invalidf("secrets: at most %d secrets", SecretsMax))
		}
		raw, _ := json.Marshal(p.Secrets)
		it.SealedSecrets = s.seal.Seal(string(raw))
	} else if isNew {
		it.SealedSecrets = s.seal.Seal("{}")
	}
	var images []Image
	if p.Icon != nil {
		img, err := decodeImage("icon", *p.Icon, IconBytesMax)
		errs = append(errs, err)
		images = append(images, img)
		m.Icon = img.ID
	}
	if p.PreviewImages != nil {
		if len(*p.PreviewImages) > PreviewImagesMax {
			errs = append(errs, apperr.Invalidf("previewImages: at most %d images", PreviewImagesMax))
		}
		m.PreviewImages = []string{}
		for i, b64 := range *p.PreviewImages {
			img, err := decodeImage(fmt.Sprintf("previewImages[%d]", i), b64, PreviewImageBytesMax)
			errs = append(errs, err)
			images = append(images, img)
			m.PreviewImages = append(m.PreviewImages, img.ID)
		}
	}
	if err := validate.First(errs...); err != nil {
		return it, nil, err
	}
	return it, images, nil
}

// decodeImage checks that b64 holds a PNG, JPEG or GIF image within the caps; its id is
// derived from its bytes, so an unchanged image keeps its URL across versions.
func decodeImage(field, b64 string, max int) (Image, error) {
	data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil {
		return Image{}, apperr.Invalidf("%s: not base64", field)
	}
	if len(data) > max {
		return Image{}, apperr.New(apperr.TooLarge, "%s: image is %d bytes; at most %d", field, len(data), max)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Image{}, apperr.Invalidf("%s: not a PNG, JPEG or GIF image", field)
	}
	if cfg.Width > ImageDimensionMax || cfg.Height > ImageDimensionMax || cfg.Width == 0 || cfg.Height == 0 {
		return Image{}, apperr.Invalidf("%s: image is %dx%d; at most %dx%d", field, cfg.Width, cfg.Height, ImageDimensionMax, ImageDimensionMax)
	}
	if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
		return Image{}, apperr.Invalidf("%s: the %s image is damaged", field, format)
	}
	return Image{ID: contentID(data) + "." + format, ContentType: "image/" + format, Data: data}, nil
}

func checkBlocks(blocks []Block) error {
	seen := map[string]bool{}
	for i, b := range blocks {
		f := fmt.Sprintf("blocks[%d]", i)
		if b.ID == "" {
			return validate.Required(f + ".id")
		}
		if seen[b.ID] {
			return apperr.Invalidf("%s.id: %q is used by another block", f, b.ID)
		}
		seen[b.ID] = true
		if err := validate.First(validate.Length(f+".title", b.Title, BlockTitleMin, BlockTitleMax),
			validate.Length(f+".description", b.Description, 0, BlockDescriptionMax)); err != nil {
			return err
		}
		if b.Markdown != nil {
			var md struct {
				Codeblock *string `json:"codeblock"`
				Body      *string `json:"body"`
			}
			if json.Unmarshal(b.Markdown, &md) != nil || md.Codeblock == nil || md.Body == nil {
				return apperr.Invalidf("%s.markdown: must be {codeblock, body}", f)
			}
		}
	}
	return nil
}

func checkContentSources(raw json.RawMessage) error {
	var sources []struct {
		ID            string `json:"id"`
		Title         string `json:"title"`
		Description   string `json:"description"`
		Configuration *struct {
			ComponentID string `json:"componentId"`
		} `json:"configuration"`
	}
	if err := json.Unmarshal(raw, &sources); err != nil {
		return apperr.Invalidf("contentSources: must be an array of {id, title, configuration}")
	}
	for i, cs := range sources {
		f := fmt.Sprintf("contentSources[%d]", i)
		if cs.ID == "" || cs.Configuration == nil || cs.Configuration.ComponentID == "" {
			return apperr.Invalidf("%s: id and configuration.componentId are required", f)
		}
		if err := validate.First(validate.Length(f+".title", cs.Title, BlockTitleMin, BlockTitleMax),
			validate.Length(f+".description", cs.Description, 0, BlockDescriptionMax)); err != nil {
			return err
		}
	}
	return nil
}

func checkExternalLinks(raw json.RawMessage) error {
	var links []struct {
		URL   *string `json:"url"`
		Label *string `json:"label"`
	}
	if err := json.Unmarshal(raw, &links); err != nil {
		return apperr.Invalidf("externalLinks: must be an array of {url, label}")
	}
	if len(links) > ExternalLinksMax {
		return apperr.Invalidf("externalLinks: at most %d links", ExternalLinksMax)
	}
	for i, l := range links {
		f := fmt.Sprintf("externalLinks[%d]", i)
		if l.URL == nil || l.Label == nil {
			return apperr.Invalidf("%s: url and label are required", f)
		}
		if err := validate.HTTPURL(f+".url", *l.URL, 2048); err != nil {
			return err
		}
	}
	return nil
}

// cspDirectives are the directives a contentSecurityPolicy object may hold.
var cspDirectives = []string{"base-uri", "block-all-mixed-content", "child-src", "connect-src", "default-src",
	"font-src", "form-action", "frame-ancestors", "frame-src", "img-src", "manifest-src", "media-src", "navigate-to",
	"object-src", "plugin-types", "prefetch-src", "referrer", "report-to", "report-uri", "require-sri-for",
	"require-trusted-types-for", "sandbox", "script-src", "script-src-attr", "script-src-elem", "style-src",
	"style-src-attr", "style-src-elem", "trusted-types", "upgrade-insecure-requests", "worker-src"}

// checkCSP accepts a policy string or an object of directives; it is sent as a header later,
// so no line breaks or control characters.
func checkCSP(raw json.RawMessage) error {
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return cspValue("contentSecurityPolicy", str)
	}
	var obj map[string]string
	if err := json.Unmarshal(raw, &obj); err != nil {
		return apperr.Invalidf("contentSecurityPolicy: must be a string or an object of directives")
	}
	for k, v := range obj {
		if !slices.Contains(cspDirectives, k) {
			return apperr.Invalidf("contentSecurityPolicy.%s: not a Content-Security-Policy directive", k)
		}
		if err := cspValue("contentSecurityPolicy."+k, v); err != nil {
			return err
		}
	}
	return nil
}

func cspValue(field, v string) error {
	if len(v) > 4096 || strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return apperr.Invalidf("%s: must be a header value of at most 4096 characters, on one line", field)
	}
	return nil
}

// CSPHeader renders the policy as the header value it is sent as.
func CSPHeader(raw json.RawMessage) string {
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str
	}
	var obj map[string]string
	if json.Unmarshal(raw, &obj) != nil {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range obj {
			if !yield(k) {
				return
			}
		}
	}) {
		parts = append(parts, strings.TrimSpace(k+" "+obj[k]))
	}
	return strings.Join(parts, "; ")
}

// blockDomains are the host names of a block's unfurl patterns.
func blockDomains(b Block) []string {
	var out []string
	for _, u := range b.URLUnfurl {
		if p, err := url.Parse(u); err == nil && p.Hostname() != "" {
			out = append(out, strings.ToLower(p.Hostname()))
		}
	}
	return out
}
