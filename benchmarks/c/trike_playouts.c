/* Trike: uniformly random playouts from the empty board, as a speed baseline for
 * ludothek's compiled kernels (`ludothek bench trike --size N`).
 *
 * Written from the rules (shared/rules/trike.md); it counts what ludothek's playout counts:
 * Black's opening stone is one ply; on White's first turn the swap of the pie rule is one
 * more candidate move, drawn uniformly with the pawn's targets, and counts as a ply;
 * a game ends when the pawn has no empty neighbour; the colour with more stones under or
 * next to the pawn wins.
 *
 * Board: every line of the triangle (rows, "columns" of equal c, diagonals of equal r-c)
 * is a 64-bit occupancy word. Cell p of a line is bit p+1; bit 0 and every bit past the
 * line's end are set, so the edge looks like a stone and the empty run from the pawn in
 * either direction is one count of leading or trailing zeros.
 *
 * Usage: trike_playouts SIZE [SECONDS] [SEED]
 * Last line: playouts_per_s=... plies_per_s=... mean_plies=... black_wins=...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIDE 19
#define MAX_CELLS (MAX_SIDE * (MAX_SIDE + 1) / 2)
#define AXES 3
#define MAX_LINES (AXES * MAX_SIDE)

enum { EMPTY = 0, BLACK = 1, WHITE = 2 };

typedef struct {
    uint8_t line[AXES]; /* index into the occupancy words */
    uint8_t bit[AXES];  /* bit of the cell in that word */
} Cell;

static int side, cells;
static Cell cell_of[MAX_CELLS];
static int16_t cell_at[MAX_LINES][MAX_SIDE + 2]; /* line, bit -> cell */
static uint64_t empty_lines[MAX_LINES];
static int16_t neighbours[MAX_CELLS][6];

static int index_of(int r, int c) { return r * (r + 1) / 2 + c; }
static int on_board(int r, int c) { return r >= 0 && r < side && c >= 0 && c <= r; }

static void add_to_line(int cell, int axis, int line, int position, int length) {
    int word = axis * side + line;
    cell_of[cell].line[axis] = (uint8_t)word;
    cell_of[cell].bit[axis] = (uint8_t)(position + 1);
    cell_at[word][position + 1] = (int16_t)cell;
    empty_lines[word] = ~(((UINT64_C(1) << length) - 1) << 1);
}

static void build_geometry(void) {
    static const int steps[6][2] = {{0, -1}, {0, 1}, {-1, -1}, {-1, 0}, {1, 0}, {1, 1}};
    cells = side * (side + 1) / 2;
    for (int r = 0; r < side; r++) {
        for (int c = 0; c <= r; c++) {
            int cell = index_of(r, c);
            add_to_line(cell, 0, r, c, r + 1);                  /* row */
            add_to_line(cell, 1, c, r - c, side - c);           /* equal column */
            add_to_line(cell, 2, r - c, c, side - (r - c));     /* equal r - c */
            for (int d = 0; d < 6; d++) {
                int rr = r + steps[d][0], cc = c + steps[d][1];
                neighbours[cell][d] = on_board(rr, cc) ? (int16_t)index_of(rr, cc) : -1;
            }
        }
    }
}

/* splitmix64, and Lemire's unbiased bounded draw on its upper 32 bits */
static uint64_t rng_state;

