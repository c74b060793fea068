package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"docsd/internal/config"
	"docsd/internal/ids"
)

// integrationSecretsKey is the configured key, or the one kept in the data directory, made on
// first use. The file is readable by its owner only; the key never goes to the database, so a
// copy of the database alone does not reveal integrations' secrets.
func integrationSecretsKey(cfg config.Config) (string, error) {
	if cfg.IntegrationSecretsKey != "" {
		return cfg.IntegrationSecretsKey, nil
	}
	path := filepath.Join(cfg.DataDir, "integration-secrets.key")
	b, err := os.ReadFile(path)
	if err == nil {
		if k := strings.TrimSpace(string(b)); len(k) >= 32 {
			return k, nil
		}
		return "", fmt.Errorf("%s: the key is shorter than 32 characters", path)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return "", err
	}
	key := ids.Secret()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return integrationSecretsKey(cfg) // another process made it first
	} else if err != nil {
		return "", err
	}
	if _, err := f.WriteString(key + "\n"); err != nil {
		f.Close()
		return "", err
	}
	return key, f.Close()
}
