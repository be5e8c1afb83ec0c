"""The ``random`` bot: any legal action, each as likely as the others."""

from __future__ import annotations

from ..engine.i18n import gettext as _
from ._registry import register


class RandomBot:
    """Chooses uniformly among the legal actions.

    >>> import random
    >>> from canasta_tutor.game import Action
    >>> RandomBot().choose(None, [Action("draw")], random.Random(1))  # doctest: +NORMALIZE_WHITESPACE
    (Action(kind='draw', cards=(), target=None, melds=(), lay_offs=(), swaps=(), wild=None, discard=None),
     'I picked one of the 1 legal moves at random.')
    """

    name = "random"

    def choose(self, observation, legal_actions, rng):
        action = legal_actions[rng.randrange(len(legal_actions))]
        return action, _("I picked one of the {count} legal moves at random.").format(count=len(legal_actions))


register("random", RandomBot)
