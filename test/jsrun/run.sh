#!/usr/bin/env bash
# End-to-end test of internal/jsrun with the real @gitbook/runtime: installs it with npm ci,
# then runs the test that bundles test/jsrun/integration as @gitbook/cli does and dispatches
# events to it, with DOCSD_TEST_JSRUN=required so that a missing package fails instead of
# skipping; then prints the engine's benchmarks for the log.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ ! -d "$here/node_modules/@gitbook/runtime" ]; then
    (cd "$here" && npm ci --no-audit --no-fund)
fi

cd "$root"
DOCSD_TEST_JSRUN=required go test ./internal/jsrun -run '^TestRuntime' -count=1 -v
DOCSD_TEST_JSRUN=required go test ./internal/jsrun -run '^$' -bench . -benchtime 1s
