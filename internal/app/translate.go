package app

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"docsd/internal/jobs"
	"docsd/internal/store"
	"docsd/internal/translate"
)

// openTranslations builds the language providers and the translation service, registers its
// run job and its outbox consumer (runs again when a source space changes).
func (a *App) openTranslations(ctx context.Context) error {
	l := a.Config.Language
	a.LLMMetrics = translate.NewLLMMetrics()
	var llm translate.Provider
	if m := translate.NewLLM(translate.LLMConfig{BaseURL: l.LLMBaseURL, Model: l.LLMModel, APIKey: l.LLMAPIKey,
		EmbeddingModel: l.LLMEmbeddingModel, Timeout: l.LLMTimeout}, a.Log, a.LLMMetrics); m != nil {
		llm = m
		// The same model sharpens conversation issues, embeds them and drafts agent tasks'
		// change requests, and answers and titles users' agent conversations.
		a.Conversations.UseModel(m, draftPages{a})
		a.AgentConv.UseModel(m)
	}
	var apertium translate.Provider
	if ap := translate.NewApertium(ctx, l.ApertiumCommand); ap != nil {
		a.Log.Info("apertium pairs", "pairs", ap.Pairs())
		apertium = ap
	}
	client := &http.Client{Timeout: 2 * time.Minute}
	var libre, deepl translate.Provider
	if l.LibreTranslateURL != "" {
		libre = &translate.LibreTranslate{URL: l.LibreTranslateURL, APIKey: l.LibreTranslateKey, Client: client}
	}
	if l.DeepLKey != "" {
		u := l.DeepLURL
		if u == "" {
			u = translate.DeepLURL(l.DeepLKey)
		}
		deepl = &translate.DeepL{URL: u, APIKey: l.DeepLKey, Client: client}
	}
	providers := translate.NewProviders(l.Provider, llm, apertium, libre, deepl)
	a.Translations = translate.NewService(store.Translations{DB: a.DB}, a.Orgs, a.Spaces, a.Content, providers, a.Clock, a.Log)
	a.Jobs.Register(translate.JobKind, func(ctx context.Context, payload json.RawMessage) error {
		err := a.Translations.HandleJob(ctx, payload)
		var final *translate.FinalError
		if errors.As(err, &final) {
			return jobs.Permanent(err)
		}
		return err
	}, jobs.MaxAttempts(5), jobs.Backoff(2*time.Second, 5*time.Minute), jobs.Timeout(time.Hour),
		jobs.OnFail(func(ctx context.Context, payload []byte, err error) { a.Translations.OnJobFailed(ctx, payload, err) }))
	return a.Outbox.Register(ctx, translate.Consumer, a.Translations.HandleEvents)
}
