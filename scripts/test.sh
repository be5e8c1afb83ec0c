#!/usr/bin/env bash
# Install everything (first run only) and run every test. Every argument goes to pytest.
set -euo pipefail
CANASTA_SETUP_EXTRAS=test source "$(dirname "$0")/_setup.sh"

# Debian packages the tests need: chromium (browser tests), fonts-dejavu-core (suit symbols in worksheet PDFs),
# postgresql (the storage tests' second backend).
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
# postgresql: the progress/classroom tests run against a throw-away PostgreSQL server too (tests/pgserver.py).
{ ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null; } || missing+=(postgresql)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "== installing Debian's ${missing[*]} for the tests"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null; } ||
    echo "!! could not install ${missing[*]}: some tests will fail (apt-get install ${missing[*]})"
fi
# axe-core (npm) for the browser tests' accessibility scan, into a git-ignored folder.
if [ ! -f tests/.axe/node_modules/axe-core/axe.min.js ]; then
  echo "== installing axe-core (npm) for the browser tests' accessibility scan"
  { command -v npm >/dev/null && npm install --prefix tests/.axe --no-audit --no-fund --silent axe-core@4 >/dev/null; } ||
    echo "!! could not install axe-core: the browser tests will fail (needs npm)"
fi
# configurable-http-proxy (npm) for the JupyterHub test (tests/test_hub.py), into a git-ignored folder.
if [ ! -x tests/.chp/node_modules/.bin/configurable-http-proxy ]; then
  echo "== installing configurable-http-proxy (npm) for the JupyterHub test"
  { command -v npm >/dev/null && npm install --prefix tests/.chp --no-audit --no-fund --silent configurable-http-proxy@4 >/dev/null; } ||
    echo "!! could not install configurable-http-proxy: the JupyterHub test will fail (needs npm)"
fi
# the linter first (configured in pyproject.toml: pyflakes, pycodestyle, import order, bugbear, pyupgrade, complexity)
.venv/bin/python -m ruff check --quiet .
# two workers (pytest-xdist): the files that start servers and browsers run one after another on one of them, the
# rest on the other (tests/conftest.py); CANASTA_TEST_WORKERS=0 runs everything in this one process
exec .venv/bin/python -m pytest -n "${CANASTA_TEST_WORKERS:-2}" --dist loadscope "$@"
