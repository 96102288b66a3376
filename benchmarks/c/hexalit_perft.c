/* Hexalit perft, a C baseline for `ludothek perft hexalit` (issue 16).
 *
 * Written from shared/rules/hexalit.md, trigeo.md and triangle-board.md; it counts what
 * ludothek/games/hexalit/kernels.py `perft` counts.  The board and the moves of the faces
 * are Trigeo's (the geometry below is trigeo_perft.c's), without jump fields and promotion.
 *
 * What is counted: a turn is one move or one roll.  A die may be rolled if it shows 2, or 1
 * while its side has two or more 1s; at the last ply a roll is six leaves (one per face),
 * deeper it recurses into the six outcomes.  A rolled face is temporary.  At the end of a
 * turn every lone 1 (a side's only 1) becomes permanent; then, unless the Eins-Gebot held at
 * the start of the turn, the mover's other temporary dice (except the one rolled this turn)
 * turn back into 2s, and a lone 1 of the mover becomes permanent again.  A side with no 1
 * has lost, and a position without any action (no move, no roll) is over too: either is one
 * leaf.  With exactly one 1 and that 1 attacked (the Eins-Gebot) the only actions are the
 * moves of that 1 to cells where it is not attacked.  Repetition and the ply limit are not
 * looked at (nor by ludothek's perft).
 *
 * Design: a set of cells is a 128-bit mask (unsigned __int128); a position is one mask per
 * side and face (plus the side's dice) and the mask of temporary dice, 240 bytes, copied
 * for each child (copy-make: the end of a turn may change several dice).  A bishop's or
 * rook's reach is one table lookup by `pext` of the occupancy of its rays' cells (the last
 * cell of each ray left out: at most 6 cells, so the tables are small), a queen's is both;
 * "is this cell attacked" is one AND per face for 1s, 2s and 3s and a "nothing between"
 * mask per candidate slider.  The last ply is counted with popcounts, without making the
 * moves; all 2s of a side are counted at once (their steps and captures as three shifts
 * each, rows that go as far shifted together).  Needs BMI2 (pext/pdep).
 *
 * Usage: hexalit_perft DEPTH [BOARD [TEMP [SIDE]]]
 *   BOARD: the 66 cells as in ludothek's `state.board`, comma-separated (+f a White die
 *          showing f, -f Black, 0 empty); TEMP: 66 characters 0/1 (`state.temp`), or `-`
 *          for none; SIDE: 0 White to move, 1 Black.  Default: the start position.
 *   Prints `<depth> <leaves>` for every depth from 1 to DEPTH, and the leaves per second
 *   of each depth on stderr.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <immintrin.h>

typedef unsigned __int128 mask;
enum { CELLS = 66, WHITE = 0, BLACK = 1 };

static inline mask bit(int cell) { return (mask)1 << cell; }
static inline int popcount(mask m) { return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64)); }
static inline int lowest(mask m) { uint64_t lo = (uint64_t)m; return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64)); }
static inline int single(mask m) { return m && !(m & (m - 1)); }

/* ------------------------------------------------------------------ geometry */
static int cell_of[8][15];   /* (r, c) -> cell or -1 */
static int row_of[CELLS], col_of[CELLS];
static int next_cell[CELLS][6];            /* N NE SE S SW NW; -1 past the edge */
static mask ray[CELLS][6];                 /* cells along the ray, the cell excluded */
static mask touch[CELLS], knight[CELLS], knight_from[CELLS];  /* knight moves are not symmetric */
static mask pawn_step[2][CELLS], pawn_capture[2][CELLS];
static unsigned slide_dirs_of_face[7][CELLS];  /* which directions a 4/5/6 slides: bit d */
static mask slider_from[7][CELLS];         /* cells from which a 4/5/6 reaches the cell on an empty board */
static mask between[CELLS][CELLS];         /* cells strictly between two cells of one ray */
/* All 2s of a side at once: the 2s of row r (1..5 from the row they leave) whose step, left
 * or right capture exists, and how far (in cell numbers) they go; a row's targets are one
 * row, and distinct sources have distinct targets, so a shift per row and kind suffices. */
static mask pawn_rows[2][3][5];
static int pawn_shift[2][3][5];            /* signed; as `pawn_delta` (checked when built) */
static const int pawn_delta[2][5] = {{10, 12, 13, 12, 10}, {-10, -12, -13, -12, -10}};

/* A bishop's (face 4) or rook's (face 5) reach from a cell, looked up by the occupancy of
 * its rays' cells but the last of each (pext); a queen's (6) is both. */
