/* Trigeo perft, a C baseline for `ludothek perft trigeo` (issue 16).
 *
 * Written from shared/rules/trigeo.md and triangle-board.md.  Cells are numbered as in
 * ludothek (row-major, row A first, lowest column first); a set of cells is a 128-bit mask
 * (two 64-bit words as one unsigned __int128).  A slider's reach along a ray is looked up
 * by the ray's occupancy (pext of the occupied cells under the ray mask); "is this cell
 * attacked" tests the 1s, 2s and 3s that could reach it with one AND each, and a slider
 * by "nothing between" masks.  The last ply is counted without making the moves.
 * Threefold repetition is not tracked: from a position without history the earliest
 * repetition is at ply 8, which ludothek only looks at in trees deeper than 8 plies, so
 * the counts agree with `ludothek perft trigeo` up to depth 8.  Needs BMI2 (pext/pdep).
 *
 * Usage: trigeo_perft DEPTH [POSITION]    (prints `<depth> <leaves>` per depth, and the
 *                                          leaves per second of each depth on stderr)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <immintrin.h>

typedef unsigned __int128 mask;
enum { CELLS = 66, WHITE = 0, BLACK = 1 };

static mask bit(int cell) { return (mask)1 << cell; }
static int popcount(mask m) { return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64)); }
static int lowest(mask m) { uint64_t lo = (uint64_t)m; return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64)); }

/* ------------------------------------------------------------------ geometry */
static int cell_of[8][15];   /* (r, c) -> cell or -1 */
static int row_of[CELLS], col_of[CELLS];
static int next_cell[CELLS][6];            /* N NE SE S SW NW; -1 past the edge */
static mask ray[CELLS][6];                 /* cells along the ray, the cell excluded */
static mask touch[CELLS], knight[CELLS], knight_from[CELLS];  /* knight moves are not symmetric */
static mask pawn_step[2][CELLS], pawn_capture[2][CELLS];
static mask slide_dirs_of_face[7][CELLS];  /* which directions a 4/5/6 slides: bit d */
static mask last_row[2], jump_fields;
static mask slider_from[7][CELLS];         /* cells from which a 4/5/6 reaches the cell on an empty board */
static mask between[CELLS][CELLS];         /* cells strictly between two cells of one ray */
/* A slider's reach along one ray, looked up by the occupancy of the ray's cells (pext). */
static mask *ray_reach[CELLS][6];
static int ray_low_count[CELLS][6];

static int exists(int r, int c) { int half = 3 + (r < 7 - r ? r : 7 - r); return r >= 1 && r <= 6 && abs(c - 7) <= half; }
static int at(int r, int c) { return (r >= 1 && r <= 6 && c >= 1 && c <= 13) ? cell_of[r][c] : -1; }
static int is_up(int r, int c) { return (r + c) % 2 == 0; }

static void build_ray_reach(int s, int d) {
    uint64_t lo = (uint64_t)ray[s][d], hi = (uint64_t)(ray[s][d] >> 64);
    int cells = popcount(ray[s][d]), low = __builtin_popcountll(lo);
    ray_low_count[s][d] = low;
    ray_reach[s][d] = malloc(sizeof(mask) << cells);
    for (uint64_t index = 0; index < (1ull << cells); index++) {
        mask occupied = _pdep_u64(index, lo) | ((mask)_pdep_u64(index >> low, hi) << 64), reach = 0;
        for (int t = next_cell[s][d]; t >= 0; t = next_cell[t][d]) {
            reach |= bit(t);
            if (occupied & bit(t)) break;
        }
        ray_reach[s][d][index] = reach;
    }
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
        if (r == 6) last_row[WHITE] |= bit(i);
        if (r == 1) last_row[BLACK] |= bit(i);
    }
    for (int i = 0; i < CELLS; i++) {
        int up = is_up(row_of[i], col_of[i]);
        for (int d = 0; d < 6; d++) {
            for (int t = next_cell[i][d]; t >= 0; t = next_cell[t][d]) ray[i][d] |= bit(t);
            int side_dir = (d & 1) == up;
            if (!side_dir) {  /* corner direction: knight's 1st and 2nd cell, bishop */
                int t = next_cell[i][d];
                if (t >= 0) { knight[i] |= bit(t); if (next_cell[t][d] >= 0) knight[i] |= bit(next_cell[t][d]); }
                slide_dirs_of_face[4][i] |= (mask)1 << d;
            } else {
                slide_dirs_of_face[5][i] |= (mask)1 << d;
            }
            slide_dirs_of_face[6][i] |= (mask)1 << d;
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
            build_ray_reach(s, d);
        }
    static const int jumps[6][2] = {{3, 6}, {3, 7}, {3, 8}, {4, 6}, {4, 7}, {4, 8}};
    for (int k = 0; k < 6; k++) jump_fields |= bit(cell_of[jumps[k][0]][jumps[k][1]]);
}

