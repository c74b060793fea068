package httpapi_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"docsd/internal/auth"
)

// routeNeed is the least a caller needs for an operation.
type routeNeed struct {
	// anyone: no credentials needed; pathToken: a token in the path decides, the same for
	// every caller; user: any valid token (the caller's own account); otherwise role, the
	// organization role (on the fixtures, whose default levels inherit it, also the role on
	// each space and collection). notAuthor refuses the author of the fixture (the admin)
	// with 403 whatever their role.
	anyone, pathToken, user bool
	role                    auth.Role
	notAuthor               bool
}

var (
	needAnyone  = routeNeed{anyone: true}
	needUser    = routeNeed{user: true}
	needRead    = routeNeed{role: auth.Read}
	needComment = routeNeed{role: auth.Comment}
	needEdit    = routeNeed{role: auth.Edit}
	needReview  = routeNeed{role: auth.Review}
	needCreate  = routeNeed{role: auth.Create}
	needAdmin   = routeNeed{role: auth.Admin}

	needPathToken       = routeNeed{pathToken: true}
	needReviewNotAuthor = routeNeed{role: auth.Review, notAuthor: true}
)

// judge says what is wrong with the status callers[i] got ("" when it is right).
func (n routeNeed) judge(op *fuzzOp, callers []routeCaller, statuses []int, i int) string {
	c, status := callers[i], statuses[i]
	refused := status == 401 || status == 403
	admin := statuses[len(statuses)-1]
	switch {
	case n.pathToken:
		if status != statuses[0] || status < 400 {
			return "want the same refusal for every caller: the path's token decides"
		}
		return ""
	case c.installation:
		return n.judgeInstallation(op, callers, statuses, i)
	case n.anyone:
		if refused {
			return "want it let through: anyone may call it"
		}
		return ""
	case c.role == "" && c.name != "outsider":
		if status != 401 {
			return "want 401: it needs a valid token"
		}
		return ""
	case n.user:
		if refused {
			return "want it let through: any user may call it"
		}
		return ""
	case c.role == "":
		if !crossOrgStatusOK(op, status) {
			return "want 404: a user of no organization here may not know it exists"
		}
		return ""
	case n.notAuthor && c.role == auth.Admin:
		if status != 403 {
			return "want 403: the author may not do this"
		}
		return ""
	case !c.role.AtLeast(n.role):
		switch {
		case status == 403:
		case status == 400 && admin == 400:
			// The body is refused whoever sends it.
		case (status == 404 || status == 204 && op.method == http.MethodDelete) && admin == 404:
			// The object is not there (or gone under an earlier call) for anyone.
		default:
			return "want 403: it needs the " + string(n.role) + " role"
		}
		return ""
	case refused:
		return "want it let through: it needs the " + string(n.role) + " role"
	case status == 404:
		// An object gone under a stronger caller's earlier call, or a request the admin is
		// refused as well, says nothing of access.
		for j := range i {
			if callers[j].role != "" && statuses[j] < 300 && op.method != http.MethodGet {
				return ""
			}
		}
		if admin == 404 {
			return ""
		}
		return "want it let through: the admin is, and it needs the " + string(n.role) + " role"
	}
	return ""
}

// installationSpaceObjects are the operations outside /v1/spaces/{spaceId} whose object
// belongs to one space, and is read by whoever reads the space: an import run.
var installationSpaceObjects = map[string]bool{
	"GET /v1/org/{organizationId}/imports/{importRunId}": true,
}

// installationRefused are the reads of a covered space that an installation token is refused
// whatever its scopes: who holds access to the space is no content.
var installationRefused = map[string]bool{
	"GET /v1/spaces/{spaceId}/permissions/aggregate": true,
	"GET /v1/spaces/{spaceId}/permissions/teams":     true,
	"GET /v1/spaces/{spaceId}/permissions/users":     true,
}

