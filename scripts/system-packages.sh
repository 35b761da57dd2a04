#!/usr/bin/env bash
# Installs the Debian packages the VS Code tests and `npm start` need, when missing:
# chromium (the browser that drives the workbench) and libkrb5-dev (code-server's native build).
set -euo pipefail
missing=()
[[ -x ${CHROMIUM:-/usr/bin/chromium} ]] || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
((${#missing[@]})) || exit 0
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  sudo -n true 2>/dev/null || { echo "[system-packages] missing: ${missing[*]}; install them: sudo apt-get install -y ${missing[*]}" >&2; exit 1; }
  sudo="sudo -n"
fi
echo "[system-packages] installing ${missing[*]} (apt-get)"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" </dev/null >/dev/null
