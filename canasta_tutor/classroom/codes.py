"""A learner's personal code: six letters and digits that a child can copy from a card, none that reads as
another. Apart from :mod:`accounts` so that the roster, which gives a new learner a code, and the accounts, which
change the roster, do not import each other."""

from __future__ import annotations

import secrets

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6

def new_code() -> str:
    """A personal code: six letters and digits, none that reads as another (no 0/O, 1/I/L)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(typed) -> str:
    """A code as typed on a card's form ("k7p-m3q", " K7P M3Q ") in the form it is kept ("K7PM3Q")."""
    return "".join(ch for ch in str(typed or "").upper() if ch.isalnum())
