#!/usr/bin/env bash
# System packages the docs need: headless Chromium and its driver (browser tests, printable
# PDFs), and fonts with Armenian and Hebrew glyphs (Noto). Installs only what is missing.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
if ! fc-list 2>/dev/null | grep -q "Noto Sans Armenian" || ! fc-list 2>/dev/null | grep -q "Noto Sans Hebrew"; then
  need+=(fonts-noto-core)
fi
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "system-deps: need root to install: ${need[*]}" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" fontconfig >/dev/null
fi