typedef struct { uint64_t lo, hi; int low_count; const mask *reach; } Slider;
static Slider slider[2][CELLS];

static int exists(int r, int c) { int half = 3 + (r < 7 - r ? r : 7 - r); return r >= 1 && r <= 6 && abs(c - 7) <= half; }
static int at(int r, int c) { return (r >= 1 && r <= 6 && c >= 1 && c <= 13) ? cell_of[r][c] : -1; }
static int is_up(int r, int c) { return (r + c) % 2 == 0; }

static void build_slider(int kind, int s) {
    unsigned dirs = slide_dirs_of_face[4 + kind][s];
    mask relevant = 0;
    for (int d = 0; d < 6; d++)
        if ((dirs >> d) & 1)
            for (int t = next_cell[s][d]; t >= 0 && next_cell[t][d] >= 0; t = next_cell[t][d]) relevant |= bit(t);
    uint64_t lo = (uint64_t)relevant, hi = (uint64_t)(relevant >> 64);
    int cells = popcount(relevant), low = __builtin_popcountll(lo);
    mask *table = malloc(sizeof(mask) << cells);
    for (uint64_t index = 0; index < (1ull << cells); index++) {
        mask occupied = _pdep_u64(index, lo) | ((mask)_pdep_u64(index >> low, hi) << 64), reach = 0;
        for (int d = 0; d < 6; d++)
            if ((dirs >> d) & 1)
                for (int t = next_cell[s][d]; t >= 0; t = next_cell[t][d]) {
                    reach |= bit(t);
                    if (occupied & bit(t)) break;
                }
        table[index] = reach;
    }
    slider[kind][s] = (Slider){lo, hi, low, table};
}

static void build_geometry(void) {
    int n = 0;
    memset(cell_of, -1, sizeof cell_of);
    for (int r = 1; r <= 6; r++)
        for (int c = 1; c <= 13; c++)
            if (exists(r, c)) { cell_of[r][c] = n; row_of[n] = r; col_of[n] = c; n++; }
    static const int up_step[6][2] = {{-1, 0}, {0, 1}, {1, 2}, {1, 0}, {1, -2}, {0, -1}};
    static const int down_step[6][2] = {{-1, 0}, {-1, 2}, {0, 1}, {1, 0}, {0, -1}, {-1, -2}};
    static const int up_touch[12][2] = {{0, -1}, {0, 1}, {1, 0}, {0, -2}, {0, 2}, {-1, -1}, {-1, 0}, {-1, 1},
                                        {1, -1}, {1, 1}, {1, -2}, {1, 2}};
    for (int i = 0; i < CELLS; i++) {
        int r = row_of[i], c = col_of[i], up = is_up(r, c);
        for (int d = 0; d < 6; d++) {
            const int *s = up ? up_step[d] : down_step[d];
            next_cell[i][d] = at(r + s[0], c + s[1]);
        }
        for (int k = 0; k < 12; k++) {  /* a down cell touches the mirror image in the row direction */
            int t = at(r + (up ? up_touch[k][0] : -up_touch[k][0]), c + up_touch[k][1]);
            if (t >= 0) touch[i] |= bit(t);
        }
        for (int s = 0; s < 2; s++) {
            int dr = s == WHITE ? 1 : -1, f = at(r + dr, c), a = at(r + dr, c - 1), b = at(r + dr, c + 1);
            if (f >= 0) pawn_step[s][i] = bit(f);
            if (a >= 0) pawn_capture[s][i] |= bit(a);
            if (b >= 0) pawn_capture[s][i] |= bit(b);
        }
    }
    for (int i = 0; i < CELLS; i++) {
        int up = is_up(row_of[i], col_of[i]);
        for (int d = 0; d < 6; d++) {
            for (int t = next_cell[i][d]; t >= 0; t = next_cell[t][d]) ray[i][d] |= bit(t);
            int side_dir = (d & 1) == up;
            if (!side_dir) {  /* corner direction: knight's 1st and 2nd cell, bishop */
                int t = next_cell[i][d];
                if (t >= 0) { knight[i] |= bit(t); if (next_cell[t][d] >= 0) knight[i] |= bit(next_cell[t][d]); }
                slide_dirs_of_face[4][i] |= 1u << d;
            } else {
                slide_dirs_of_face[5][i] |= 1u << d;
            }
            slide_dirs_of_face[6][i] |= 1u << d;
        }
    }
    for (int s = 0; s < CELLS; s++)
        for (int t = 0; t < CELLS; t++)
            if (knight[s] & bit(t)) knight_from[t] |= bit(s);
    for (int s = 0; s < CELLS; s++)
        for (int d = 0; d < 6; d++) {
            for (int t = next_cell[s][d]; t >= 0; t = next_cell[t][d]) {
                between[s][t] = ray[s][d] & ~ray[t][d] & ~bit(t);
                for (int f = 4; f <= 6; f++)
                    if ((slide_dirs_of_face[f][s] >> d) & 1) slider_from[f][t] |= bit(s);
            }
        }
    for (int s = 0; s < CELLS; s++) { build_slider(0, s); build_slider(1, s); }
    for (int sd = 0; sd < 2; sd++)
        for (int i = 0; i < CELLS; i++) {
            int r = row_of[i], c = col_of[i], dr = sd == WHITE ? 1 : -1, k = sd == WHITE ? r - 1 : r - 2;
            for (int kind = 0; kind < 3; kind++) {
                int t = at(r + dr, c + (kind == 0 ? 0 : kind == 1 ? -1 : 1));
                if (t < 0) continue;
                pawn_rows[sd][kind][k] |= bit(i);
                pawn_shift[sd][kind][k] = t - i;  /* the same for the whole row */
            }
        }
    for (int sd = 0; sd < 2; sd++)
        for (int k = 0; k < 5; k++)
            for (int kind = 0; kind < 3; kind++)
                if (pawn_shift[sd][kind][k] != pawn_delta[sd][k] + (kind == 0 ? 0 : kind == 1 ? -1 : 1)) {
                    fprintf(stderr, "pawn_delta is wrong\n");
                    exit(1);
                }
}

