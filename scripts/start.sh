#!/usr/bin/env bash
# Install (first run only) and start the Canasta lessons in the browser.
set -euo pipefail
source "$(dirname "$0")/_setup.sh"
exec .venv/bin/jupyter lab --notebook-dir=lessons "$@"
