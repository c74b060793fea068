#!/usr/bin/env bash
# End-to-end test of internal/jsrun with the real @gitbook/runtime: installs it with npm ci,
# then runs the tests that bundle test/jsrun/integration as @gitbook/cli does and dispatch
# events to it (in the engine alone, and through docsd's API and event delivery), with
# DOCSD_TEST_JSRUN=required so that a missing package fails instead of skipping; then prints the engine's benchmarks for the log.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ ! -d "$here/node_modules/@gitbook/runtime" ]; then
    (cd "$here" && npm ci --no-audit --no-fund)
fi

cd "$root"
DOCSD_TEST_JSRUN=required go test ./internal/jsrun -run '^TestRuntime' -count=1 -v
# The same integration published through the API and run by docsd's event delivery.
DOCSD_TEST_JSRUN=required DOCSD_TEST_PUBLIC_SPEC="${DOCSD_TEST_PUBLIC_SPEC:-required}" \
    go test ./internal/httpapi -run '^TestIntegrationScript' -count=1 -v
DOCSD_TEST_JSRUN=required go test ./internal/jsrun -run '^$' -bench . -benchtime 1s
