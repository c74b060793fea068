package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"docsd/internal/config"
)

// The language-model stand-ins of these tests are OpenAI-compatible servers on loopback;
// each decides its own answers, and they share the wire format below.

// chatRequest is a chat-completions request as docsd sends it: a system and a user message.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

// readChat decodes a chat-completions request. Anything but a system message followed by a
// user message fails the test and is answered 400, and ok is false.
func readChat(t *testing.T, w http.ResponseWriter, r *http.Request) (req chatRequest, ok bool) {
	t.Helper()
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) != 2 ||
		req.Messages[0].Role != "system" || req.Messages[1].Role != "user" {
		t.Errorf("chat request body: %+v (%v)", req, err)
		http.Error(w, "bad body", http.StatusBadRequest)
		return req, false
	}
	return req, true
}

// writeChatAnswer answers a chat-completions request with one choice whose content is answer.
func writeChatAnswer(w http.ResponseWriter, answer string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"id": "c1", "object": "chat.completion", "created": 1, "model": "test-model",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": answer}}},
		"usage": map[string]any{"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70}})
}

// writeModelFailure answers as a model server that crashed.
func writeModelFailure(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusInternalServerError)
	w.Write([]byte(`{"error":{"message":"model crashed","type":"server_error"}}`))
}

// useModel starts model on loopback (closed when the test ends) and returns the configuration
// change that makes docsd's language model that server, with model "test-model", key
// "test-key", and no Apertium, so that the model is the only translator.
func useModel(t *testing.T, model http.Handler) func(*config.Config) {
	srv := httptest.NewServer(model)
	t.Cleanup(srv.Close)
	return func(c *config.Config) {
		c.Language.LLMBaseURL, c.Language.LLMModel, c.Language.LLMAPIKey = srv.URL+"/v1", "test-model", "test-key"
		c.Language.ApertiumCommand = ""
	}
}
