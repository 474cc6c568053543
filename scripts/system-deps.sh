#!/usr/bin/env bash
# Install the Debian packages the project needs, only those that are missing.
#   scripts/system-deps.sh run    — what the site needs: Pango for WeasyPrint, CJK fonts, gettext
#   scripts/system-deps.sh test   — also Chromium (browser tests, driven by Playwright) and poppler-utils
# Never downloads a browser of its own: Playwright drives Debian's /usr/bin/chromium.
set -euo pipefail
mode=${1:-run}
packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b fonts-noto-cjk fontconfig gettext)
if [ "$mode" = "test" ]; then
  packages+=(chromium poppler-utils)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "Installing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "Need root (or sudo) to install: ${missing[*]}" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