// judgeInstallation judges the answer to an integration installation's token, installed on
// every space of the organization (see routeCaller.install). The token belongs to no member:
// outside the spaces it covers it is a stranger to the organization, and gets what a user of
// no organization here gets; within them it reads with the role its scopes give. It changes
// nothing outside its integration's operations (403 for every such change), and the fixture
// integration is not its own: there too it gets what a stranger gets.
func (n routeNeed) judgeInstallation(op *fuzzOp, callers []routeCaller, statuses []int, i int) string {
	c, status := callers[i], statuses[i]
	outsider := statuses[slices.IndexFunc(callers, func(c routeCaller) bool { return c.name == "outsider" })]
	asOutsider := func() string {
		if status == outsider || (crossOrgStatusOK(op, status) && crossOrgStatusOK(op, outsider)) {
			return ""
		}
		return fmt.Sprintf("want what a user of no organization here gets (%d)", outsider)
	}
	write := op.method != http.MethodGet && op.method != http.MethodHead
	integrationOp := strings.HasPrefix(op.path, "/v1/integrations/")
	spaceOp := strings.HasPrefix(op.path, "/v1/spaces/{spaceId}") || installationSpaceObjects[op.key()]
	switch {
	case status >= 500:
		return "want no server error"
	case write && !integrationOp:
		if status != 403 {
			return "want 403: an installation token changes only its integration's objects"
		}
		return ""
	case n.anyone:
		if status == 401 || status == 403 {
			return "want it let through: anyone may call it"
		}
		return ""
	case integrationOp:
		return asOutsider()
	case n.user:
		// Its own account's operations: an installation acts for no user.
		if status != 404 && asOutsider() != "" {
			return "want 404 (no user) or what a user of no organization here gets"
		}
		return ""
	case spaceOp && c.install.AtLeast(auth.Read):
		switch {
		case installationRefused[op.key()]:
			if status != 403 {
				return "want 403: an installation does not read who has access"
			}
		case !c.install.AtLeast(n.role):
			if status != 403 && !(status == 404 && statuses[len(statuses)-1] == 404) {
				return "want 403: its scopes give it the " + string(c.install) + " role, it needs " + string(n.role)
			}
		case status == 401 || status == 403:
			return "want it let through: its scopes give it the " + string(c.install) + " role on the space"
		case status == 404 && statuses[len(statuses)-1] != 404:
			return "want it found: the installation covers the space"
		}
		return ""
	}
	return asOutsider()
}

