"""canasta-tutor: learn Canasta step by step, with a rules engine that explains itself.

The engine (everything here but :mod:`canasta_tutor.widgets`) is pure Python:
importing it loads no Jupyter package and no pandas (pandas is imported only
where a DataFrame is made).

>>> from canasta_tutor import check_take_pile
>>> print(check_take_pile("7H KD 4C", melds=[], score=0, pile="5D 2C 7C").sentence)  # doctest: +NORMALIZE_WHITESPACE
No: the pile is frozen because 2♣ lies in it. The pile is frozen for your team because your team has not
melded yet. So you need two natural 7s in your hand to take it; you hold only 7♥.
"""

from .engine.cards import ALL_CARDS, Card, card_points, format_card, format_cards, parse_card, parse_cards
from .engine.errors import CanastaError, NotationError, PuzzleError, RulesError, SituationError
from .engine.going_out import GoOutPlan, GoOutVerdict, check_go_out, find_go_out
from .engine.melds import (
                    MeldVerdict,
                    canasta_kind,
                    check_add_to_meld,
                    check_meld,
                    check_swap,
                    check_team_melds,
                    count_canastas,
                    is_canasta,
                    is_meld,
                    meld_points,
)
from .engine.opening import OpeningVerdict, check_opening, max_meld_points, opening_minimum
from .engine.pile import TakeVerdict, check_frozen, check_stopped, check_take_pile, is_frozen
from .engine.rules import (
                    CLASSIC,
                    CLASSIC_2P,
                    CLASSIC_3P,
                    CLASSIC_6P,
                    DANISH,
                    HOYLE,
                    PRESETS,
                    SAMBA,
                    RuleSet,
                    differing_options,
                    get_rules,
                    presets_table,
                    with_options,
)
from .engine.scoring import GameScore, ScoreItem, ScoreSheet, score_hand
from .engine.situation import Situation
from .engine.verdict import Reason, Verdict

__version__ = "0.1.0"

__all__ = [
    "ALL_CARDS", "Card", "card_points", "format_card", "format_cards", "parse_card", "parse_cards",
    "CanastaError", "NotationError", "PuzzleError", "RulesError", "SituationError",
    "GoOutPlan", "GoOutVerdict", "check_go_out", "find_go_out",
    "MeldVerdict", "canasta_kind", "check_add_to_meld", "check_meld", "check_swap", "check_team_melds",
    "count_canastas", "is_canasta", "is_meld", "meld_points",
    "OpeningVerdict", "check_opening", "max_meld_points", "opening_minimum",
    "TakeVerdict", "check_frozen", "check_stopped", "check_take_pile", "is_frozen",
    "CLASSIC", "CLASSIC_2P", "CLASSIC_3P", "CLASSIC_6P", "DANISH", "HOYLE", "PRESETS", "SAMBA", "RuleSet",
    "differing_options", "get_rules", "presets_table", "with_options",
    "GameScore", "ScoreItem", "ScoreSheet", "score_hand", "Situation", "Reason", "Verdict",
]