/* ------------------------------------------------------------------ position */
typedef struct {
    mask dice[2][7];   /* dice[side][face]; dice[side][0] = all of side's dice */
    mask temp;         /* dice whose face is temporary (rolled) */
} Position;

/* The cells a bishop (kind 0) or rook (kind 1) on `cell` reaches, given the occupied cells
 * (the first die on each ray included). */
static inline mask slide(int kind, int cell, uint64_t lo, uint64_t hi) {
    const Slider *s = &slider[kind][cell];
    return s->reach[_pext_u64(lo, s->lo) | (_pext_u64(hi, s->hi) << s->low_count)];
}
static inline mask slides(int cell, int face, uint64_t lo, uint64_t hi) {
    if (face == 6) return slide(0, cell, lo, hi) | slide(1, cell, lo, hi);
    return slide(face - 4, cell, lo, hi);
}

/* Could `by` capture on `target` with one move, the dice standing on `occupied`? (The die on
 * target itself counts as an enemy of `by`.) */
static inline int attacked_with(const Position *p, int target, int by, mask occupied) {
    const mask *d = p->dice[by];
    if ((touch[target] & d[1]) | (pawn_capture[1 - by][target] & d[2]) | (knight_from[target] & d[3])) return 1;
    mask sliders = (d[4] & slider_from[4][target]) | (d[5] & slider_from[5][target]) | (d[6] & slider_from[6][target]);
    for (; sliders; sliders &= sliders - 1)
        if (!(between[lowest(sliders)][target] & occupied)) return 1;
    return 0;
}
static inline int attacked(const Position *p, int target, int by) {
    return attacked_with(p, target, by, p->dice[0][0] | p->dice[1][0]);
}

/* The cells the threatened 1 on `one` can move to without being attacked there. */
static inline mask escapes(const Position *p, int side, int one) {
    mask reach = touch[one] & ~p->dice[side][0], safe = 0;
    mask occupied = (p->dice[0][0] | p->dice[1][0]) & ~bit(one);  /* the 1 has left its cell */
    for (mask r = reach; r; r &= r - 1) {
        int t = lowest(r);
        if (!attacked_with(p, t, 1 - side, occupied)) safe |= bit(t);
    }
    return safe;
}

/* The cells the 2s `pawns` of `side` step to (kind 0) or capture on (1, 2). */
static inline __attribute__((always_inline)) mask pawn_targets(int side, int kind, mask pawns) {
    /* rows k and 4 - k go as far (10, 12, 13, 12, 10): three shifts */
    const mask *rows = pawn_rows[side][kind];
    mask t = 0;
    for (int k = 0; k < 3; k++) {
        int shift = pawn_delta[side][k] + (kind == 0 ? 0 : kind == 1 ? -1 : 1);
        mask p = pawns & (k < 2 ? rows[k] | rows[4 - k] : rows[k]);
        t |= shift > 0 ? p << shift : p >> -shift;
    }
    return t;
}

