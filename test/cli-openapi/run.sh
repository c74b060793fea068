#!/usr/bin/env bash
# The official GitBook CLI (@gitbook/cli) publishing OpenAPI specifications to docsd: installs
# it from package-lock.json, then runs the Go test that drives `gitbook openapi publish`
# against a test server, with DOCSD_TEST_GITBOOK_CLI=required so that a missing CLI fails
# rather than skips. --ignore-scripts: the CLI's postinstall downloads from the internet and
# is not needed to publish specs.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ ! -d "$here/node_modules/@gitbook/cli" ]; then
    (cd "$here" && npm ci --ignore-scripts --no-audit --no-fund)
fi

cd "$root"
DOCSD_TEST_GITBOOK_CLI=required go test -count=1 -v -run '^TestIntegrationOpenAPIGitBookCLI$' ./internal/httpapi/
