#!/usr/bin/env bash
# Install everything (first run only) and run every test. Extra arguments go to pytest.
set -euo pipefail
source "$(dirname "$0")/_setup.sh" test
if [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium for the browser tests"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null; } ||
    echo "!! could not install chromium: the browser tests will fail (apt-get install chromium)"
fi
exec .venv/bin/python -m pytest "$@"