/* The leaves of one more ply: every move one leaf, every roll six; 0 if no action. */
static inline __attribute__((always_inline)) uint64_t count_leaves_of(const Position *p, int side) {
    const mask *own = p->dice[side];
    mask ones = own[1];
    if (single(ones)) {
        int one = lowest(ones);
        if (attacked(p, one, 1 - side)) return (uint64_t)popcount(escapes(p, side, one));
    }
    mask mine = own[0], enemy = p->dice[1 - side][0], occupied = mine | enemy, free = ~mine;
    uint64_t lo = (uint64_t)occupied, hi = (uint64_t)(occupied >> 64);
    int n = 0;
    for (mask m = ones; m; m &= m - 1) n += popcount(touch[lowest(m)] & free);
    n += popcount(pawn_targets(side, 0, own[2]) & ~occupied) + popcount(pawn_targets(side, 1, own[2]) & enemy)
       + popcount(pawn_targets(side, 2, own[2]) & enemy);
    for (mask m = own[3]; m; m &= m - 1) n += popcount(knight[lowest(m)] & free);
    for (mask m = own[4]; m; m &= m - 1) n += popcount(slide(0, lowest(m), lo, hi) & free);
    for (mask m = own[5]; m; m &= m - 1) n += popcount(slide(1, lowest(m), lo, hi) & free);
    for (mask m = own[6]; m; m &= m - 1) {
        int c = lowest(m);
        n += popcount((slide(0, c, lo, hi) | slide(1, c, lo, hi)) & free);
    }
    int ones_count = popcount(ones);
    int rolls = popcount(own[2]) + (ones_count >= 2 ? ones_count : 0);
    return (uint64_t)n + 6u * (uint64_t)rolls;
}

static uint64_t count_leaves(const Position *p, int side) {
    return side == WHITE ? count_leaves_of(p, WHITE) : count_leaves_of(p, BLACK);
}

/* The end of `side`'s turn (ludothek's end_turn); `fresh`: the die rolled this turn (0 if none). */
static inline void end_turn(Position *p, int side, int keep, mask fresh) {
    mask w = p->dice[WHITE][1], b = p->dice[BLACK][1];
    if (single(w)) p->temp &= ~w;
    if (single(b)) p->temp &= ~b;
    if (keep) return;
    mask stale = p->temp & p->dice[side][0] & ~fresh;
    if (!stale) return;
    mask *own = p->dice[side];
    own[1] &= ~stale; own[3] &= ~stale; own[4] &= ~stale; own[5] &= ~stale; own[6] &= ~stale;
    own[2] |= stale;
    p->temp &= ~stale;
    if (single(own[1])) p->temp &= ~own[1];
}

typedef struct { uint8_t from, to, face; } Move;

static inline void make_move(Position *p, int side, Move m, int keep) {
    mask from = bit(m.from), to = bit(m.to), both = from | to;
    mask *enemy = p->dice[1 - side];
    if (enemy[0] & to)
        for (int f = 0; f <= 6; f++) enemy[f] &= ~to;
    p->dice[side][m.face] ^= both;
    p->dice[side][0] ^= both;
    p->temp = (p->temp & from) ? ((p->temp & ~from) | to) : (p->temp & ~to);  /* the flag goes with the die */
    end_turn(p, side, keep, 0);
}

static inline void make_roll(Position *p, int side, int cell, int old_face, int face, int keep) {
    mask b = bit(cell);
    p->dice[side][old_face] &= ~b;
    p->dice[side][face] |= b;
    p->temp |= b;
    end_turn(p, side, keep, b);
}

/* One leaf if the game is over, else the leaves of one more ply. */
static inline uint64_t leaves_below(const Position *p, int side) {
    if (!p->dice[WHITE][1] || !p->dice[BLACK][1]) return 1;
    uint64_t n = count_leaves(p, side);
    return n ? n : 1;
}

