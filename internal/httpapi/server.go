// Package httpapi is docsd's HTTP surface: routing, middleware, request decoding, the error
// body, and one file of thin handlers per resource group.
package httpapi

import (
	"cmp"
	"context"
	"docsd/internal/agentconv"
	"docsd/internal/blob"
	"docsd/internal/changereq"
	"docsd/internal/comment"
	"docsd/internal/computed"
	"docsd/internal/content"
	"docsd/internal/conversation"
	"docsd/internal/embed"
	"docsd/internal/gencache"
	"docsd/internal/gitimport"
	"docsd/internal/gitsync"
	"docsd/internal/importrun"
	"docsd/internal/integration"
	"docsd/internal/markdoc"
	"docsd/internal/pdfexport"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"docsd/internal/account"
	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/batcher"
	"docsd/internal/buildinfo"
	"docsd/internal/jsonlog"
	"docsd/internal/openapi"
	"docsd/internal/org"
	"docsd/internal/paging"
	"docsd/internal/ratelimit"
	"docsd/internal/search"
	"docsd/internal/site"
	"docsd/internal/sitehttp"
	"docsd/internal/space"
	"docsd/internal/translate"
	"docsd/internal/wire"

	"github.com/prometheus/client_golang/prometheus"
)

// Deps are what the HTTP layer needs from the rest of the program.
type Deps struct {
	Log          *slog.Logger
	BaseURL      string
	MaxBodyBytes int64
	// BodyMemoryBytes bounds the bytes of request bodies held in memory at once, across
	// all requests; a body that finds no room within seconds is answered 503.
	BodyMemoryBytes int64
	// RateLimiter counts requests against RateLimits; nil turns rate limiting off.
	RateLimiter *ratelimit.Limiter
	RateLimits  RateLimits
	// Collectors are more signals for /metrics (jobs, database pools).
	Collectors     []prometheus.Collector
	Cursors        *paging.Codec
	Accounts       *account.Service
	Orgs           *org.Service
	Spaces         *space.Service
	Content        *content.Service
	Blobs          blob.Store // file bytes of content
	ChangeRequests *changereq.Service
	GitImport      *gitimport.Service
	GitSync        *gitsync.Service
	Embeds         *embed.Service // unfurls URLs for getEmbedByUrl
	Imports        *importrun.Service
	Comments       *comment.Service
	PDF            *pdfexport.Service
	// ImportSyncPages is the most pages an uploaded import commits within its request.
	ImportSyncPages int
	Sites           *site.Service
	Integrations    *integration.Service
	Search          *search.Service
	OpenAPI         *openapi.Service // the organizations' OpenAPI specs
	Translations    *translate.Service
	Conversations   *conversation.Service
	// AgentConversations are users' conversations with the AI agent.
	AgentConversations *agentconv.Service
	// IntegrationScripts runs integration scripts for the answers that wait on them (renders).
	IntegrationScripts IntegrationScripts
	PublishedSites     *sitehttp.Handler // readers' side of sites, outside the API
	// Build identifies this docsd, for GET /v1/.
	Build buildinfo.Info
	// Computed computes content from computed sources; nil supports no source type.
	Computed *computed.Registry
	// Ready reports whether the server can serve traffic (the database answers).
	Ready func(ctx context.Context) error
	// Generation detects database changes for the GET answer cache (see respcache.go);
	// nil disables the cache.
	Generation generationFunc
}

// Server routes requests to handlers.
type Server struct {
	Deps
	log     *slog.Logger
	mux     *http.ServeMux
	maxBody int64
	bodies  *bodyBudget
	urls    wire.URLs
	metrics *metrics
	// finished holds the requests whose metrics and log line are yet to be written.
	finished *batcher.Batcher[jsonlog.RequestLine]
	cache    *gencache.Cache[*cachedAnswer]
	// docs keeps pages' documents converted from markdown, by the markdown's hash.
	docs *markdoc.DocumentCache
	// tokenGens spares GETs a token read while the database has not changed (tokengen.go).
	tokenGens *tokenGenerations
	// active counts the authenticated requests in flight (see requestGeneration).
	active atomic.Int64
	// requestIDs numbers requests that arrive without an X-Request-Id.
	requestIDs *requestIDs
	handler    http.Handler
	routes     []string // every registered pattern, in order: the API's surface, for its description
}

