#!/usr/bin/env bash
# Install everything (first run only) and run every test. Extra arguments go to pytest.
set -euo pipefail
source "$(dirname "$0")/_setup.sh" test
exec .venv/bin/python -m pytest "$@"
