package config

import (
	"fmt"
	"net/url"
	"time"
)

// Language configures the language providers of translations and conversation summaries:
// an OpenAI-compatible language model, Apertium for the pairs installed, LibreTranslate and
// DeepL. Keys come from the environment only.
type Language struct {
	// Provider picks the translation provider: auto (the model when configured, else the
	// first other provider covering the pair), llm, apertium, libretranslate or deepl.
	Provider          string
	LLMBaseURL        string // e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama)
	LLMModel          string
	LLMEmbeddingModel string // the embeddings endpoint's model (conversation clustering); default LLMModel
	LLMAPIKey         string
	LLMTimeout        time.Duration // one request to the model
	ApertiumCommand   string        // the apertium program; empty turns Apertium off
	LibreTranslateURL string
	LibreTranslateKey string
	DeepLURL          string // default from the key: api-free.deepl.com for ":fx" keys
	DeepLKey          string
}

func (f *Flags) addLanguageFlags(env func(key, def string) string) {
	fs, l := f.FlagSet, &f.cfg.Language
	fs.StringVar(&l.Provider, "translate-provider", env("DOCSD_TRANSLATE_PROVIDER", "auto"), "translation provider: auto, llm, apertium, libretranslate or deepl (DOCSD_TRANSLATE_PROVIDER)")
	fs.StringVar(&l.LLMBaseURL, "llm-base-url", env("DOCSD_LLM_BASE_URL", ""), "OpenAI-compatible chat-completions base URL, e.g. http://127.0.0.1:11434/v1; the key comes from DOCSD_LLM_API_KEY (DOCSD_LLM_BASE_URL)")
	fs.StringVar(&l.LLMModel, "llm-model", env("DOCSD_LLM_MODEL", ""), "language model name (DOCSD_LLM_MODEL)")
	fs.StringVar(&l.LLMEmbeddingModel, "llm-embedding-model", env("DOCSD_LLM_EMBEDDING_MODEL", ""), "model of the OpenAI-compatible embeddings endpoint, used to cluster conversation issues; default the language model (DOCSD_LLM_EMBEDDING_MODEL)")
	f.durationVar(&l.LLMTimeout, "llm-timeout", "DOCSD_LLM_TIMEOUT", "timeout of one request to the language model (DOCSD_LLM_TIMEOUT)")
	fs.StringVar(&l.ApertiumCommand, "apertium", env("DOCSD_APERTIUM", "apertium"), "the apertium command, for its installed pairs; empty turns it off (DOCSD_APERTIUM)")
	fs.StringVar(&l.LibreTranslateURL, "libretranslate-url", env("DOCSD_LIBRETRANSLATE_URL", ""), "LibreTranslate server URL; its key comes from DOCSD_LIBRETRANSLATE_API_KEY (DOCSD_LIBRETRANSLATE_URL)")
	fs.StringVar(&l.DeepLURL, "deepl-url", env("DOCSD_DEEPL_URL", ""), "DeepL API URL; default from DOCSD_DEEPL_API_KEY, which turns DeepL on (DOCSD_DEEPL_URL)")
	l.LLMAPIKey = f.getenv("DOCSD_LLM_API_KEY")
	l.LibreTranslateKey = f.getenv("DOCSD_LIBRETRANSLATE_API_KEY")
	l.DeepLKey = f.getenv("DOCSD_DEEPL_API_KEY")
}

// parseLanguage validates the provider settings.
func (f *Flags) parseLanguage() error {
	l := &f.cfg.Language
	switch l.Provider {
	case "auto", "llm", "apertium", "libretranslate", "deepl":
	default:
		return fmt.Errorf("translate-provider: want auto, llm, apertium, libretranslate or deepl, got %q", l.Provider)
	}
	for name, v := range map[string]string{"llm-base-url": l.LLMBaseURL, "libretranslate-url": l.LibreTranslateURL, "deepl-url": l.DeepLURL} {
		if v == "" {
			continue
		}
		if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s: want an http or https URL, got %q", name, v)
		}
	}
	if (l.LLMBaseURL == "") != (l.LLMModel == "") {
		return fmt.Errorf("llm-base-url and llm-model: set both to use a language model, or neither")
	}
	switch {
	case l.Provider == "llm" && l.LLMBaseURL == "":
		return fmt.Errorf("translate-provider llm: needs llm-base-url and llm-model")
	case l.Provider == "libretranslate" && l.LibreTranslateURL == "":
		return fmt.Errorf("translate-provider libretranslate: needs libretranslate-url")
	case l.Provider == "deepl" && l.DeepLKey == "":
		return fmt.Errorf("translate-provider deepl: needs DOCSD_DEEPL_API_KEY")
	}
	return nil
}

func (l Language) redacted() map[string]any {
	hide := func(s string) string {
		if s == "" {
			return ""
		}
		return "REDACTED"
	}
	return map[string]any{"provider": l.Provider, "llmBaseURL": l.LLMBaseURL, "llmModel": l.LLMModel, "llmEmbeddingModel": l.LLMEmbeddingModel,
		"llmAPIKey": hide(l.LLMAPIKey), "llmTimeout": l.LLMTimeout.String(), "apertium": l.ApertiumCommand,
		"libreTranslateURL": l.LibreTranslateURL, "libreTranslateKey": hide(l.LibreTranslateKey),
		"deepLURL": l.DeepLURL, "deepLKey": hide(l.DeepLKey)}
}