// documentCacheBytes bounds the converted documents kept: thousands of typical pages.
const documentCacheBytes = 32 << 20

// handlerFunc is a handler that returns its error for the server to render.
type handlerFunc func(w http.ResponseWriter, r *http.Request, c auth.Caller) error

// New builds the server and registers every route.
func New(d Deps) *Server {
	s := &Server{Deps: d, log: d.Log, mux: http.NewServeMux(), maxBody: d.MaxBodyBytes,
		urls: wire.URLs{Base: d.BaseURL}, metrics: newMetrics(), cache: newResponseCache(), docs: markdoc.NewDocumentCache(documentCacheBytes), tokenGens: newTokenGenerations(),
		requestIDs: newRequestIDs(), bodies: newBodyBudget(cmp.Or(d.BodyMemoryBytes, 64<<20))}
	s.finished = batcher.New(finishedBatch, finishedWait, s.writeFinished)
	s.metrics.registry.MustRegister(d.Collectors...)
	s.metrics.bodies(s.bodies)
	metricsPage := s.metrics.handler()
	s.register("GET /metrics", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.finished.Flush() // the requests that finished before this one are counted
		metricsPage.ServeHTTP(w, r)
	}))
	s.register("GET /healthz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	}))
	s.register("GET /readyz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := s.Ready(ctx); err != nil {
			writeError(w, r, s.log, apperr.New(apperr.Unavailable, "not ready: database unavailable"))
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	}))
	s.openAPIRoutes()
	s.apiInformationRoutes()
	s.userRoutes()
	s.orgRoutes()
	s.memberRoutes()
	s.teamRoutes()
	s.samlRoutes()
	s.inviteRoutes()
	s.agentRoutes()
	s.spaceRoutes()
	s.collectionRoutes()
	s.contentRoutes()
	s.reusableContentRoutes()
	s.computedContentRoutes()
	s.contentLinkRoutes()
	s.contentImportRoutes()
	s.gitImportRoutes()
	s.importRoutes()
	s.contentTemplateRoutes()
	s.changeRequestRoutes()
	s.commentRoutes()
	s.changeRequestPDFRoutes()
	s.spacePDFRoutes()
	s.peopleRoutes()
	s.changeRoutes()
	s.gitSyncRoutes()
	s.urlRoutes()
	s.embedRoutes()
	s.permissionRoutes()
	s.siteRoutes()
	s.searchRoutes()
	s.publishedSiteRoutes()
	s.integrationRoutes()
	s.openAPISpecRoutes()
	s.translationRoutes()
	s.conversationRoutes()
	s.agentConversationRoutes()
	s.handler = s.outer(s.siteHosts(http.HandlerFunc(s.dispatch)))
	return s
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// dispatch answers unknown routes and wrong methods with the API's error body; the standard
// mux would answer them in plain text.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request) {
	if _, pattern := s.mux.Handler(r); pattern == "" {
		probe := &headerProbe{header: http.Header{}}
		h, _ := s.mux.Handler(r)
		h.ServeHTTP(probe, r)
		if probe.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", probe.header.Get("Allow"))
			writeError(w, r, s.log, apperr.New(apperr.MethodNotAllowed, "method %s is not allowed on %s", r.Method, r.URL.Path))
			return
		}
		if probe.status >= 300 && probe.status < 400 {
			h.ServeHTTP(w, r)
			return
		}
		writeError(w, r, s.log, apperr.NotFoundf("no route for %s %s", r.Method, r.URL.Path))
		return
	} else if !s.rateLimit(w, r, pattern) {
		return
	}
	s.mux.ServeHTTP(w, r)
}

// headerProbe captures what the mux's own error handlers would answer.
type headerProbe struct {
	header http.Header
	status int
}

