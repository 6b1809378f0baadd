#!/usr/bin/env bash
# Installs what the worker needs when it is missing (as root on Debian/Ubuntu):
# Debian's Chromium builds, and bubblewrap, which contains the worker in its own
# namespaces (docs/security.md). Elsewhere prints the command to run. Says on
# stderr what it found (or installed). Used by .ci/run and the README's quick start.
set -euo pipefail
HEADLESS=/usr/lib/chromium/chromium-headless-shell
FULL=/usr/lib/chromium/chromium

# What is there, one line each: the path and the version it reports.
report() {
  local binary
  for binary in "$HEADLESS" "$FULL"; do
    if [ -x "$binary" ]; then
      echo "ensure-browser: found $binary ($("$binary" --version 2>/dev/null | head -n 1 | sed 's/ *$//'))" >&2
    fi
  done
  if command -v bwrap >/dev/null 2>&1; then
    echo "ensure-browser: found $(command -v bwrap) ($(bwrap --version 2>/dev/null | head -n 1)): the worker can be contained" >&2
  fi
}

missing=()
if ! { [ -x "$HEADLESS" ] && [ -x "$FULL" ]; }; then
  missing+=(chromium-headless-shell chromium)
fi
if ! command -v bwrap >/dev/null 2>&1; then
  missing+=(bubblewrap)
fi
report
if [ "${#missing[@]}" -eq 0 ]; then
  echo "ensure-browser: nothing to install" >&2
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-browser: installing ${missing[*]} with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
  report
else
  echo "ensure-browser: missing ${missing[*]}; install with: sudo apt-get install -y ${missing[*]}" >&2
  exit 3
fi
