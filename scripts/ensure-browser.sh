#!/usr/bin/env bash
# Installs Debian's Chromium builds when they are missing (as root on
# Debian/Ubuntu); elsewhere prints the command to run. Used by .ci/run and
# the README's quick start.
set -euo pipefail
if [ -x /usr/lib/chromium/chromium-headless-shell ] && [ -x /usr/lib/chromium/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing chromium-headless-shell and chromium with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium-headless-shell chromium >/dev/null
else
  echo "no Chromium found; install one: sudo apt-get install -y chromium-headless-shell chromium" >&2
  exit 3
fi
