# The C parts of the compiled meld check that other compiled modules (score.pyx) use: the card table, the per-RuleSet
# table and the meld classifier. Defined in meld.pyx.

ctypedef struct Facts:
    int ok
    int kind      # 0 '' (no meld kind), 1 group, 2 black threes, 3 sequence
    int rank      # group: 0..10 (cards.NATURAL_RANKS), 11 the threes; sequence: the suit 0..3; -1: ''
    int canasta   # 0 none, 1 natural, 2 mixed, 3 samba
    long points

cdef class RulesTable:
    cdef readonly object rules
    cdef readonly bint fits  # every number below fits its C type with room to add: else the pure path answers
    cdef int decks, jokers, wild_limit, max_wild, sequences, black_threes_with_wild
    cdef long natural_bonus, mixed_bonus, samba_bonus, concealed_canasta_bonus
    cdef long red_three_bonus, all_red_threes_bonus, red_three_penalty, all_red_threes_penalty
    cdef long going_out_bonus, concealed_going_out_bonus
    cdef int canastas_to_go_out, red_threes_in_game

cdef RulesTable rules_table(object rules)
cdef int card_index(object card) noexcept
cdef int classify(object cards, RulesTable t, bint going_out, Facts* f) noexcept
cdef int card_kind(int index) noexcept
cdef int card_points(int index) noexcept
