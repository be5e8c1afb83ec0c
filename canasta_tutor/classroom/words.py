"""The puzzle data's own words as a teacher reads them: a topic (``taking the pile``) and a kind (``take-pile``),
in the current language (:mod:`canasta_tutor.engine.i18n`). The data keeps its English names (stored answers,
puzzle files, ids); only what is shown is translated.

>>> topic_name("taking the pile"), kind_name("take-pile"), topic_name("a topic of one's own")
('taking the pile', 'take-pile', "a topic of one's own")
"""

from __future__ import annotations

from ..engine.i18n import NP_, pgettext
from ..puzzles.practice import topic_name as practice_topic_name

#: The puzzle kinds as a teacher's menus and exports name them (context "kind": English keeps the kind's own name).
KIND_NAMES = {pair[1]: pair for pair in (
    NP_("kind", "card-points"), NP_("kind", "meld"), NP_("kind", "opening"), NP_("kind", "freeze"),
    NP_("kind", "take-pile"), NP_("kind", "go-out"), NP_("kind", "score-hand"))}


def topic_name(topic):
    """A topic in the current language, as the learner's practice room names it (:func:`puzzles.practice.topic_name`);
    any other value (a missing topic) stays as it is."""
    return practice_topic_name(topic) if isinstance(topic, str) and topic else topic


def kind_name(kind):
    """A puzzle kind's name in the current language (an unknown kind stays as it is)."""
    return pgettext(*KIND_NAMES[kind]) if kind in KIND_NAMES else kind


__all__ = ["KIND_NAMES", "kind_name", "topic_name"]