/* ------------------------------------------------------------------ position */
typedef struct {
    int8_t face[CELLS];   /* 0 empty, else 1..6 */
    mask dice[2][7];      /* dice[side][face]; dice[side][0] = all of side's dice */
} Position;

static void put(Position *p, int side, int face, int cell) {
    p->face[cell] = (int8_t)face; p->dice[side][face] |= bit(cell); p->dice[side][0] |= bit(cell);
}
static void take(Position *p, int side, int face, int cell) {
    p->face[cell] = 0; p->dice[side][face] &= ~bit(cell); p->dice[side][0] &= ~bit(cell);
}

/* The cells a slider (face 4, 5, 6) on `cell` reaches, given the occupied cells. */
static mask slides(int cell, int face, mask occupied) {
    unsigned dirs = (unsigned)slide_dirs_of_face[face][cell];
    uint64_t lo = (uint64_t)occupied, hi = (uint64_t)(occupied >> 64);
    mask reach = 0;
    for (; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs);
        mask r = ray[cell][d];
        uint64_t index = _pext_u64(lo, (uint64_t)r) | (_pext_u64(hi, (uint64_t)(r >> 64)) << ray_low_count[cell][d]);
        reach |= ray_reach[cell][d][index];
    }
    return reach;
}

/* Every cell the die on `cell` could move to by its face (own dice not yet removed),
 * plus jump fields; `promotions` gets the destinations that also allow a promotion. */
static mask destinations(const Position *p, int side, int cell, mask *promotions) {
    mask own = p->dice[side][0], enemy = p->dice[1 - side][0], reach;
    *promotions = 0;
    switch (p->face[cell]) {
    case 1: reach = touch[cell] & ~own; break;
    case 2:
        reach = (pawn_step[side][cell] & ~(own | enemy)) | (pawn_capture[side][cell] & enemy);
        *promotions = reach & last_row[side];
        break;
    case 3: reach = knight[cell] & ~own; break;
    default: reach = slides(cell, p->face[cell], own | enemy) & ~own; break;
    }
    if (jump_fields & bit(cell)) reach |= jump_fields & ~own;
    return reach;
}

/* Could `by` capture on `target` with one move (the die on target counts as an enemy)? */
static int attacked(const Position *p, int target, int by) {
    const mask *d = p->dice[by];
    if (touch[target] & d[1]) return 1;
    if (pawn_capture[1 - by][target] & d[2]) return 1;
    if (knight_from[target] & d[3]) return 1;
    mask sliders = (d[4] & slider_from[4][target]) | (d[5] & slider_from[5][target]) | (d[6] & slider_from[6][target]);
    mask occupied = p->dice[0][0] | p->dice[1][0];
    for (; sliders; sliders &= sliders - 1)
        if (!(between[lowest(sliders)][target] & occupied)) return 1;
    if ((jump_fields & bit(target)) && (jump_fields & ~bit(target) & d[0])) return 1;
    return 0;
}

typedef struct { uint8_t from, to, promote; } Move;

