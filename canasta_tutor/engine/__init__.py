"""The rules engine: cards, rule presets, situations, the checks and their verdicts, scoring (no Jupyter import).

Everything here imports only from this folder; :mod:`canasta_tutor` re-exports the public names.
"""
