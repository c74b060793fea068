// Package app assembles docsd from its configuration: database, services and HTTP server.
// Tests boot the real program through it on port 0 with a temporary database.
package app

import (
	"context"
	"docsd/internal/agentconv"
	"docsd/internal/blob"
	"docsd/internal/changereq"
	"docsd/internal/comment"
	"docsd/internal/content"
	"docsd/internal/conversation"
	"docsd/internal/docxconv"
	"docsd/internal/embed"
	"docsd/internal/fetch"
	"docsd/internal/gitfetch"
	"docsd/internal/gitimport"
	"docsd/internal/gitsync"
	"docsd/internal/importrun"
	"docsd/internal/integration"
	"docsd/internal/integration/delivery"
	"docsd/internal/pdfexport"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"docsd/internal/access"
	"docsd/internal/account"
	"docsd/internal/buildinfo"
	"docsd/internal/clock"
	"docsd/internal/computed"
	"docsd/internal/config"
	"docsd/internal/httpapi"
	"docsd/internal/ids"
	"docsd/internal/jobs"
	"docsd/internal/jsrun"
	"docsd/internal/openapi"
	"docsd/internal/org"
	"docsd/internal/outbox"
	"docsd/internal/paging"
	"docsd/internal/ratelimit"
	"docsd/internal/seal"
	"docsd/internal/search"
	"docsd/internal/site"
	"docsd/internal/sitehttp"
	"docsd/internal/sitepub"
	"docsd/internal/space"
	"docsd/internal/store"
	"docsd/internal/translate"
	"docsd/internal/wire"
)

// Options are what a caller may inject besides the configuration.
type Options struct {
	Log   *slog.Logger // default: discard
	Clock clock.Clock  // default: the real clock
}

// App is a running docsd.
type App struct {
	Config         config.Config
	Log            *slog.Logger
	Clock          clock.Clock
	DB             *store.DB
	Accounts       *account.Service
	Orgs           *org.Service
	Access         *access.Checker
	Spaces         *space.Service
	Content        *content.Service
	ChangeRequests *changereq.Service
	GitImport      *gitimport.Service
	GitSync        *gitsync.Service
	Embeds         *embed.Service
	Imports        *importrun.Service
	Comments       *comment.Service
	PDF            *pdfexport.Service
	Sites          *site.Service
	Integrations   *integration.Service
	Deliveries     *delivery.Deliverer // sends integration events; knows the base URL once listening
	SiteViews      *integration.Views  // samples published pages served into site_view events
	Search         *search.Service
	OpenAPI        *openapi.Service
	Blobs          blob.Store
	Cursors        *paging.Codec
	Jobs           *jobs.Queue    // register handlers in Open; the worker loop runs during Serve
	Outbox         *outbox.Runner // event consumers, registered in Open, run during Serve
	Translations   *translate.Service
	Conversations  *conversation.Service
	AgentConv      *agentconv.Service
	LLMMetrics     *translate.LLMMetrics

	// RateLimiter counts requests for the configured limits; on PostgreSQL its counts are
	// shared by every process of the fleet.
	RateLimiter *ratelimit.Limiter

	BaseURL  string
	listener net.Listener
	http     *http.Server
	api      *httpapi.Server
}

