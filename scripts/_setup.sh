# Shared set-up for scripts/start.sh and scripts/test.sh: a virtual environment in .venv
# with canasta-tutor installed (editable) and its dependencies. Re-installs only when
# pyproject.toml, setup.py or a compiled module's source (canasta_tutor/engine/_speedups/*.pyx, *.pxd) changed since the last
# install (the re-install rebuilds the compiled modules in place).
#
# Sourced, so it never reads the caller's arguments: the caller names the extras to install in
# CANASTA_SETUP_EXTRAS (empty for the lessons, "test" for the test suite).
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

setup_extras="${CANASTA_SETUP_EXTRAS:-}"
case "$setup_extras" in
  ""|test) ;;
  *) echo "scripts/_setup.sh: unknown extras '$setup_extras' (expected nothing or 'test')" >&2; exit 2 ;;
esac
if [ ! -x .venv/bin/python ]; then
  echo "== creating a virtual environment in .venv"
  "$(pick_python)" -m venv .venv
fi
stamp=".venv/.canasta-tutor-installed${setup_extras:+-$setup_extras}"
want="$(cat pyproject.toml setup.py canasta_tutor/engine/_speedups/*.pyx canasta_tutor/engine/_speedups/*.pxd canasta_tutor/engine/speedups.py canasta_tutor/engine/counts.py 2>/dev/null | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "== installing canasta-tutor${setup_extras:+[$setup_extras]} and its dependencies (first run takes a few minutes)"
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".${setup_extras:+[$setup_extras]}"
  echo "$want" > "$stamp"
fi
