# Shared set-up for scripts/start.sh and scripts/test.sh: a virtual environment in .venv
# with canasta-tutor installed (editable) and its dependencies. Re-installs only when
# pyproject.toml changed since the last install.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

pick_python() {
  for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      echo "$candidate"; return 0
    fi
  done
  echo "canasta-tutor needs Python 3.11 or newer; none was found on PATH." >&2
  return 1
}

extras="${1:-}"
if [ ! -x .venv/bin/python ]; then
  echo "== creating a virtual environment in .venv"
  "$(pick_python)" -m venv .venv
fi
stamp=".venv/.canasta-tutor-installed${extras:+-$extras}"
want="$(cat pyproject.toml | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "== installing canasta-tutor${extras:+[$extras]} and its dependencies (first run takes a few minutes)"
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".${extras:+[$extras]}"
  echo "$want" > "$stamp"
fi