// Open connects to the database, applies migrations and builds the services.
func Open(ctx context.Context, cfg config.Config, opts Options) (*App, error) {
	a := &App{Config: cfg, Log: opts.Log, Clock: opts.Clock}
	if a.Log == nil {
		a.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if a.Clock == nil {
		a.Clock = clock.Real{}
	}
	db, err := store.OpenWith(ctx, cfg.DatabaseURL, store.Options{Synchronous: cfg.SQLiteSynchronous})
	if err != nil {
		return nil, err
	}
	a.DB = db
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	key, err := db.Setting(ctx, "cursor_key", ids.Secret)
	if err != nil {
		db.Close()
		return nil, err
	}
	a.Cursors = paging.NewCodec([]byte(key))
	a.Jobs = jobs.New(db, a.Clock, a.Log, jobs.Options{})
	a.Accounts = account.NewService(store.Accounts{DB: db}, a.Clock)
	// One access component decides for every service; its cache is per process, its
	// generation in the database.
	a.Access = access.NewChecker()
	a.Orgs = org.NewService(store.Orgs{DB: db}, a.Access, a.Clock)
	a.Spaces = space.NewService(store.Spaces{DB: db}, a.Access, a.Clock)
	a.Orgs.SetSpaceCounter(a.Spaces)
	a.Content = content.NewService(store.Contents{DB: db}, a.Spaces, a.Clock)
	a.ChangeRequests = changereq.NewService(store.ChangeRequests{DB: db}, a.Spaces, a.Content, a.Clock)
	a.Comments = comment.NewService(store.Comments{DB: db}, a.Spaces, a.ChangeRequests, a.Content, a.Clock)
	a.Sites = site.NewService(store.Sites{DB: db}, a.Access, a.Clock)
	a.Orgs.SetSiteCounter(a.Sites)
	if a.Blobs, err = blob.FromConfig(cfg); err != nil {
		db.Close()
		return nil, err
	}
	a.Jobs.Register(space.PurgeJob, a.Spaces.HandlePurge)
	a.Jobs.Register(content.BackfillDocumentsJob, func(ctx context.Context, _ json.RawMessage) error {
		ids, err := a.DB.RevisionIDs(ctx)
		if err != nil {
			return err
		}
		return a.Content.BackfillDocuments(ctx, ids)
	})
	a.GitImport = gitimport.NewService(a.Content, a.Blobs, a.Jobs,
		gitfetch.Options{Fetch: fetch.FromConfig(cfg), Gate: fetch.NewGate(cfg.FetchMaxConcurrent, fetch.DefaultGateWait)},
		cfg.GitImportSyncPages)
	a.Jobs.Register(gitimport.JobKind, a.GitImport.HandleJob,
		jobs.OnFail(func(ctx context.Context, payload []byte, err error) { a.GitImport.OnJobFailed(ctx, payload, err) }))
	uploadKey, err := db.Setting(ctx, "upload_url_key", ids.Secret)
	if err != nil {
		db.Close()
		return nil, err
	}
	runs := store.ImportRuns{DB: db}
	a.Imports = importrun.NewService(runs, a.Orgs, a.Spaces, a.Content, a.ChangeRequests, a.Blobs,
		fetch.FromConfig(cfg), []byte(uploadKey), a.Clock, runs.RunSpaces)
	a.Jobs.Register(importrun.JobKind, func(ctx context.Context, payload json.RawMessage) error {
		err := a.Imports.HandleJob(ctx, payload)
		var final *importrun.FinalError
		if errors.As(err, &final) {
			return jobs.Permanent(err)
		}
		return err
	}, jobs.MaxAttempts(5), jobs.Backoff(time.Second, time.Minute),
		jobs.OnFail(func(ctx context.Context, payload []byte, err error) { a.Imports.OnJobFailed(ctx, payload, err) }))
	a.GitImport.Runs = a.Imports
	a.Imports.Docx = docxconv.Converter{Program: cfg.DocxProgram()}
	pdfKey, err := db.Setting(ctx, "pdf_link_key", ids.Secret)
	if err != nil {
		db.Close()
		return nil, err
	}
	gitKey, err := db.Setting(ctx, "git_export_seal_key", ids.Secret)
	if err != nil {
		db.Close()
		return nil, err
	}
	a.GitSync = gitsync.NewService(a.Content, a.Blobs, store.GitSync{DB: db}, a.Jobs, fetch.FromConfig(cfg), gitKey, a.Clock)
	a.Jobs.Register(gitsync.JobKind, a.GitSync.HandleJob)
	a.Embeds = embed.NewService(fetch.FromConfig(cfg), a.Clock)
	a.PDF = pdfexport.NewService(a.Content, a.ChangeRequests, a.Blobs, []byte(pdfKey), a.Clock, cfg.PDFMaxPages)
	a.Search = search.NewService(store.NewSearches(db), a.Content, a.Clock, a.Log)
	a.Jobs.Register(search.IndexJob, a.Search.HandleJob)
	a.Outbox = outbox.New(store.Outbox{DB: db}, a.Clock, a.Log, outbox.Options{})
	if err := a.Outbox.Register(ctx, search.Consumer, a.Search.HandleEvents); err != nil {
		db.Close()
		return nil, err
	}
	a.Conversations = conversation.NewService(store.Conversations{DB: db}, a.Orgs, a.Search, a.Clock, a.Log)
	// An hour: with a language model, a run asks it about each of up to 500 conversations.
	a.Jobs.Register(conversation.JobKind, a.Conversations.HandleJob, jobs.Backoff(time.Second, time.Minute),
		jobs.Timeout(time.Hour))
	// A draft asks the model once per try; a model that stays down gets 30 tries, up to an hour apart.
	a.Jobs.Register(conversation.DraftJobKind, a.Conversations.HandleDraftJob, jobs.Backoff(time.Second, time.Hour),
		jobs.MaxAttempts(30), jobs.Timeout(10*time.Minute))
	a.AgentConv = agentconv.NewService(store.AgentConversations{DB: db}, a.Orgs, a.ChangeRequests, a.Clock, a.Log)
	if err := a.openTranslations(ctx); err != nil {
		db.Close()
		return nil, err
	}
	db.OnEventsWritten(a.Outbox.Wake)
	a.Jobs.Every(outboxPruneJob, time.Hour, func(ctx context.Context, _ json.RawMessage) error {
		_, err := a.Outbox.Prune(ctx, cfg.OutboxRetention)
		return err
	})
	// Integrations: the registry, installations and the delivery of their events.
	secretsKey, err := integrationSecretsKey(cfg)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("integration secrets key: %w", err)
	}
	outbound := fetch.FromConfig(cfg)
	outbound.Timeout, outbound.WaitTimeout, outbound.MaxRedirects = 15*time.Second, 10*time.Second, -1
	deliveryClient := fetch.New(outbound)
	a.Integrations = integration.NewService(store.Integrations{DB: db}, a.Orgs, a.Spaces, a.Sites,
		seal.New("docsd-integration-secrets", secretsKey), deliveryClient, a.Clock)
	// Requests to development tunnels: a tunnel that accepts and never answers costs one
	// attempt of IntegrationTunnelTimeout (then the retry's backoff), never a worker for longer.
	// A tunnel's redirect is its answer (a visitor sent to the identity provider), not a hop.
	tunnel := outbound
	tunnel.Timeout, tunnel.WaitTimeout, tunnel.KeepRedirects = cfg.IntegrationTunnelTimeout, cfg.IntegrationTunnelTimeout, true
	a.Deliveries = &delivery.Deliverer{Integrations: a.Integrations, Orgs: a.Orgs, Client: fetch.New(tunnel), Clock: a.Clock,
		Scripts: &delivery.Scripts{Engine: jsrun.NewRunner(deliveryClient, scriptLimits(cfg.Script)).WithWarmVMs(cfg.Script.WarmVMs)}}
	a.Deliveries.Register(a.Jobs)
	a.SiteViews = a.Integrations.NewViews(siteViewPeriod)
	a.Jobs.Every(integration.PruneJob, time.Hour, a.Integrations.PruneEvents)
	if err := a.Outbox.Register(ctx, integration.Consumer, a.Integrations.HandleEvents); err != nil {
		db.Close()
		return nil, err
	}

	// OpenAPI specs: processing on a change of source, and refreshes of URL sources.
	fo := fetch.FromConfig(cfg)
	fo.Timeout = cfg.OpenAPIFetchTimeout
	a.OpenAPI = openapi.NewService(store.OpenAPISpecs{DB: db}, a.Orgs, fo, a.Clock)
	a.Jobs.Register(openapi.ProcessJob, a.OpenAPI.HandleProcess, jobs.MaxAttempts(3), jobs.Backoff(5*time.Second, time.Minute),
		jobs.OnFail(a.OpenAPI.OnProcessFailed))
	if err := a.Outbox.Register(ctx, openapi.SourcesConsumer, a.OpenAPI.HandleHeadMoves(a.Content)); err != nil {
		db.Close()
		return nil, err
	}
	a.Jobs.Every(openapi.RefreshJob, max(cfg.OpenAPIRefreshInterval/6, time.Minute), a.OpenAPI.HandleRefresh(cfg.OpenAPIRefreshInterval))
	var counts ratelimit.Store
	if db.Engine == store.Postgres {
		counts = store.RateWindows{DB: db}
	}
	a.RateLimiter = ratelimit.New(a.Clock.Now, counts)
	return a, nil
}

