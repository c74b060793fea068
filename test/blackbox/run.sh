#!/usr/bin/env bash
# Black-box test of docsd through the official @gitbook/api client.
#
# Builds the binary, starts `docsd serve` on a free loopback port with a fresh SQLite data
# directory, takes the administrator's token from the first-start banner, makes a second user
# with a token and an organization through the admin commands, then runs client.mjs against the
# server. The server is always stopped; the exit status is the client's.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
server_pid=""

cleanup() {
    if [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; then
        # Let the server finish its graceful shutdown before its data directory goes. Polling
        # rather than `wait`: bash may already have reaped it, and then complains.
        for _ in $(seq 1 100); do
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.1
        done
    fi
    rm -rf "$work"
}
trap cleanup EXIT

fail() {
    echo "run.sh: $*" >&2
    if [ -s "$work/server.err" ]; then
        echo "--- last lines of the server's log ---" >&2
        tail -n 40 "$work/server.err" >&2
    fi
    exit 1
}

if [ ! -d "$here/node_modules" ]; then
    (cd "$here" && npm ci --no-audit --no-fund)
fi

# The build stamps a version and date of its own, as a release build would with -ldflags -X,
# so that the checks can tell them in GET /v1/ and in `docsd version`.
build_version=0.0.0-blackbox
build_date=2026-01-02T03:04:05Z
(cd "$root" && go build -ldflags "-X docsd/internal/buildinfo.version=$build_version -X docsd/internal/buildinfo.date=$build_date" \
    -o "$work/docsd" ./cmd/docsd)
docsd="$work/docsd"
"$docsd" version | grep -qx "docsd $build_version" || fail "docsd version does not print the version stamped at build time"

# Everything below talks to one fresh SQLite database, whatever the caller's environment says.
unset DOCSD_DATABASE_URL DOCSD_BASE_URL DOCSD_MAX_BODY_BYTES
export DOCSD_DATA_DIR="$work/data"
export DOCSD_LOG_LEVEL=warn

# Port 0 lets the kernel pick a free port; the server prints the URL it actually serves.
# The log files exist before the server starts, so reading them cannot race its start.
: >"$work/server.out"
: >"$work/server.err"
"$docsd" serve --addr 127.0.0.1:0 >"$work/server.out" 2>"$work/server.err" &
server_pid=$!

url=""
for _ in $(seq 1 300); do
    kill -0 "$server_pid" 2>/dev/null || fail "docsd exited during start-up"
    url=$(sed -n 's|^docsd is serving the API at \(.*\)/v1 .*|\1|p' "$work/server.out")
    [ -n "$url" ] && break
    sleep 0.1
done
[ -n "$url" ] || fail "docsd did not report its address within 30 s"

ready() {
    node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$url/readyz"
}
for _ in $(seq 1 100); do
    ready && break
    sleep 0.1
done
ready || fail "$url/readyz never answered 200"

admin_token=$(sed -n 's/^API token: //p' "$work/server.out")
[ -n "$admin_token" ] || fail "no 'API token:' line in the first-start output"

# The first start makes its administrator with this address (app.BootstrapEmail).
admin_email=admin@docsd.localhost
user_email=writer@blackbox.test
org_title="Blackbox Org"
user_id=$("$docsd" admin create-user --email "$user_email" --name "Blackbox User")
user_token=$("$docsd" admin create-token --email "$user_email")
org_id=$("$docsd" admin create-org --title "$org_title" --owner "$admin_email")

echo "docsd at $url (data in $DOCSD_DATA_DIR)"
status=0
(
    cd "$here"
    BLACKBOX_URL="$url" \
    BLACKBOX_ADMIN_TOKEN="$admin_token" \
    BLACKBOX_USER_TOKEN="$user_token" \
    BLACKBOX_USER_ID="$user_id" \
    BLACKBOX_USER_EMAIL="$user_email" \
    BLACKBOX_ORG_ID="$org_id" \
    BLACKBOX_ORG_TITLE="$org_title" \
    BLACKBOX_BUILD_VERSION="$build_version" \
    BLACKBOX_BUILD_DATE="$build_date" \
    node client.mjs
) || status=$?

# The README's walk-throughs, each run exactly as it is written there: the shell block between
# its <!-- NAME:start --> and <!-- NAME:end --> markers.
readme_block() {
    sed -n "/^<!-- $1:start -->$/,/^<!-- $1:end -->$/p" "$root/README.md" |
        sed -n '/^```sh$/,/^```$/p' | sed '1d;$d'
}
readme_passed=0
readme_failed=0
# walkthrough NAME TITLE CHECK: runs the block NAME and passes CHECK its output as $out.
walkthrough() {
    local name=$1 title=$2 check=$3 script="$work/$1.sh" out=""
    readme_block "$name" > "$script"
    if [ ! -s "$script" ]; then
        echo "FAIL  README walk-through: no $name block found in README.md"
    elif out=$(cd "$work" && DOCSD="$url" TOKEN="$admin_token" bash -euo pipefail "$script" 2>&1) && eval "$check"; then
        echo "ok    README walk-through: $title"
        readme_passed=$((readme_passed + 1))
        return
    else
        echo "FAIL  README walk-through: $title"
        printf '%s\n' "$out" | sed 's/^/      /'
    fi
    readme_failed=$((readme_failed + 1))
    status=1
}

walkthrough walkthrough "organize your docs" \
    '[ "$(printf "%s\n" "$out" | head -n 1)" = "\"title\":\"API reference\"" ] &&
     printf "%s\n" "$out" | grep -qx "\"editMode\":\"locked\""'
# It prints the published site's address, then the sentence its change request wrote, as
# found in the page the site serves.
walkthrough publish-walkthrough "from a folder of markdown to a published site" \
    'printf "%s\n" "$out" | grep -q "^$url/sites/.*/handbook/\$" &&
     [ "$(printf "%s\n" "$out" | tail -n 1)" = "Download docsd from its releases page" ]'
echo "README walk-throughs: $readme_passed passed, $readme_failed failed"

if [ "$status" != 0 ] && [ -s "$work/server.err" ]; then
    echo "--- server log (warnings and errors) ---"
    tail -n 40 "$work/server.err"
fi
exit "$status"
