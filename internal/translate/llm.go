package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/prometheus/client_golang/prometheus"
)

// LLMConfig configures the language model: any OpenAI-compatible chat-completions endpoint
// (OpenAI, Ollama, vLLM, llama.cpp's server, LM Studio).
type LLMConfig struct {
	BaseURL, Model, APIKey string
	// EmbeddingModel names the model of the embeddings endpoint (conversation clustering);
	// default Model, as Ollama and llama.cpp serve both from one model.
	EmbeddingModel string
	Timeout        time.Duration // one request; default 2m
	MaxRetries     int           // on connection errors, 408, 409, 429 and 5xx, with backoff; default 3
}

// LLM translates with a language model. Prompts and answers are logged at debug level only.
type LLM struct {
	client  openai.Client
	model   string
	embed   string // the embeddings model
	log     *slog.Logger
	metrics *LLMMetrics
}

// LLMMetrics count the model's requests and tokens.
type LLMMetrics struct {
	Requests *prometheus.CounterVec // by outcome: ok, error
	Tokens   *prometheus.CounterVec // by kind: prompt, completion
}

// NewLLMMetrics makes the counters; register Collectors with /metrics.
func NewLLMMetrics() *LLMMetrics {
	// Tokens' kinds: prompt and completion for chat completions, embedding for the
	// embeddings endpoint.
	return &LLMMetrics{
		Requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "docsd_llm_requests_total",
			Help: "Chat-completion requests made to the language model, by outcome."}, []string{"outcome"}),
		Tokens: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "docsd_llm_tokens_total",
			Help: "Tokens the language model reported, by kind (prompt, completion)."}, []string{"kind"}),
	}
}

// Collectors are the metrics to register.
func (m *LLMMetrics) Collectors() []prometheus.Collector {
	return []prometheus.Collector{m.Requests, m.Tokens}
}

// NewLLM returns the provider, or nil when no endpoint or model is configured.
func NewLLM(cfg LLMConfig, log *slog.Logger, m *LLMMetrics) *LLM {
	if cfg.BaseURL == "" || cfg.Model == "" {
		return nil
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	if cfg.MaxRetries <= 0 {
		cfg.MaxRetries = 3
	}
	key := cfg.APIKey
	if key == "" {
		key = "none" // local servers take any key; the client wants one
	}
	c := openai.NewClient(option.WithBaseURL(strings.TrimRight(cfg.BaseURL, "/")+"/"), option.WithAPIKey(key),
		option.WithMaxRetries(cfg.MaxRetries), option.WithRequestTimeout(cfg.Timeout),
		option.WithHTTPClient(&http.Client{Timeout: cfg.Timeout + 5*time.Second}))
	embed := cfg.EmbeddingModel
	if embed == "" {
		embed = cfg.Model
	}
	return &LLM{client: c, model: cfg.Model, embed: embed, log: log, metrics: m}
}

// Name is "llm".
func (l *LLM) Name() string { return "llm" }

// Covers every pair of the API's languages.
func (l *LLM) Covers(from, to string) bool { return from != to }

// chunkChars bounds the text of one request, so a long page is sent in parts a small model's
// context holds.
const chunkChars = 6000

// Translate sends the segments in chunks, each as a JSON array the model answers with an
// array of the same length.
func (l *LLM) Translate(ctx context.Context, req Request) ([]string, error) {
	var out []string
	for start := 0; start < len(req.Segments); {
		end, size := start, 0
		for end < len(req.Segments) && (end == start || size+len(req.Segments[end]) <= chunkChars) {
			size += len(req.Segments[end])
			end++
		}
		got, err := l.translateChunk(ctx, req, req.Segments[start:end])
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
		start = end
	}
	return out, nil
}

// SystemPrompt is what the model is told for every chunk; the translation's instructions
// follow it.
func SystemPrompt(from, to, instructions string) string {
	p := fmt.Sprintf("You translate technical documentation from %s to %s.\n"+
		"The user sends a JSON array of text segments. Each segment is an HTML fragment: translate its text, keep "+
		"every <x id=\"N\"/> tag exactly as it is and where it belongs in the sentence, keep markdown emphasis "+
		"marks, and keep HTML entities escaped. Never translate code, URLs or product names.\n"+
		"Answer with only a JSON array of strings: the translations, one per segment, in the same order.", from, to)
	if strings.TrimSpace(instructions) != "" {
		p += "\n\nInstructions for this translation:\n" + instructions
	}
	return p
}

func (l *LLM) translateChunk(ctx context.Context, req Request, segs []string) ([]string, error) {
	in, _ := json.Marshal(segs)
	system := SystemPrompt(req.From, req.To, req.Instructions)
	l.log.Debug("llm request", "model", l.model, "system", system, "user", string(in))
	resp, err := l.client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    l.model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system), openai.UserMessage(string(in))},
	})
	if err != nil {
		l.metrics.Requests.WithLabelValues("error").Inc()
		return nil, errorf(l.Name(), "%v", err)
	}
	l.metrics.Requests.WithLabelValues("ok").Inc()
	l.metrics.Tokens.WithLabelValues("prompt").Add(float64(resp.Usage.PromptTokens))
	l.metrics.Tokens.WithLabelValues("completion").Add(float64(resp.Usage.CompletionTokens))
	if len(resp.Choices) == 0 {
		return nil, errorf(l.Name(), "the model gave no answer")
	}
	answer := resp.Choices[0].Message.Content
	l.log.Debug("llm answer", "model", l.model, "answer", answer)
	var got []string
	if err := json.Unmarshal([]byte(jsonPart(answer)), &got); err != nil {
		return nil, errorf(l.Name(), "the answer is not a JSON array of strings")
	}
	if len(got) != len(segs) {
		return nil, errorf(l.Name(), "the answer has %d translations for %d segments", len(got), len(segs))
	}
	return got, nil
}

