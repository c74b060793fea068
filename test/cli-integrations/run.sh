#!/usr/bin/env bash
# The real GitBook CLI (@gitbook/cli) against docsd: installs the pinned CLI and runtime with
# `npm ci --ignore-scripts` (the CLI's postinstall downloads a tunnel binary from the internet,
# which the test does not need), then runs the Go test that drives `gitbook auth`, `whoami`,
# `publish`, `tail` and `unpublish` against a test server, with a receiver that hands deliveries
# to the published bundle's own @gitbook/runtime dispatcher. DOCSD_TEST_CLI=required makes a
# missing node or CLI a failure instead of a skip.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

(cd "$here" && npm ci --ignore-scripts --no-audit --no-fund)
cd "$root"
DOCSD_TEST_CLI=required go test ./internal/httpapi -run '^TestIntegrationCLI' -count=1 -v