// Listen binds the configured address and builds the HTTP server. The base URL is derived
// from the bound address when none is configured.
func (a *App) Listen() error {
	ln, err := net.Listen("tcp", a.Config.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", a.Config.Addr, err)
	}
	a.listener = ln
	a.BaseURL = a.Config.BaseURLFor(ln.Addr().String())
	a.Deliveries.BaseURL = a.BaseURL
	// Published pages are kept until the outbox says their site changed; every instance
	// reads the outbox for its own cache (sitehttp/cache.go).
	published := &sitehttp.Handler{Sites: sitepub.NewService(sitepub.Sites{S: a.Sites}, a.Clock),
		Content: a.Content, Blobs: a.Blobs, Log: a.Log, SecureCookies: strings.HasPrefix(a.BaseURL, "https://"),
		Search: sitehttp.FullText{Index: a.Search, Content: a.Content}, Views: a.SiteViews, OpenAPI: a.OpenAPI,
		Generation: a.DB.Generation, Events: store.Outbox{DB: a.DB}, Integrations: siteIntegrations{a.Integrations, a.Deliveries}, Clock: a.Clock}
	deps := httpapi.Deps{
		Log: a.Log, BaseURL: a.BaseURL, MaxBodyBytes: a.Config.MaxBodyBytes, BodyMemoryBytes: a.Config.BodyMemoryBytes, Cursors: a.Cursors,
		Accounts: a.Accounts, Orgs: a.Orgs, Spaces: a.Spaces, Content: a.Content, Blobs: a.Blobs,
		ChangeRequests: a.ChangeRequests, GitImport: a.GitImport, GitSync: a.GitSync, Embeds: a.Embeds, Imports: a.Imports, Comments: a.Comments, Sites: a.Sites, Ready: a.DB.Ping,
		Integrations: a.Integrations, IntegrationScripts: a.Deliveries, OpenAPI: a.OpenAPI,
		PDF: a.PDF, Build: buildinfo.Read(), ImportSyncPages: a.Config.ImportSyncPages, Search: a.Search,
		Translations: a.Translations, Conversations: a.Conversations, AgentConversations: a.AgentConv,
		PublishedSites: published,
	}
	deps.Computed = &computed.Registry{}
	a.OpenAPI.RegisterComputed(deps.Computed, wire.URLs{Base: a.BaseURL}.App, wire.URLs{Base: a.BaseURL}.OpenAPIPublished)
	a.registerTranslationSource(deps.Computed, wire.URLs{Base: a.BaseURL})
	deps.Collectors = append(a.metricCollectors(), published.Metrics()...)
	deps.Generation = a.DB.Generation
	if c := a.Config; c.RateLimitToken > 0 || c.RateLimitAddress > 0 || c.RateLimitExpensive > 0 {
		deps.RateLimiter = a.RateLimiter
		deps.RateLimits = httpapi.RateLimits{Token: c.RateLimitToken, Address: c.RateLimitAddress, Expensive: c.RateLimitExpensive}
	}
	api := httpapi.New(deps)
	a.api = api
	// Integration scripts call docsd's API at BaseURL, served in the process (not through the
	// outbound policy, which refuses docsd's own loopback or private address).
	if r, ok := a.Deliveries.Scripts.Engine.(*jsrun.Runner); ok {
		local, err := r.WithLocal(a.BaseURL, api)
		if err != nil {
			ln.Close()
			return err
		}
		a.Deliveries.Scripts.Engine = local
	}
	a.http = &http.Server{
		Handler:           api,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute,
		WriteTimeout:      5 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(a.Log.Handler(), slog.LevelWarn),
	}
	return nil
}

