#!/usr/bin/env bash
# System packages the docs need: headless Chromium (printable PDFs; its driver for the selenium
# browser tests), Noto and DejaVu fonts (text, Armenian and Hebrew quotes, suit signs, code) and
# poppler-utils (pdfinfo, pdftotext). Installs only what is missing.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
if ! fc-list 2>/dev/null | grep -q "Noto Sans Armenian" || ! fc-list 2>/dev/null | grep -q "Noto Sans Hebrew"; then
  need+=(fonts-noto-core)
fi
fc-list 2>/dev/null | grep -q "DejaVu Sans Mono" || need+=(fonts-dejavu-core)
command -v pdfinfo >/dev/null 2>&1 || need+=(poppler-utils)
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "system-deps: need root to install: ${need[*]}" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" fontconfig >/dev/null
fi