func (p *headerProbe) Header() http.Header         { return p.header }
func (p *headerProbe) Write(b []byte) (int, error) { return len(b), nil }
func (p *headerProbe) WriteHeader(code int)        { p.status = code }

// register adds a route that needs no authentication; its path parameters and query are
// checked before h runs (see textChecker).
func (s *Server) register(pattern string, h http.Handler) {
	tc := newTextChecker(pattern)
	s.add(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := tc.check(r); err != nil {
			s.textError(w, r, err)
			return
		}
		h.ServeHTTP(w, r)
	}))
}

// add adds a route as it is.
func (s *Server) add(pattern string, h http.Handler) {
	s.routes = append(s.routes, pattern)
	s.mux.Handle(pattern, h)
}

// Routes returns the pattern of every route, e.g. "GET /v1/orgs/{organizationId}".
func (s *Server) Routes() []string { return slices.Clone(s.routes) }

// handle registers an authenticated route: requests without a valid token get 401.
// Its path parameters and query are checked once the token is (see textChecker), then the
// route's body policy applies, before h reads the body.
func (s *Server) handle(pattern string, h handlerFunc) {
	tc := newTextChecker(pattern)
	policy := s.bodyPolicyFor(pattern)
	checked := func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		if err := tc.check(r); err != nil {
			return err
		}
		release, err := s.admitBody(w, r, c, policy)
		if err != nil {
			return err
		}
		defer release()
		return h(w, r, c)
	}
	s.add(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.active.Add(1)
		defer s.active.Add(-1)
		if err := s.serveAuthenticated(w, r, time.Now(), checked); err != nil {
			writeError(w, r, s.log, err)
		}
	}))
}

// serveAuthenticated runs h for the caller the request's token names. The token's row is read
// for every request, so a token deleted by any process is refused at once: first, or for a
// GET whose token this process has seen before, on the way (see confirmedGET).
func (s *Server) serveAuthenticated(w http.ResponseWriter, r *http.Request, arrived time.Time, h handlerFunc) error {
	tok, err := bearerToken(r)
	if err != nil {
		return err
	}
	gen, err := s.requestGeneration(r, arrived)
	if err != nil {
		return err
	}
	if auth.IsInstallationToken(tok) && s.Integrations != nil {
		c, err := s.installationCaller(r, tok)
		if err != nil {
			return err
		}
		return h(w, r.WithContext(auth.WithCaller(r.Context(), c)), c)
	}
	if r.Method == http.MethodGet || heldWrite(r.Method) {
		if c, ok := s.Accounts.Known(tok); ok {
			return s.confirmedGET(w, r, c, tok, gen, h)
		}
	}
	c, err := s.Accounts.Authenticate(r.Context(), tok)
	if err != nil {
		return err
	}
	if gen.ok {
		s.tokenGens.readLive(c.TokenID, gen.n)
	}
	return s.serveAs(w, r, c, gen, h)
}

// serveAs runs h for an authenticated caller; GET answers go through the answer cache where
// there is one.
func (s *Server) serveAs(w http.ResponseWriter, r *http.Request, c auth.Caller, gen generation, h handlerFunc) error {
	ctx := auth.WithCaller(r.Context(), c)
	if gen.ok {
		// The services reuse what they read at this generation (e.g. a space's access row).
		r = r.WithContext(gencache.WithGeneration(ctx, gen.n))
		return s.serveCached(w, r, c, gen.n, h)
	}
	return h(w, r.WithContext(ctx), c)
}

// heldWrite reports whether a change with this method is served like a GET for a known token
// (confirmedGET). Its answers are small JSON documents that can be held back, and its
// changes are committed only once the token is confirmed: the write transaction reads it if
// no role lookup did (store.Q.confirmCallerToken). POST is left out: it covers uploads,
// imports and scripts' answers, which are not to be held in memory.
func heldWrite(method string) bool {
	return method == http.MethodPatch || method == http.MethodPut || method == http.MethodDelete
}