// Handler is the HTTP API, once Listen has built it: for measuring it in-process.
func (a *App) Handler() http.Handler { return a.http.Handler }

// Addr is the address the server listens on.
func (a *App) Addr() string { return a.listener.Addr().String() }

// Serve answers requests and runs jobs until ctx is cancelled, then drains in-flight
// requests and running jobs.
func (a *App) Serve(ctx context.Context) error {
	a.Jobs.Start(ctx)
	a.Outbox.Start(ctx)
	defer a.Outbox.Stop()
	go a.SiteViews.Run(ctx)
	listenCtx, stopListening := context.WithCancel(ctx)
	defer stopListening()
	go a.DB.ListenEvents(listenCtx, a.Outbox.Wake)
	// On PostgreSQL, reads stop asking the database whether it changed once the lease holds;
	// the DB gives it up when it closes.
	a.DB.HoldLease()
	go a.RateLimiter.Run(ctx, time.Second, func(err error) { a.Log.Warn("rate limit counts not shared", "err", err) })
	errc := make(chan error, 1)
	go func() { errc <- a.http.Serve(a.listener) }()
	select {
	case err := <-errc:
		stopCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		a.Jobs.Stop(stopCtx)
		a.api.Close()
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := a.http.Shutdown(shutdownCtx)
	a.api.Close() // the log lines and metrics of the requests just drained
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	// Jobs may write to the database, so they are drained before the caller closes it.
	if jerr := a.Jobs.Stop(shutdownCtx); jerr != nil && err == nil {
		err = fmt.Errorf("drain jobs: %w", jerr)
	}
	return err
}

// siteViewPeriod is how often, at most, a view of one site becomes site_view events.
const siteViewPeriod = 10 * time.Second

// outboxPruneJob is the periodic job that deletes events older than the retention period.
const outboxPruneJob = "outbox.prune"

// Close releases the database.
func (a *App) Close() error { return a.DB.Close() }

// scriptLimits are the engine's limits as configured.
func scriptLimits(l config.ScriptLimits) jsrun.Limits {
	return jsrun.Limits{Time: l.Time, Memory: l.MemoryBytes, Stack: l.Stack, ResponseBytes: l.ResponseBytes, Fetches: l.Fetches}
}

// siteIntegrations joins what published sites need of integrations (sitehttp.SiteIntegrations):
// the lists from the integration service, the answers from the scripts.
type siteIntegrations struct {
	*integration.Service
	*delivery.Deliverer
}
