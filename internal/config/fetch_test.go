package config_test

import (
	"io"
	"testing"

	"docsd/internal/config"
)

func TestFetchMaxConcurrent(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load("docsd", nil, envOf(nil), io.Discard)
	if err != nil || cfg.FetchMaxConcurrent != 8 {
		t.Fatalf("default: %d, %v; want 8", cfg.FetchMaxConcurrent, err)
	}
	cfg, err = config.Load("docsd", nil, envOf(map[string]string{"DOCSD_FETCH_MAX_CONCURRENT": "3"}), io.Discard)
	if err != nil || cfg.FetchMaxConcurrent != 3 {
		t.Fatalf("from the environment: %d, %v; want 3", cfg.FetchMaxConcurrent, err)
	}
	cfg, err = config.Load("docsd", []string{"--fetch-max-concurrent=5"}, envOf(map[string]string{"DOCSD_FETCH_MAX_CONCURRENT": "3"}), io.Discard)
	if err != nil || cfg.FetchMaxConcurrent != 5 {
		t.Fatalf("the flag over the environment: %d, %v; want 5", cfg.FetchMaxConcurrent, err)
	}
	for _, bad := range []string{"0", "-1", "many"} {
		if _, err := config.Load("docsd", nil, envOf(map[string]string{"DOCSD_FETCH_MAX_CONCURRENT": bad}), io.Discard); err == nil {
			t.Errorf("DOCSD_FETCH_MAX_CONCURRENT=%s: accepted", bad)
		}
	}
	if _, err := config.Load("docsd", []string{"--fetch-max-concurrent=0"}, envOf(nil), io.Discard); err == nil {
		t.Error("--fetch-max-concurrent=0: accepted")
	}
}