// jsonPart takes the JSON array out of an answer a model may have wrapped in a code fence
// or in words.
func jsonPart(s string) string {
	start, end := strings.Index(s, "["), strings.LastIndex(s, "]")
	if start < 0 || end < start {
		return s
	}
	return s[start : end+1]
}

// Complete sends one system and one user message and returns the model's answer, with at
// most retries retries (the client's own when negative). Conversations use it for issue
// titles and summaries and for drafted page edits, which have a local fallback: they pass
// few retries so that a model that is down costs the job little time.
func (l *LLM) Complete(ctx context.Context, system, user string, retries int) (string, error) {
	l.log.Debug("llm request", "model", l.model, "system", system, "user", user)
	var opts []option.RequestOption
	if retries >= 0 {
		opts = append(opts, option.WithMaxRetries(retries))
	}
	resp, err := l.client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    l.model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system), openai.UserMessage(user)},
	}, opts...)
	if err != nil {
		l.metrics.Requests.WithLabelValues("error").Inc()
		return "", errorf(l.Name(), "%v", err)
	}
	l.metrics.Requests.WithLabelValues("ok").Inc()
	l.metrics.Tokens.WithLabelValues("prompt").Add(float64(resp.Usage.PromptTokens))
	l.metrics.Tokens.WithLabelValues("completion").Add(float64(resp.Usage.CompletionTokens))
	if len(resp.Choices) == 0 {
		return "", errorf(l.Name(), "the model gave no answer")
	}
	answer := resp.Choices[0].Message.Content
	l.log.Debug("llm answer", "model", l.model, "answer", answer)
	return answer, nil
}

// Embed returns one vector per text from the embeddings endpoint, with at most retries
// retries (the client's own when negative).
func (l *LLM) Embed(ctx context.Context, texts []string, retries int) ([][]float64, error) {
	var opts []option.RequestOption
	if retries >= 0 {
		opts = append(opts, option.WithMaxRetries(retries))
	}
	resp, err := l.client.Embeddings.New(ctx, openai.EmbeddingNewParams{
		Model:          openai.EmbeddingModel(l.embed),
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts},
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	}, opts...)
	if err != nil {
		l.metrics.Requests.WithLabelValues("error").Inc()
		return nil, errorf(l.Name(), "embeddings: %v", err)
	}
	l.metrics.Requests.WithLabelValues("ok").Inc()
	l.metrics.Tokens.WithLabelValues("embedding").Add(float64(resp.Usage.PromptTokens))
	if len(resp.Data) != len(texts) {
		return nil, errorf(l.Name(), "embeddings: %d vectors for %d texts", len(resp.Data), len(texts))
	}
	out := make([][]float64, len(texts))
	for _, d := range resp.Data {
		if d.Index < 0 || int(d.Index) >= len(texts) || len(d.Embedding) == 0 || out[d.Index] != nil {
			return nil, errorf(l.Name(), "embeddings: a vector with a bad or repeated index %d", d.Index)
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}
