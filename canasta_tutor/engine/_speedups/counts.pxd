# The C declarations of the counting core's flat closed forms (engine/counts.py, its last section, compiled by
# counts.pyx): goout.pyx and take.pyx cimport them and call them once they have read their arguments into counts.
# The constants are C ints in the compiled module (set by counts.py's own lines).

cdef int TAKE_NO, TAKE_PAIR, TAKE_LAY_OFF, TAKE_NATURAL_AND_WILD, TAKE_EXPLAIN
cdef int ONE_CARD_RULE, ALWAYS_FROZEN, RED_THREE_FREEZES, BLACK_THREE_FREEZES, ONTO_CANASTA, NATURAL_AND_WILD
cdef int PILE_WILD, PILE_RED_THREE, PILE_BLACK_THREE
cdef int FLAT_CANASTA
cdef int FROZEN_WILD, FROZEN_RED_THREE, FROZEN_BLACK_THREE, FROZEN_UNOPENED, FROZEN_ALWAYS

cdef int flat_frozen(int pile_bits, int flags, int nm) noexcept

cdef int flat_cap(int* caps, int ncaps, long long n) noexcept
cdef bint flat_legal_group(int nat, int wild, int* caps, int ncaps) noexcept
cdef int flat_most_canastas(int* count, int nranks, int wild, int black, int* tnat, int* twild, int* tsize,
                            int* intable, int base, int* caps, int ncaps, bint black_wild) noexcept
cdef bint flat_black_placed(int black, bint black_wild) noexcept
cdef bint flat_go_out(int* count, int nranks, int wild, int black, int* tnat, int* twild, int* tsize, int* intable,
                      int base, int need, int* caps, int ncaps, bint black_wild) noexcept
cdef int flat_go_out_discards(int* count, int nranks, int wild, int black, int* tnat, int* twild, int* tsize,
                              int* intable, int base, int need, int* caps, int ncaps, bint black_wild,
                              bint first) noexcept
cdef long long flat_wild_sum(int* wild_values, int nwild, long long used, int skip_a, int skip_b) noexcept
cdef long long flat_group_points(int* rank_count, int nranks, int* rank_points, int* by_points, int* wild_values,
                                 int nwild, int rank, int top_points, int* caps, int ncaps, int drop_a, int drop_b,
                                 int skip_a, int skip_b) noexcept
cdef long long flat_keep_points(int* rank_count, int nranks, int* rank_points, int* by_points, int* wild_values,
                               int nwild, int others, int rank, int top_points, int* caps, int ncaps,
                               int keep) noexcept
cdef bint flat_opening_keeps(int* rank_count, int nranks, int* rank_points, int* by_points, int* wild_values,
                             int nwild, int others, int rank, int top_points, int* caps, int ncaps, int keep,
                             long long minimum) noexcept
cdef int flat_take_way(bint stopped, int np, int nh, int nm, bint stock_empty, int pile_bits, int red_in_pile,
                       int nat_count, bint wild_pick, bint team, int team_n, int team_nat, int team_wild,
                       bint team_canasta, int canastas, int flags, int need, long long minimum, int* caps, int ncaps,
                       int* rank_count, int nranks, int* rank_points, int* by_points, int* wild_values, int nwild,
                       int others, int rank, int top_points) noexcept
