#!/usr/bin/env bash
# Install (first run only) and start the Canasta lessons in the browser: `canasta-tutor serve`.
# Every argument goes to `canasta-tutor serve`, e.g. --port 9000 or --no-browser.
set -euo pipefail
CANASTA_SETUP_EXTRAS="" source "$(dirname "$0")/_setup.sh"
exec .venv/bin/canasta-tutor serve "$@"
