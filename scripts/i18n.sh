#!/usr/bin/env bash
# The gettext catalogs of canasta-tutor, with Babel (see canasta_tutor/engine/i18n.py and docs/glossary.md).
#   bash scripts/i18n.sh extract   canasta_tutor/ -> canasta_tutor/locale/canasta_tutor.pot
#   bash scripts/i18n.sh update    the .pot's new and changed messages into each language's .po
#   bash scripts/i18n.sh init LANG start a new language's .po (its Plural-Forms from Babel's CLDR data)
#   bash scripts/i18n.sh check     every .po compiles (pybabel compile's own checks), nothing written
# No .mo is kept: canasta_tutor.engine.i18n reads the .po files with Babel at first use.
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL="${PYBABEL:-.venv/bin/pybabel}"
POT=canasta_tutor/locale/canasta_tutor.pot
KEYWORDS=(-k N_ -k NP_:1c,2 -k NPN_:1c,2,3)
case "${1:-}" in
  extract)
    "$PYBABEL" extract -F babel.cfg "${KEYWORDS[@]}" --project canasta-tutor --version 0.1.0 \
      --msgid-bugs-address "" --copyright-holder "canasta-tutor" --sort-by-file --width 120 \
      --add-comments "Translators:" -o "$POT" canasta_tutor ;;
  update)
    "$PYBABEL" update -i "$POT" -d canasta_tutor/locale -D canasta_tutor --width 120 --ignore-obsolete ;;
  init)
    "$PYBABEL" init -i "$POT" -d canasta_tutor/locale -D canasta_tutor -l "$2" --width 120 ;;
  check)
    for po in canasta_tutor/locale/*/LC_MESSAGES/canasta_tutor.po; do
      "$PYBABEL" compile --statistics --use-fuzzy -i "$po" -o /dev/null -l "$(basename "$(dirname "$(dirname "$po")")")"
    done ;;
  *) echo "usage: bash scripts/i18n.sh extract|update|init LANG|check" >&2; exit 2 ;;
esac