// routeNeeds is the least each operation of api/openapi.yaml needs, written once.
var routeNeeds = map[string]routeNeed{
	"DELETE /v1/collections/{collectionId}":                                                                        needAdmin,
	"DELETE /v1/collections/{collectionId}/permissions/teams/{teamId}":                                             needAdmin,
	"DELETE /v1/collections/{collectionId}/permissions/users/{userId}":                                             needAdmin,
	"DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}":                                                     needAdmin,
	"DELETE /v1/orgs/{organizationId}/members/{userId}":                                                            needAdmin,
	"DELETE /v1/orgs/{organizationId}/saml/{samlProviderId}":                                                       needAdmin,
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}":                                                              needAdmin,
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}":                          needAdmin,
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}": needAdmin,
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}":                                     needAdmin,
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}":                                    needAdmin,
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}":                                    needAdmin,
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization":                      needAdmin,
	"DELETE /v1/orgs/{organizationId}/teams/{teamId}":                                                              needAdmin,
	"DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}":                                             needAdmin,
	"DELETE /v1/spaces/{spaceId}":                                                                                  needAdmin,
	"DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}":                           needAdmin, // its author or a space admin: the fixture's author is the admin
	"DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}":  needRead,  // the reply fixture is not under this comment: a DELETE of what is absent is 204 to every member
	"DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pages/{pageId}":                                 needEdit,
	"DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}":                   needEdit,
	"DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reusable-contents/{reusableContentId}":          needEdit,
	"DELETE /v1/spaces/{spaceId}/comments/{commentId}":                                                             needComment,
	"DELETE /v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}":                                    needComment,
	"DELETE /v1/spaces/{spaceId}/permissions/teams/{teamId}":                                                       needAdmin,
	"DELETE /v1/spaces/{spaceId}/permissions/users/{userId}":                                                       needAdmin,
	"GET /healthz":                           needAnyone,
	"GET /metrics":                           needAnyone,
	"GET /readyz":                            needAnyone,
	"GET /sites/{organizationId}/{basename}": needAnyone,
	"GET /sites/{organizationId}/{basename}/{path}": needAnyone,
	"GET /v1/":                           needAnyone,
	"GET /v1/collections/{collectionId}": needRead,
	"GET /v1/collections/{collectionId}/permissions/aggregate": needRead,
	"GET /v1/collections/{collectionId}/permissions/teams":     needRead,
	"GET /v1/collections/{collectionId}/permissions/users":     needRead,
	"GET /v1/collections/{collectionId}/spaces":                needRead,
	"GET /v1/email-domains/{emailDomain}/orgs":                 needUser,
	"GET /v1/openapi.json":                                     needAnyone,
	"GET /v1/openapi.yaml":                                     needAnyone,
	"GET /v1/org/{organizationId}/imports":                     needRead,
	"GET /v1/org/{organizationId}/imports/{importRunId}":       needRead,
	"GET /v1/orgs":                                                                                             needUser,
	"GET /v1/orgs/{organizationId}":                                                                            needRead,
	"GET /v1/orgs/{organizationId}/agent-instructions":                                                         needRead,
	"GET /v1/orgs/{organizationId}/change-requests":                                                            needRead,
	"GET /v1/orgs/{organizationId}/collections":                                                                needRead,
	"GET /v1/orgs/{organizationId}/link-invites":                                                               needAdmin,
	"GET /v1/orgs/{organizationId}/link-invites/{inviteId}":                                                    needUser, // whoever holds the invite
	"GET /v1/orgs/{organizationId}/members":                                                                    needRead,
	"GET /v1/orgs/{organizationId}/members/{userId}":                                                           needRead,
	"GET /v1/orgs/{organizationId}/members/{userId}/spaces":                                                    needRead,
	"GET /v1/orgs/{organizationId}/members/{userId}/teams":                                                     needRead,
	"GET /v1/orgs/{organizationId}/saml":                                                                       needAdmin,
	"GET /v1/orgs/{organizationId}/saml/{samlProviderId}":                                                      needAdmin,
	"GET /v1/orgs/{organizationId}/search":                                                                     needRead,
	"GET /v1/orgs/{organizationId}/sites":                                                                      needRead,
	"GET /v1/orgs/{organizationId}/sites/{siteId}":                                                             needRead,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/agent-settings":                                              needRead,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/agents/feedback":                                             needAdmin,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema":                                             needRead,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions":                         needRead,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/customization":                                               needRead,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/published":                                                   needRead,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth":                                             needAdmin,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/section-groups":                                              needRead,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/sections":                                                    needRead,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/share-links":                                                 needAdmin,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/site-spaces":                                                 needRead,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization":                     needRead,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/structure":                                                   needRead,
	"GET /v1/orgs/{organizationId}/spaces":                                                                     needRead,
	"GET /v1/orgs/{organizationId}/sso":                                                                        needRead,
	"GET /v1/orgs/{organizationId}/teams":                                                                      needRead,
	"GET /v1/orgs/{organizationId}/teams/{teamId}":                                                             needRead,
	"GET /v1/orgs/{organizationId}/teams/{teamId}/members":                                                     needRead,
	"GET /v1/pdf/{token}":                                                                                      needPathToken, // the token in the path decides
	"GET /v1/spaces/{spaceId}":                                                                                 needRead,
	"GET /v1/spaces/{spaceId}/change-requests":                                                                 needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}":                                               needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes":                                       needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/commenters":                                    needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments":                                      needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}":                          needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies":                  needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}": needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content":                                       needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files":                                 needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}":                        needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks":              needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}":                         needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/backlinks":               needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links":                   needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages":                                 needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/path/{pagePath}":                       needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}": needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/contributors":                                  needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/links":                                         needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf":                                           needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers":                           needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews":                                       needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}":                            needRead,
	"GET /v1/spaces/{spaceId}/commenters":                                                                      needRead,
	"GET /v1/spaces/{spaceId}/comments":                                                                        needRead,
	"GET /v1/spaces/{spaceId}/comments/{commentId}":                                                            needRead,
	"GET /v1/spaces/{spaceId}/comments/{commentId}/replies":                                                    needRead,
	"GET /v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}":                                   needRead,
	"GET /v1/spaces/{spaceId}/content":                                                                         needRead,
	"GET /v1/spaces/{spaceId}/content/files":                                                                   needRead,
	"GET /v1/spaces/{spaceId}/content/files/{fileId}":                                                          needRead,
	"GET /v1/spaces/{spaceId}/content/files/{fileId}/backlinks":                                                needRead,
	"GET /v1/spaces/{spaceId}/content/page/{pageId}":                                                           needRead,
	"GET /v1/spaces/{spaceId}/content/page/{pageId}/backlinks":                                                 needRead,
	"GET /v1/spaces/{spaceId}/content/page/{pageId}/links":                                                     needRead,
	"GET /v1/spaces/{spaceId}/content/pages":                                                                   needRead,
	"GET /v1/spaces/{spaceId}/content/path/{pagePath}":                                                         needRead,
	"GET /v1/spaces/{spaceId}/content/reusable-contents/{reusableContentId}":                                   needRead,
	"GET /v1/spaces/{spaceId}/documents/{documentId}":                                                          needRead,
	"GET /v1/spaces/{spaceId}/embed":                                                                           needRead,
	"GET /v1/spaces/{spaceId}/git/info":                                                                        needRead,
	"GET /v1/spaces/{spaceId}/links":                                                                           needRead,
	"GET /v1/spaces/{spaceId}/pdf":                                                                             needRead,
	"GET /v1/spaces/{spaceId}/permissions/aggregate":                                                           needRead,
	"GET /v1/spaces/{spaceId}/permissions/teams":                                                               needRead,
	"GET /v1/spaces/{spaceId}/permissions/users":                                                               needRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}":                                                          needRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/changes":                                                  needRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/files":                                                    needRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}":                                           needRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}/download":                                  needRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}":                                            needRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document":                                   needRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/pages":                                                    needRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath}":                                          needRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}":                    needRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document":           needRead,
	"GET /v1/spaces/{spaceId}/search":                                                                          needRead,
	"GET /v1/subdomains/{subdomain}":                                                                           needUser,
	"GET /v1/urls/content":                                                                                     needUser,
	"GET /v1/urls/embed":                                                                                       needUser,
	"GET /v1/urls/published":                                                                                   needUser,
	"GET /v1/user":                                                                                             needUser,
	"GET /v1/users/{userId}":                                                                                   needRead,
	"PATCH /v1/collections/{collectionId}":                                                                     needAdmin,
	"PATCH /v1/collections/{collectionId}/permissions/teams/{teamId}":                                          needAdmin,
	"PATCH /v1/collections/{collectionId}/permissions/users/{userId}":                                          needAdmin,
	"PATCH /v1/orgs/{organizationId}":                                                                          needAdmin,
	"PATCH /v1/orgs/{organizationId}/link-invites/{inviteId}":                                                  needAdmin,
	"PATCH /v1/orgs/{organizationId}/members/{userId}":                                                         needAdmin,
	"PATCH /v1/orgs/{organizationId}/saml/{samlProviderId}":                                                    needAdmin,
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}":                                                           needAdmin,
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth":                                           needAdmin,
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}":                       needAdmin,
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}":                                  needAdmin,
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}":                                 needAdmin,
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}":                                 needAdmin,
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization":                   needAdmin,
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/structure/sort":                                            needAdmin,
	"PATCH /v1/orgs/{organizationId}/teams/{teamId}":                                                           needAdmin,
	"PATCH /v1/spaces/{spaceId}":                                                                               needAdmin,
	"PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}":                                             needEdit,
	"PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pages/{pageId}":                              needEdit,
	"PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reusable-contents/{reusableContentId}":       needEdit,
	"PATCH /v1/spaces/{spaceId}/permissions/teams/{teamId}":                                                    needAdmin,
	"PATCH /v1/spaces/{spaceId}/permissions/users/{userId}":                                                    needAdmin,
	"PATCH /v1/users/{userId}":                                                                                 needAdmin, // the user themselves: the fixture user is the admin
	"POST /v1/collections/{collectionId}/move":                                                                 needAdmin,
	"POST /v1/collections/{collectionId}/permissions":                                                          needAdmin,
	"POST /v1/collections/{collectionId}/transfer":                                                             needAdmin,
	"POST /v1/org/{organizationId}/imports":                                                                    needEdit,
	"POST /v1/org/{organizationId}/imports/{importRunId}/cancel":                                               needEdit,
	"POST /v1/orgs/{organizationId}/collections":                                                               needCreate,
	"POST /v1/orgs/{organizationId}/invites":                                                                   needAdmin,
	"POST /v1/orgs/{organizationId}/invites/{inviteId}":                                                        needUser, // whoever holds the invite
	"POST /v1/orgs/{organizationId}/join":                                                                      needUser, // joining by the organization's email domain; accepting an invite
	"POST /v1/orgs/{organizationId}/link-invites":                                                              needAdmin,
	"POST /v1/orgs/{organizationId}/members/{userId}/sso":                                                      needAdmin,
	"POST /v1/orgs/{organizationId}/ping":                                                                      needRead,
	"POST /v1/orgs/{organizationId}/saml":                                                                      needAdmin,
	"POST /v1/orgs/{organizationId}/sites":                                                                     needAdmin,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/publish":                                                    needAdmin,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/agent-feedback":                                             needRead,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/agents/feedback":                                            needRead,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate":                                 needAdmin,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups":                                             needAdmin,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move":                   needAdmin,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections":               needAdmin,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/sections":                                                   needAdmin,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move":                              needAdmin,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/share-links":                                                needAdmin,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces":                                                needAdmin,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move":                             needAdmin,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/unpublish":                                                  needAdmin,
	"POST /v1/orgs/{organizationId}/spaces":                                                                    needCreate,
	"POST /v1/orgs/{organizationId}/storage/upload":                                                            needEdit,
	"POST /v1/spaces/{spaceId}/change-requests":                                                                needEdit,
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments":                                     needComment,
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies":                 needComment,
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge":                                        needEdit,
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pages":                                        needEdit,
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers":                          needEdit,
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reusable-contents":                            needEdit,
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews":                                      needReviewNotAuthor, // not by the change request's author (the admin)
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/update":                                       needEdit,
	"POST /v1/spaces/{spaceId}/comments":                                                                       needComment,
	"POST /v1/spaces/{spaceId}/comments/{commentId}/replies":                                                   needComment,
	"POST /v1/spaces/{spaceId}/content/computed/document":                                                      needRead,
	"POST /v1/spaces/{spaceId}/content/computed/revision":                                                      needRead,
	"POST /v1/spaces/{spaceId}/content/import":                                                                 needEdit,
	"POST /v1/spaces/{spaceId}/content/template":                                                               needEdit,
	"POST /v1/spaces/{spaceId}/duplicate":                                                                      needCreate,
	"POST /v1/spaces/{spaceId}/git/export":                                                                     needEdit,
	"POST /v1/spaces/{spaceId}/git/import":                                                                     needEdit,
	"POST /v1/spaces/{spaceId}/move":                                                                           needAdmin,
	"POST /v1/spaces/{spaceId}/permissions":                                                                    needAdmin,
	"POST /v1/spaces/{spaceId}/restore":                                                                        needAdmin,
	"POST /v1/spaces/{spaceId}/transfer":                                                                       needAdmin,
	"POST /v1/urls/published":                                                                                  needUser,
	"PUT /v1/orgs/{organizationId}/agent-instructions":                                                         needAdmin,
	"PUT /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema":                                             needAdmin,
	"PUT /v1/orgs/{organizationId}/sites/{siteId}/agent-settings":                                              needAdmin,
	"PUT /v1/orgs/{organizationId}/sites/{siteId}/customization":                                               needAdmin,
	"PUT /v1/orgs/{organizationId}/teams":                                                                      needAdmin,
	"PUT /v1/orgs/{organizationId}/teams/{teamId}/members":                                                     needAdmin,
	"PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}":                                            needAdmin,
	"PUT /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}":                          needRead, // the body the matrix sends changes no field the author alone may change
	"PUT /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}": needComment,
	"PUT /v1/spaces/{spaceId}/comments/{commentId}":                                                            needComment,
	"PUT /v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}":                                   needComment,
	"PUT /v1/storage/uploads/{token}":                                                                          needPathToken, // the token in the path decides
	"GET /v1/integrations":                                                                                     needUser,
	"GET /v1/integrations/{integrationName}":                                                                   needRead,
	"POST /v1/integrations/{integrationName}":                                                                  needAdmin,
	"PUT /v1/integrations/{integrationName}/dev":                                                               needAdmin,
	"GET /v1/integrations/{integrationName}/events":                                                            needAdmin,
	"GET /v1/integrations/{integrationName}/events/{eventId}":                                                  needAdmin,
	"GET /v1/integrations/{integrationName}/events/{eventId}/delivery":                                         needAdmin,
	"POST /v1/integrations/{integrationName}/events/{eventId}/replay":                                          needAdmin,
	"GET /v1/integrations/{integrationName}/images/{imageFile}":                                                needAnyone, // a published integration's images are public
	"GET /v1/integrations/{integrationName}/public":                                                            needAnyone, // the script checks its callers itself
	"GET /v1/integrations/{integrationName}/public/{path}":                                                     needAnyone, // the script checks its callers itself
	"GET /v1/integrations/{integrationName}/installations/{installationId}/public":                             needAnyone, // the script checks its callers itself
	"GET /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/public":            needAnyone, // the script checks its callers itself
	"GET /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/public/{path}":     needAnyone, // the script checks its callers itself
	"GET /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/public":              needAnyone, // the script checks its callers itself
	"GET /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/public/{path}":       needAnyone, // the script checks its callers itself
	"POST /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/public":           needAnyone, // the script checks its callers itself
	"POST /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/public/{path}":    needAnyone, // the script checks its callers itself
	"POST /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/public":             needAnyone, // the script checks its callers itself
	"POST /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/public/{path}":      needAnyone, // the script checks its callers itself
	"GET /v1/integrations/{integrationName}/installations/{installationId}/public/{path}":                      needAnyone, // the script checks its callers itself
	"POST /v1/integrations/{integrationName}/public":                                                           needAnyone, // the script checks its callers itself
	"POST /v1/integrations/{integrationName}/public/{path}":                                                    needAnyone, // the script checks its callers itself
	"POST /v1/integrations/{integrationName}/installations/{installationId}/public":                            needAnyone, // the script checks its callers itself
	"POST /v1/integrations/{integrationName}/installations/{installationId}/public/{path}":                     needAnyone, // the script checks its callers itself
	"GET /v1/integrations/{integrationName}/installations":                                                     needRead,
	"POST /v1/integrations/{integrationName}/installations":                                                    needAdmin,
	"GET /v1/integrations/{integrationName}/installations/{installationId}":                                    needRead,
	"PATCH /v1/integrations/{integrationName}/installations/{installationId}":                                  needAdmin,
	"GET /v1/integrations/{integrationName}/installations/{installationId}/sites":                              needRead,
	"POST /v1/integrations/{integrationName}/installations/{installationId}/sites":                             needAdmin,
	"GET /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}":                     needRead,
	"PATCH /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}":                   needAdmin,
	"GET /v1/integrations/{integrationName}/installations/{installationId}/spaces":                             needRead,
	"POST /v1/integrations/{integrationName}/installations/{installationId}/spaces":                            needAdmin,
	"GET /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}":                   needRead,
	"PATCH /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}":                 needAdmin,
	"POST /v1/integrations/{integrationName}/installations/{installationId}/tokens":                            needAdmin,
	"GET /v1/integrations/{integrationName}/render":                                                            needRead,
	"POST /v1/integrations/{integrationName}/render":                                                           needRead,
	"GET /v1/integrations/{integrationName}/sites":                                                             needRead,
	"GET /v1/integrations/{integrationName}/spaces":                                                            needRead,
	"POST /v1/integrations/{integrationName}/tasks":                                                            needAdmin,
	"GET /v1/orgs/{organizationId}/installations":                                                              needRead,
	"GET /v1/orgs/{organizationId}/integrations":                                                               needRead,
	"GET /v1/orgs/{organizationId}/integrations/installations-status":                                          needRead,
	"GET /v1/orgs/{organizationId}/integrations/{integrationName}/installation_status":                         needRead,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/integration-scripts":                                         needRead,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/integrations":                                                needRead,
	"GET /v1/spaces/{spaceId}/integration-blocks":                                                              needRead,
	"GET /v1/spaces/{spaceId}/integrations":                                                                    needRead,
	"DELETE /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}":                  needAdmin,
	"DELETE /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}":                needAdmin,
	"DELETE /v1/integrations/{integrationName}/installations/{installationId}":                                 needAdmin,
	"DELETE /v1/integrations/{integrationName}/dev":                                                            needAdmin,
	"DELETE /v1/integrations/{integrationName}":                                                                needAdmin,
	// OpenAPI specifications: members read them, the create role changes them; a public
	// one's files are for anyone.
	"GET /v1/openapi-published/{specId}/{file}":                                     needAnyone,
	"GET /v1/orgs/{organizationId}/openapi":                                         needRead,
	"POST /v1/orgs/{organizationId}/openapi":                                        needCreate,
	"GET /v1/orgs/{organizationId}/openapi/{specSlug}":                              needRead,
	"PUT /v1/orgs/{organizationId}/openapi/{specSlug}":                              needCreate,
	"PATCH /v1/orgs/{organizationId}/openapi/{specSlug}":                            needCreate,
	"DELETE /v1/orgs/{organizationId}/openapi/{specSlug}":                           needCreate,
	"GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions":                     needRead,
	"GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content/raw":  needRead,
	"GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}":         needRead,
	"GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content": needRead,

	// Translations and their glossary: members read them, the create role changes them.
	"GET /v1/orgs/{organizationId}/translations":                            needRead,
	"POST /v1/orgs/{organizationId}/translations":                           needCreate,
	"GET /v1/orgs/{organizationId}/translations/{translationId}":            needRead,
	"PUT /v1/orgs/{organizationId}/translations/{translationId}":            needCreate,
	"DELETE /v1/orgs/{organizationId}/translations/{translationId}":         needCreate,
	"POST /v1/orgs/{organizationId}/translations/{translationId}/run":       needCreate,
	"GET /v1/orgs/{organizationId}/translations-glossary":                   needRead,
	"PUT /v1/orgs/{organizationId}/translations-glossary":                   needCreate,
	"GET /v1/orgs/{organizationId}/translations-glossary/{glossaryEntryId}": needRead,

	// Conversations, their issues and clusters, and agent tasks: members read them; the
	// edit role ingests conversations and changes tasks.
	"GET /v1/orgs/{organizationId}/conversations":                      needRead,
	"POST /v1/orgs/{organizationId}/conversations":                     needEdit,
	"GET /v1/orgs/{organizationId}/conversations/{conversationId}":     needRead,
	"GET /v1/orgs/{organizationId}/conversations-issues":               needRead,
	"GET /v1/orgs/{organizationId}/conversations-issues/{issueId}":     needRead,
	"GET /v1/orgs/{organizationId}/conversations-clusters":             needRead,
	"GET /v1/orgs/{organizationId}/conversations-clusters/{clusterId}": needRead,
	"GET /v1/orgs/{organizationId}/agent-tasks":                        needRead,
	"GET /v1/orgs/{organizationId}/agent-tasks/{agentTaskId}":          needRead,
	"PATCH /v1/orgs/{organizationId}/agent-tasks/{agentTaskId}":        needEdit,
	"GET /v1/orgs/{organizationId}/agents-setup":                       needRead,

	// Agent conversations: any member uses the organization agent, in conversations of their
	// own (another's is 404 to them); a change request's are read with it, and the edit role
	// on its space renames, deletes and sends messages.
	"GET /v1/orgs/{organizationId}/agent/conversations":                                                   needRead,
	"PUT /v1/orgs/{organizationId}/agent/conversations/{conversationId}":                                  needRead,
	"PATCH /v1/orgs/{organizationId}/agent/conversations/{conversationId}":                                needRead,
	"DELETE /v1/orgs/{organizationId}/agent/conversations/{conversationId}":                               needRead,
	"GET /v1/orgs/{organizationId}/agent/conversations/{conversationId}/messages":                         needRead,
	"POST /v1/orgs/{organizationId}/agent/conversations/{conversationId}/messages":                        needRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/conversations":                            needRead,
	"PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}/conversations/{conversationId}":         needEdit,
	"DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/conversations/{conversationId}":        needEdit,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/conversations/{conversationId}/messages":  needRead,
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/conversations/{conversationId}/messages": needEdit,
}
