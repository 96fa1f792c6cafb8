/* Tic-tac-toe against a random or a perfect opponent.
 *
 * The agent plays X on a 3x3 board whose free cells are numbered 1-9 and answers with a cell.
 * Against the perfect (minimax) opponent the best an agent can do is draw, which tests
 * careful play rather than luck; ties between equally good opponent moves are broken by the
 * seeded generator, so seeds give varied games. */
#include <string.h>

#include <geode.h>

#define FORMAT_ERROR (-0.1)
#define DRAW_REWARD 0.5

typedef struct {
    char cells[9]; /* 'X', 'O' or 0 */
    bool perfect;  /* the opponent plays minimax, else uniformly random */
    bool agent_first;
} game;

static const int LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

static char winner(const char *cells) {
    for (int i = 0; i < 8; i++) {
        char a = cells[LINES[i][0]];
        if (a && a == cells[LINES[i][1]] && a == cells[LINES[i][2]]) return a;
    }
    return 0;
}

static int free_cells(const char *cells, int *out) {
    int n = 0;
    for (int i = 0; i < 9; i++)
        if (!cells[i]) out[n++] = i;
    return n;
}

/* The value for `me` to move with best play on both sides: positive wins, negative losses,
 * 0 a draw; a win counts more the sooner it comes, so the perfect opponent never dawdles. */
static int minimax(char *cells, char me) {
    char other = me == 'X' ? 'O' : 'X';
    int moves[9];
    int n = free_cells(cells, moves);
    if (winner(cells)) return -(n + 1); /* the previous mover won */
    if (n == 0) return 0;
    int best = -100;
    for (int i = 0; i < n; i++) {
        cells[moves[i]] = me;
        int score = -minimax(cells, other);
        cells[moves[i]] = 0;
        if (score > best) best = score;
    }
    return best;
}

static int opponent_move(game *g, geode_rng *rng) {
    int moves[9], best[9];
    int n = free_cells(g->cells, moves), count = 0, top = -100;
    if (!g->perfect) return moves[geode_rng_below(rng, (uint64_t)n)];
    for (int i = 0; i < n; i++) {
        g->cells[moves[i]] = 'O';
        int score = -minimax(g->cells, 'X');
        g->cells[moves[i]] = 0;
        if (score > top) { top = score; count = 0; }
        if (score == top) best[count++] = moves[i];
    }
    return best[geode_rng_below(rng, (uint64_t)count)];
}

static void show(const game *g, geode_result *out) {
    for (int row = 0; row < 3; row++) {
        for (int col = 0; col < 3; col++) {
            int i = row * 3 + col;
            geode_say(out, "%c%s", g->cells[i] ? g->cells[i] : '1' + i, col < 2 ? " " : "");
        }
        geode_say(out, row < 2 ? " / " : ".");
    }
}

static void board_info(const game *g, geode_result *out) {
    char board[10];
    for (int i = 0; i < 9; i++) board[i] = g->cells[i] ? g->cells[i] : '.';
    board[9] = 0;
    geode_info_str(out, "board", board);
}

static geode_status ttt_create(void *env, const char *id, const geode_config *config) {
    game *g = env;
    char opponent[16];
    (void)id;
    GEODE_TRY(geode_config_str(config, "opponent", opponent, sizeof opponent));
    GEODE_TRY(geode_config_bool(config, "agent_first", &g->agent_first));
    if (strcmp(opponent, "perfect") != 0 && strcmp(opponent, "random") != 0)
        return geode_fail(GEODE_BAD_CONFIG, "config key `opponent`: \"random\" or \"perfect\"");
    g->perfect = strcmp(opponent, "perfect") == 0;
    return GEODE_OK;
}

static geode_status ttt_reset(void *env, geode_rng *rng, geode_result *out) {
    game *g = env;
    memset(g->cells, 0, sizeof g->cells);
    geode_say(out, "Tic-tac-toe: you are X, get three in a row. ");
    if (!g->agent_first) {
        int cell = opponent_move(g, rng);
        g->cells[cell] = 'O';
        geode_say(out, "I played %d. ", cell + 1);
    }
    geode_say(out, "Board: ");
    show(g, out);
    geode_say(out, " Answer with a free cell number in \\boxed{}.");
    board_info(g, out);
    return GEODE_OK;
}

static geode_status ttt_step(void *env, const char *action, size_t len, geode_rng *rng,
                             geode_result *out) {
    game *g = env;
    char answer[4];
    (void)len;
    if (!geode_last_boxed(action, answer, sizeof answer) || strlen(answer) != 1 ||
        answer[0] < '1' || answer[0] > '9') {
        geode_say(out, "Answer with a cell number 1-9 in \\boxed{}.");
        out->reward = FORMAT_ERROR;
        out->terminated = true;
        return GEODE_OK;
    }
    int cell = answer[0] - '1';
    out->terminated = true;
    if (g->cells[cell]) {
        geode_say(out, "Cell %d is taken: illegal move.", cell + 1);
        board_info(g, out);
        return GEODE_OK;
    }
    g->cells[cell] = 'X';
    int moves[9];
    if (winner(g->cells) == 'X') {
        geode_say(out, "Three in a row: you win!");
        out->reward = 1.0;
    } else if (free_cells(g->cells, moves) == 0) {
        geode_say(out, "The board is full: a draw.");
        out->reward = DRAW_REWARD;
    } else {
        int reply = opponent_move(g, rng);
        g->cells[reply] = 'O';
        geode_say(out, "I played %d. Board: ", reply + 1);
        show(g, out);
        geode_info_int(out, "opponent", reply + 1);
        if (winner(g->cells) == 'O') {
            geode_say(out, " Three in a row: I win.");
        } else if (free_cells(g->cells, moves) == 0) {
            geode_say(out, " The board is full: a draw.");
            out->reward = DRAW_REWARD;
        } else {
            geode_say(out, " Your move.");
            out->terminated = false;
        }
    }
    board_info(g, out);
    return GEODE_OK;
}

static geode_status ttt_sample(void *env, geode_rng *rng, geode_result *out) {
    game *g = env;
    int moves[9];
    int n = free_cells(g->cells, moves);
    geode_say(out, "\\boxed{%d}", n ? moves[geode_rng_below(rng, (uint64_t)n)] + 1 : 5);
    return GEODE_OK;
}

static const geode_spec specs[] = {
    {"example:TicTacToe-v0", "Tic-tac-toe as X against a random opponent",
     "{\"opponent\": \"random\", \"agent_first\": true}"},
    {"example:TicTacToe-v0-hard", "Tic-tac-toe as X against a perfect opponent who moves first",
     "{\"opponent\": \"perfect\", \"agent_first\": false}"},
};

const geode_plugin GEODE_PLUGIN = {
    .specs = specs,
    .spec_count = sizeof specs / sizeof specs[0],
    .env_size = sizeof(game),
    .create = ttt_create,
    .reset = ttt_reset,
    .step = ttt_step,
    .sample_random_action = ttt_sample,
};
