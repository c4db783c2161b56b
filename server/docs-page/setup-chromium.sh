#!/usr/bin/env bash
# Debian's Chromium for the /docs browser test, installed only when missing (the package lists are
# refreshed once, just before that install). Playwright drives it as /usr/bin/chromium: no browser
# download of Playwright's own.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "setup-chromium: /usr/bin/chromium is missing; run as root (or: sudo apt-get install chromium)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y chromium
