#!/usr/bin/env bash
# The blob store's S3 backend against a separate S3-compatible server: s3rver, from the npm
# registry, started on a free loopback port with a fresh data directory. The Go tests of
# internal/blob then talk to it through the real client (minio-go), instead of the gofakes3
# server they start in-process when DOCSD_TEST_S3_ENDPOINT is unset. The server is always
# stopped; the exit status is the tests'.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
server_pid=""

cleanup() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

if [ ! -d "$here/node_modules" ]; then
    (cd "$here" && npm ci --no-audit --no-fund)
fi

# Port 0 lets the kernel pick a free port; s3rver prints the one it took.
: >"$work/server.out"
"$here/node_modules/.bin/s3rver" -d "$work/data" -a 127.0.0.1 -p 0 --configure-bucket docsd-test >"$work/server.out" 2>&1 &
server_pid=$!
endpoint=""
for _ in $(seq 1 300); do
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.out" >&2; echo "run.sh: s3rver exited during start-up" >&2; exit 1; }
    endpoint=$(sed -n 's/^S3rver listening on \(127\.0\.0\.1:[0-9]*\)$/\1/p' "$work/server.out")
    [ -n "$endpoint" ] && break
    sleep 0.1
done
[ -n "$endpoint" ] || { echo "run.sh: s3rver did not report its address within 30 s" >&2; exit 1; }
echo "s3rver is serving at $endpoint"

# s3rver accepts the fixed credentials S3RVER / S3RVER and checks signatures made with them.
cd "$root"
status=0
DOCSD_TEST_S3_ENDPOINT="$endpoint" DOCSD_TEST_S3_ACCESS_KEY=S3RVER DOCSD_TEST_S3_SECRET_KEY=S3RVER \
    DOCSD_TEST_S3_USE_TLS=false DOCSD_TEST_S3_BUCKET=docsd-test \
    go test -count=1 -v -run 'S3' ./internal/blob/ >"$work/test.log" 2>&1 || status=$?
grep -E '^ *--- |^(ok|FAIL)' "$work/test.log" || true
if [ "$status" -ne 0 ]; then
    cat "$work/test.log" >&2
fi
exit "$status"
