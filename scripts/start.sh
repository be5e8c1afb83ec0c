#!/usr/bin/env bash
# Install (first run only) and start the Canasta lessons in the browser: `canasta-tutor serve`.
# Extra arguments go to it, e.g. --port 9000 or --no-browser.
set -euo pipefail
source "$(dirname "$0")/_setup.sh"
exec .venv/bin/canasta-tutor serve "$@"
