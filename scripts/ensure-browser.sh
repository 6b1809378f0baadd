#!/usr/bin/env bash
# Installs what the worker needs when it is missing (as root on Debian/Ubuntu):
# Debian's Chromium builds, and bubblewrap, which contains the worker in its own
# namespaces (docs/security.md). Elsewhere prints the command to run. Used by
# .ci/run and the README's quick start.
set -euo pipefail
missing=()
if ! { [ -x /usr/lib/chromium/chromium-headless-shell ] && [ -x /usr/lib/chromium/chromium ]; }; then
  missing+=(chromium-headless-shell chromium)
fi
if ! command -v bwrap >/dev/null 2>&1; then
  missing+=(bubblewrap)
fi
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${missing[*]} with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "missing: ${missing[*]}; install with: sudo apt-get install -y ${missing[*]}" >&2
  exit 3
fi