// confirmedGET answers a GET (or a heldWrite) for the caller a known token names without
// reading the token first: the first role lookup made for the caller reads it in the same
// statement (see auth.TokenCheck), so on PostgreSQL the token costs no round trip of its own,
// and where no lookup did, it is read afterwards. A GET changes nothing, and a change commits
// only after its transaction confirmed the token; the answer is held back until the token is
// confirmed: a caller whose token was deleted gets the 401 and nothing else.
// Where the database has a generation, a token read live at the current one is not read again
// (tokengen.go).
func (s *Server) confirmedGET(w http.ResponseWriter, r *http.Request, c auth.Caller, tok string, gen generation, h handlerFunc) error {
	if gen.ok && s.tokenGens.liveAt(c.TokenID, gen.n) {
		return s.serveAs(w, r, c, gen, h)
	}
	c, check := c.WithTokenCheck()
	held := newHeldAnswer()
	err := s.serveAs(held, r, c, gen, h)
	switch checked, live := check.Outcome(); {
	case checked && !live:
		return apperr.New(apperr.Unauthorized, "invalid API token")
	case !checked:
		if _, aerr := s.Accounts.Authenticate(r.Context(), tok); aerr != nil {
			return aerr
		}
	}
	if gen.ok {
		s.tokenGens.readLive(c.TokenID, gen.n)
	}
	if err != nil {
		return err
	}
	held.sendTo(w)
	return nil
}

// bearerToken reads the request's bearer token.
func bearerToken(r *http.Request) (string, error) {
	header := r.Header.Get("Authorization")
	if header == "" {
		return "", apperr.New(apperr.Unauthorized, "authentication required: send Authorization: Bearer <token>")
	}
	tok, ok := auth.BearerToken(header)
	if !ok {
		return "", apperr.New(apperr.Unauthorized, "Authorization: must be Bearer <token>")
	}
	return tok, nil
}

// authenticate resolves the request's bearer token.
func (s *Server) authenticate(r *http.Request) (auth.Caller, error) {
	tok, err := bearerToken(r)
	if err != nil {
		return auth.Caller{}, err
	}
	if auth.IsInstallationToken(tok) && s.Integrations != nil {
		return s.installationCaller(r, tok)
	}
	return s.Accounts.Authenticate(r.Context(), tok)
}

// installationCaller authenticates an integration installation's token for r. Changes
// outside the integration operations are authored by a user (a change request, a comment, a
// revision); an installation has none yet, so its token reads there and changes nothing. The
// same answer for every path tells nothing of what exists.
func (s *Server) installationCaller(r *http.Request, tok string) (auth.Caller, error) {
	c, err := s.Integrations.Authenticate(r.Context(), tok)
	if err != nil {
		return c, err
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && !strings.HasPrefix(r.URL.Path, "/v1/integrations/") {
		return auth.Caller{}, apperr.Forbiddenf("an installation token can read, and change only its integration's objects")
	}
	return c, nil
}

// pageRequest reads `page` and `limit` for the list identified by list (the resource plus its
// filters and order, so a cursor cannot be replayed against another list).
func (s *Server) pageRequest(r *http.Request, list string) (paging.Request, error) {
	q := r.URL.Query()
	limit, err := paging.ParseLimit(q.Get("limit"))
	if err != nil {
		return paging.Request{}, err
	}
	req := paging.Request{Limit: limit}
	if p := q.Get("page"); p != "" {
		key, err := s.Cursors.Decode(list, p)
		if err != nil {
			return paging.Request{}, err
		}
		req.After = key
	}
	return req, nil
}

// writeList renders one page of a list with its envelope.
func writeList[T, W any](s *Server, w http.ResponseWriter, list string, res paging.Result[T], conv func(T) W) error {
	out := wire.List[W]{Count: res.Count, Items: make([]W, 0, len(res.Items))}
	for _, it := range res.Items {
		out.Items = append(out.Items, conv(it))
	}
	if res.Next != nil {
		out.Next = &wire.Next{Page: s.Cursors.Encode(list, res.Next)}
	}
	return ok(w, out)
}
