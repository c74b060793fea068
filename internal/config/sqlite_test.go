package config_test

import (
	"io"
	"strings"
	"testing"

	"docsd/internal/config"
)

func TestSQLiteSynchronousDefaultsToFull(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load("docsd", nil, envOf(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.SQLiteSynchronous != "full" {
		t.Fatalf("SQLiteSynchronous = %q, want full", cfg.SQLiteSynchronous)
	}
}

func TestSQLiteSynchronousFromFlagAndEnvironment(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load("docsd", nil, envOf(map[string]string{"DOCSD_SQLITE_SYNCHRONOUS": "NORMAL"}), io.Discard)
	if err != nil || cfg.SQLiteSynchronous != "normal" {
		t.Fatalf("from the environment: %q, %v; want normal", cfg.SQLiteSynchronous, err)
	}
	cfg, err = config.Load("docsd", []string{"--sqlite-synchronous", "extra"}, envOf(map[string]string{"DOCSD_SQLITE_SYNCHRONOUS": "normal"}), io.Discard)
	if err != nil || cfg.SQLiteSynchronous != "extra" {
		t.Fatalf("the flag over the environment: %q, %v; want extra", cfg.SQLiteSynchronous, err)
	}
}

func TestSQLiteSynchronousRefusesUnknownValues(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"fast", "2", "fulll"} {
		_, err := config.Load("docsd", []string{"--sqlite-synchronous", v}, envOf(nil), io.Discard)
		if err == nil || !strings.Contains(err.Error(), "sqlite-synchronous") || !strings.Contains(err.Error(), "off, normal, full or extra") {
			t.Errorf("--sqlite-synchronous %s: error %v, want one naming the setting and its values", v, err)
		}
	}
}