static inline uint32_t next32(void) {
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static inline uint32_t below(uint32_t n) {
    uint64_t m = (uint64_t)next32() * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)next32() * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* empty cells from the pawn: down[a] towards bit 0 and up[a] away from it, per axis */
static inline int runs(const uint64_t *occ, int pawn, int down[AXES], int up[AXES]) {
    const Cell *p = &cell_of[pawn];
    int total = 0;
    for (int a = 0; a < AXES; a++) {
        uint64_t word = occ[p->line[a]];
        int bit = p->bit[a];
        down[a] = __builtin_clzll(word << (64 - bit));
        up[a] = __builtin_ctzll(word >> (bit + 1));
        total += down[a] + up[a];
    }
    return total;
}

/* the k-th target, counting down[0], up[0], down[1], ... cells; branch-free, as the
 * segment a random k falls in is unpredictable */
static inline int kth_target(int pawn, int k, const int down[AXES], const int up[AXES]) {
    const Cell *p = &cell_of[pawn];
    int start[6];
    start[0] = 0;
    start[1] = down[0];
    start[2] = start[1] + up[0];
    start[3] = start[2] + down[1];
    start[4] = start[3] + up[1];
    start[5] = start[4] + down[2];
    int segment = (k >= start[1]) + (k >= start[2]) + (k >= start[3]) + (k >= start[4]) + (k >= start[5]);
    int step = 1 + k - start[segment];
    int axis = segment >> 1;
    int bit = p->bit[axis] + ((segment & 1) ? step : -step);
    return cell_at[p->line[axis]][bit];
}

static inline void place(uint64_t *occ, int8_t *board, int cell, int colour) {
    const Cell *p = &cell_of[cell];
    for (int a = 0; a < AXES; a++) occ[p->line[a]] |= UINT64_C(1) << p->bit[a];
    board[cell] = (int8_t)colour;
}

static int black_wins_at(const int8_t *board, int pawn) {
    int black = 0, white = 0;
    for (int k = 0; k < 7; k++) {
        int cell = k == 6 ? pawn : neighbours[pawn][k];
        if (cell >= 0) {
            black += board[cell] == BLACK;
            white += board[cell] == WHITE;
        }
    }
    return black > white;
}

/* one game from the empty board; returns its plies and adds a black win to *black_wins */
static int playout(uint64_t *occ, int8_t *board, long *black_wins) {
    int down[AXES], up[AXES];
    memcpy(occ, empty_lines, sizeof(uint64_t) * AXES * side);
    memset(board, EMPTY, (size_t)cells);
    int pawn = (int)below((uint32_t)cells); /* Black's opening stone */
    place(occ, board, pawn, BLACK);
    int colour = WHITE, plies = 1;
    int n = runs(occ, pawn, down, up);
    if (n > 0) { /* White's first turn: the swap is one more candidate */
        plies++;
        int k = (int)below((uint32_t)n + 1);
        if (k == n) {
            k = (int)below((uint32_t)n); /* swap: White is still to move */
            plies++;
        }
        pawn = kth_target(pawn, k, down, up);
        place(occ, board, pawn, colour);
        colour = BLACK;
        n = runs(occ, pawn, down, up);
    }
    while (n > 0) {
        plies++;
        pawn = kth_target(pawn, (int)below((uint32_t)n), down, up);
        place(occ, board, pawn, colour);
        colour ^= BLACK ^ WHITE;
        n = runs(occ, pawn, down, up);
    }
    *black_wins += black_wins_at(board, pawn);
    return plies;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    side = argc > 1 ? atoi(argv[1]) : 13;
    double seconds = argc > 2 ? atof(argv[2]) : 5.0;
    rng_state = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    if (side < 7 || side > MAX_SIDE) {
        fprintf(stderr, "size must be 7..%d\n", MAX_SIDE);
        return 2;
    }
    build_geometry();
    uint64_t occ[MAX_LINES];
    int8_t board[MAX_CELLS];
    long games = 0, plies = 0, black_wins = 0;
    double started = now(), elapsed = 0.0;
    while (elapsed < seconds) {
        for (int i = 0; i < 10000; i++) plies += playout(occ, board, &black_wins);
        games += 10000;
        elapsed = now() - started;
    }
    printf("playouts_per_s=%.0f plies_per_s=%.0f mean_plies=%.2f black_wins=%.4f\n", games / elapsed,
           plies / elapsed, (double)plies / games, (double)black_wins / games);
    return 0;
}