/* Apply, returning the captured face (0 if none). */
static int make(Position *p, int side, Move m) {
    int captured = p->face[m.to], face = p->face[m.from];
    if (captured) take(p, 1 - side, captured, m.to);
    take(p, side, face, m.from);
    put(p, side, m.promote ? 6 : face, m.to);
    return captured;
}
static void unmake(Position *p, int side, Move m, int captured) {
    int face = p->face[m.to];
    take(p, side, face, m.to);
    put(p, side, m.promote ? 2 : face, m.from);
    if (captured) put(p, 1 - side, captured, m.to);
}

/* The escapes of a threatened 1 on `king`: written to `out` if given; returns how many. */
static int escapes(Position *p, int side, int king, Move *out) {
    mask promo, reach = destinations(p, side, king, &promo);
    int n = 0;
    while (reach) {
        int t = lowest(reach); reach &= reach - 1;
        Move m = {(uint8_t)king, (uint8_t)t, 0};
        int captured = make(p, side, m);
        int safe = !attacked(p, t, 1 - side);
        unmake(p, side, m, captured);
        if (safe) { if (out) out[n] = m; n++; }
    }
    return n;
}

/* Legal moves of `side`: written to `out` if given; returns how many. */
static int legal_moves(Position *p, int side, Move *out) {
    mask ones = p->dice[side][1];
    if (!ones) return 0;
    int king = lowest(ones);
    if (attacked(p, king, 1 - side)) return escapes(p, side, king, out);
    int n = 0;
    mask mine = p->dice[side][0];
    while (mine) {
        int cell = lowest(mine); mine &= mine - 1;
        mask promo, reach = destinations(p, side, cell, &promo);
        if (!out) { n += popcount(reach) + popcount(promo); continue; }
        while (reach) { int t = lowest(reach); reach &= reach - 1; out[n++] = (Move){(uint8_t)cell, (uint8_t)t, 0}; }
        while (promo) { int t = lowest(promo); promo &= promo - 1; out[n++] = (Move){(uint8_t)cell, (uint8_t)t, 1}; }
    }
    return n;
}

static uint64_t perft(Position *p, int side, int depth) {
    if (depth == 1) return (uint64_t)legal_moves(p, side, NULL);
    Move moves[512];
    int n = legal_moves(p, side, moves);
    uint64_t leaves = 0;
    for (int i = 0; i < n; i++) {
        int captured = make(p, side, moves[i]);
        leaves += perft(p, 1 - side, depth - 1);
        unmake(p, side, moves[i], captured);
    }
    return leaves;
}

/* `<rows A..F, lowest column first, '/'-separated> <w|b> <temporary dice>` */
static int parse(const char *text, Position *p, int *side) {
    static const char letters[] = " KPNBRQ";
    memset(p, 0, sizeof *p);
    int r = 1, k = 0, run = 0;  /* k: cells of row r read so far */
    const char *s = text;
    for (; *s && *s != ' '; s++) {
        if (*s >= '0' && *s <= '9') { run = run * 10 + (*s - '0'); continue; }
        k += run; run = 0;
        if (*s == '/') { r++; k = 0; continue; }
        const char *hit = strchr(letters + 1, *s >= 'a' ? *s - 32 : *s);
        int first = 7 - (3 + (r < 7 - r ? r : 7 - r));
        int cell = at(r, first + k++);
        if (!hit || cell < 0) return 0;
        put(p, *s >= 'a' ? BLACK : WHITE, (int)(hit - letters), cell);
    }
    *side = (s[0] == ' ' && s[1] == 'b') ? BLACK : WHITE;
    return r == 6;
}

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s DEPTH [POSITION]\n", argv[0]); return 2; }
    int depth = atoi(argv[1]), side;
    const char *start = argc > 2 ? argv[2] : "1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w -";
    Position p;
    build_geometry();
    if (!parse(start, &p, &side)) { fprintf(stderr, "bad position: %s\n", start); return 2; }
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
