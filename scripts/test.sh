#!/usr/bin/env bash
# Install everything (first run only) and run every test. Every argument goes to pytest.
set -euo pipefail
CANASTA_SETUP_EXTRAS=test source "$(dirname "$0")/_setup.sh"
if [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium for the browser tests"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null; } ||
    echo "!! could not install chromium: the browser tests will fail (apt-get install chromium)"
fi
if [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
  echo "== installing Debian's fonts-dejavu-core (suit symbols in the worksheet PDFs)"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq fonts-dejavu-core >/dev/null; } ||
    echo "!! could not install fonts-dejavu-core: a worksheet test will fail (apt-get install fonts-dejavu-core)"
fi
exec .venv/bin/python -m pytest "$@"