static uint64_t perft(const Position *p, int side, int depth) {
    if (!p->dice[WHITE][1] || !p->dice[BLACK][1]) return 1;
    if (depth == 1) { uint64_t n = count_leaves(p, side); return n ? n : 1; }
    const mask *own = p->dice[side];
    mask ones = own[1];
    Move moves[256];
    int n = 0, keep = 0;
    if (single(ones)) {
        int one = lowest(ones);
        if (attacked(p, one, 1 - side)) {  /* Eins-Gebot: only the escapes of the 1, no roll */
            keep = 1;
            for (mask r = escapes(p, side, one); r; r &= r - 1) moves[n++] = (Move){(uint8_t)one, (uint8_t)lowest(r), 1};
        }
    }
    mask rollable = 0;
    if (!keep) {
        mask mine = own[0], enemy = p->dice[1 - side][0], occupied = mine | enemy, free = ~mine;
        uint64_t lo = (uint64_t)occupied, hi = (uint64_t)(occupied >> 64);
        for (int f = 1; f <= 6; f++)
            for (mask m = own[f]; m; m &= m - 1) {
                int c = lowest(m);
                mask reach;
                switch (f) {
                case 1: reach = touch[c] & free; break;
                case 2: reach = (pawn_step[side][c] & ~occupied) | (pawn_capture[side][c] & enemy); break;
                case 3: reach = knight[c] & free; break;
                default: reach = slides(c, f, lo, hi) & free; break;
                }
                for (; reach; reach &= reach - 1) moves[n++] = (Move){(uint8_t)c, (uint8_t)lowest(reach), (uint8_t)f};
            }
        rollable = own[2] | (popcount(ones) >= 2 ? ones : 0);
    }
    if (n == 0 && !rollable) return 1;
    uint64_t leaves = 0;
    Position child;
    for (int i = 0; i < n; i++) {
        child = *p;
        make_move(&child, side, moves[i], keep);
        leaves += depth == 2 ? leaves_below(&child, 1 - side) : perft(&child, 1 - side, depth - 1);
    }
    for (mask m = rollable; m; m &= m - 1) {
        int c = lowest(m), old_face = (own[1] & bit(c)) ? 1 : 2;
        for (int face = 1; face <= 6; face++) {
            child = *p;
            make_roll(&child, side, c, old_face, face, keep);
            leaves += depth == 2 ? leaves_below(&child, 1 - side) : perft(&child, 1 - side, depth - 1);
        }
    }
    return leaves;
}

/* ------------------------------------------------------------------ input */
static const int start_board[CELLS] = {
    0, 5, 4, 3, 1, 4, 3, 5, 0,
    0, 0, 2, 2, 2, 6, 2, 2, 2, 0, 0,
    0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, -2, 0, 0, 0, 0, 0, 0,
    0, 0, -2, -2, -2, -6, -2, -2, -2, 0, 0,
    0, -5, -4, -3, -1, -4, -3, -5, 0};

static int parse(int argc, char **argv, Position *p, int *side) {
    int board[CELLS];
    memcpy(board, start_board, sizeof board);
    memset(p, 0, sizeof *p);
    *side = WHITE;
    if (argc > 2) {
        const char *s = argv[2];
        for (int i = 0; i < CELLS; i++) {
            char *end;
            long v = strtol(s, &end, 10);
            if (end == s || v < -6 || v > 6 || (i < CELLS - 1 ? *end != ',' : *end != 0)) return 0;
            board[i] = (int)v;
            s = end + 1;
        }
    }
    for (int i = 0; i < CELLS; i++)
        if (board[i]) {
            int sd = board[i] > 0 ? WHITE : BLACK, f = abs(board[i]);
            p->dice[sd][f] |= bit(i);
            p->dice[sd][0] |= bit(i);
        }
    if (argc > 3 && strcmp(argv[3], "-") != 0) {
        if (strlen(argv[3]) != CELLS) return 0;
        for (int i = 0; i < CELLS; i++) {
            if (argv[3][i] != '0' && argv[3][i] != '1') return 0;
            if (argv[3][i] == '1') p->temp |= bit(i);
        }
    }
    if (argc > 4) *side = atoi(argv[4]) ? BLACK : WHITE;
    return 1;
}

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s DEPTH [BOARD [TEMP [SIDE]]]\n", argv[0]); return 2; }
    int depth = atoi(argv[1]), side;
    Position p;
    build_geometry();
    if (!parse(argc, argv, &p, &side)) { fprintf(stderr, "bad position\n"); return 2; }
    for (int d = 1; d <= depth; d++) {
        double t0 = now();
        uint64_t leaves = perft(&p, side, d);
        double seconds = now() - t0;
        printf("%d %llu\n", d, (unsigned long long)leaves);
        fprintf(stderr, "  %.3fs %.0f leaves/s\n", seconds, leaves / (seconds > 1e-9 ? seconds : 1e-9));
        fflush(stdout);
    }
    return 0;
}
