//! FifteenPuzzle: slide numbered tiles into order, answering `\boxed{up}`, `\boxed{down}`,
//! `\boxed{left}` or `\boxed{right}` (the direction the tile next to the gap moves).
//!
//! Rules and rewards follow GEM's game of the same name, so results stay comparable:
//! - no parsable `\boxed{direction}` (lowercase): format error, −0.1, the episode ends;
//! - a move with no tile to slide: 0.0, the episode goes on;
//! - tiles in order with the gap bottom-right: 1.0, the episode ends;
//! - at the turn limit the episode ends (terminated and truncated) with that step's reward plus
//!   the share of squares holding their final tile (the gap counts as one).
//!
//! Every start can be solved, as in GEM's current rules (`init_algo`):
//! - `monte_carlo` (the default): `mc_rand_moves` (100) random slides from the solved board, never
//!   undoing the previous slide;
//! - `pure_random`: a shuffle; when its parity says it cannot be solved, two random tiles swap.

use geode_games::game::{fixed_or_choice, format_error_step, turn_limit_step};
use geode_games::parse::last_boxed_match;
use geode_games::prelude::*;
use geode_games::pycompat::sample_indices;
use geode_sdk::config::{at_least, between};
use std::fmt::Write;

/// Board side and turn limit of one episode.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Size {
    rows: usize,
    max_turns: i64,
}

/// The sizes the `-random` id picks from at every reset.
const RANDOM_SIZES: [Size; 3] = [
    Size {
        rows: 2,
        max_turns: 10,
    },
    Size {
        rows: 3,
        max_turns: 20,
    },
    Size {
        rows: 4,
        max_turns: 50,
    },
];

/// Largest board side a configuration may ask for.
const MAX_ROWS: i64 = 100;

/// The four moves, named as the agent writes them.
const MOVES: [&str; 4] = ["up", "down", "left", "right"];

/// Most random slides a configuration may ask for.
const MAX_RAND_MOVES: i64 = 1_000_000;

/// How a start board is drawn (`init_algo`).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
enum Start {
    /// Random slides from the solved board, none undoing the one before.
    MonteCarlo { moves: u32 },
    /// A shuffle, made solvable by swapping two tiles when needed.
    PureRandom,
}

impl Start {
    fn from_config(config: &Config) -> Result<Self, Error> {
        let moves = match config.opt_int("mc_rand_moves")? {
            Some(moves) => between::<u32>("mc_rand_moves", moves, 1, MAX_RAND_MOVES)?,
            None => 100,
        };
        match config.opt_str("init_algo")?.unwrap_or("monte_carlo") {
            "monte_carlo" => Ok(Start::MonteCarlo { moves }),
            "pure_random" => Ok(Start::PureRandom),
            other => Err(Error::bad_config(
                "init_algo",
                text!(
                    "must be \"monte_carlo\" or \"pure_random\", not \"",
                    other,
                    "\""
                ),
            )),
        }
    }
}

/// The move that undoes `name`.
fn opposite(name: &str) -> &'static str {
    match name {
        "up" => "down",
        "down" => "up",
        "left" => "right",
        _ => "left",
    }
}

/// Whether a row-major board (gap = `None`, side `rows`) can reach the solved board: the parity
/// of its tile permutation plus the gap's distance from the top-left corner must be even, as it
/// is for the solved board.
fn solvable(board: &[Option<u32>], rows: usize) -> bool {
    let last = board.len() as u32;
    let mut tiles: Vec<u32> = board.iter().map(|t| t.unwrap_or(last)).collect();
    let mut swaps = 0;
    for i in 0..tiles.len() {
        while tiles[i] as usize != i + 1 {
            let target = tiles[i] as usize - 1;
            tiles.swap(i, target);
            swaps += 1;
        }
    }
    let gap = board.iter().position(Option::is_none).unwrap_or(0);
    (swaps + gap / rows + gap % rows).is_multiple_of(2)
}

/// One game of the sliding puzzle.
#[derive(Serialize, Deserialize)]
pub struct FifteenPuzzle {
    /// Size as configured; `None` means drawn at every reset (the `-random` id).
    fixed: Option<Size>,
    start: Start,
    size: Size,
    /// Row-major squares; `None` is the gap.
    board: Vec<Option<u32>>,
    turn: i64,
}

/// The move in the last `\boxed{up|down|left|right}` of `action`.
fn last_move(action: &str) -> Option<&'static str> {
    last_boxed_match(action, |body| {
        MOVES.into_iter().find(|name| {
            body.strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('}'))
        })
    })
}

impl FifteenPuzzle {
    /// The highest tile number.
    fn greatest(&self) -> usize {
        self.size.rows * self.size.rows - 1
    }

    fn instructions(&self) -> String {
        let greatest = self.greatest();
        text!(
            "You are playing the ",
            greatest,
            "-Puzzle game.\n\
             You have to arrange the numbered tiles in ascending order from 1 to ",
            greatest,
            ", with the empty space located in the bottom-right corner.\n\
             To make a move, you can slide a tile into the empty space (represented by a double underscore, e.g. __) by using one of the following commands:\n\
             - 'up': Move the tile below the empty space up.\n\
             - 'down': Move the tile above the empty space down.\n\
             - 'left': Move the tile to the right of the empty space left.\n\
             - 'right': Move the tile to the left of the empty space right.\n\
             To submit your move, type the direction (e.g., 'up', 'down', 'left', or 'right') in \\boxed{...}.\n\
             The current board layout is shown below\n\
             Use logic and planning to solve the puzzle.\n"
        )
    }

    /// The board, one row per line, the gap shown as `__`.
    fn render(&self) -> String {
        let mut out = String::with_capacity(3 * self.board.len() + self.size.rows);
        for row in self.board.chunks(self.size.rows) {
            for (i, tile) in row.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                match tile {
                    // Width 2, right-aligned: a formatting option, so `core::fmt` stays here.
                    Some(n) => {
                        let _ = write!(out, "{n:2}");
                    }
                    None => out.push_str("__"),
                }
            }
            out.push('\n');
        }
        out
    }

    fn suffix(&self) -> String {
        text!(
            "Here is the current board layout: \n",
            self.render(),
            "\nEnter your move."
        )
    }

    /// The square whose tile `name` slides into the gap, if there is one, and the gap.
    fn source(&self, name: &str) -> Option<(usize, usize)> {
        let n = self.size.rows;
        let gap = self.board.iter().position(Option::is_none)?;
        let (row, col) = (gap / n, gap % n);
        let from = match name {
            "up" if row + 1 < n => gap + n,
            "down" if row > 0 => gap - n,
            "left" if col + 1 < n => gap + 1,
            "right" if col > 0 => gap - 1,
            _ => return None,
        };
        Some((from, gap))
    }

    /// Draws a solvable start board the configured way.
    fn draw_board(&mut self, rng: &mut Rng) {
        let rows = self.size.rows;
        let greatest = self.greatest() as u32;
        self.board = (1..=greatest).map(Some).chain([None]).collect();
        match self.start {
            Start::PureRandom => {
                rng.shuffle(&mut self.board);
                if !solvable(&self.board, rows) {
                    // GEM samples two tiles from the non-gap squares in board order.
                    let squares: Vec<usize> = (0..self.board.len())
                        .filter(|&i| self.board[i].is_some())
                        .collect();
                    if let [a, b] = sample_indices(rng, squares.len(), 2)[..] {
                        self.board.swap(squares[a], squares[b]);
                    }
                }
            }
            Start::MonteCarlo { moves } => {
                let mut last: Option<&str> = None;
                for _ in 0..moves {
                    let possible: Vec<&'static str> = MOVES
                        .into_iter()
                        .filter(|&name| last.is_none_or(|l| opposite(l) != name))
                        .filter(|name| self.source(name).is_some())
                        .collect();
                    // A one-square board has no move (GEM fails there); it stays solved.
                    let Some(&name) = rng.choice(&possible) else {
                        break;
                    };
                    if let Some((from, gap)) = self.source(name) {
                        self.board.swap(from, gap);
                    }
                    last = Some(name);
                }
            }
        }
    }

    /// Whether square `i` holds its final tile (the last square: the gap).
    fn in_place(&self, i: usize) -> bool {
        let last = self.board.len() - 1;
        self.board[i] == (i < last).then_some(i as u32 + 1)
    }

    fn solved(&self) -> bool {
        (0..self.board.len()).all(|i| self.in_place(i))
    }

    /// The share of squares in their final place, summed as GEM sums it.
    fn partial_credit(&self) -> f64 {
        let share = 1.0 / self.board.len() as f64;
        (0..self.board.len())
            .filter(|&i| self.in_place(i))
            .fold(0.0, |total, _| total + share)
    }
}

impl Environment for FifteenPuzzle {
    fn specs() -> Vec<Spec> {
        let spec = |id: &str, what: &str, rows: Option<i64>, turns: Option<i64>| {
            let config = json!({
                "num_rows": rows,
                "max_turns": turns,
                "init_algo": "monte_carlo",
                "mc_rand_moves": 100,
            });
            Spec::new(id, what, config)
        };
        vec![
            spec(
                "game:FifteenPuzzle-v0-random",
                "Solve a sliding puzzle; size and turns drawn per episode",
                None,
                None,
            ),
            spec(
                "game:FifteenPuzzle-v0-easy",
                "Solve the 2×2 sliding puzzle within 10 turns",
                Some(2),
                Some(10),
            ),
            spec(
                "game:FifteenPuzzle-v0-hard",
                "Solve the 4×4 sliding puzzle within 50 turns",
                Some(4),
                Some(50),
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let fixed = match (config.opt_int("num_rows")?, config.opt_int("max_turns")?) {
            (Some(rows), Some(max_turns)) => Some(Size {
                rows: between("num_rows", rows, 1, MAX_ROWS)?,
                max_turns: at_least("max_turns", max_turns, 1)?,
            }),
            _ => None,
        };
        Ok(FifteenPuzzle {
            fixed,
            start: Start::from_config(&config)?,
            size: fixed.unwrap_or(RANDOM_SIZES[0]),
            board: Vec::new(),
            turn: 0,
        })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        // GEM's own random variant fails before drawing (it squares `None` in its constructor);
        // this draws the size the way its reset intends to.
        self.size = fixed_or_choice(self.fixed, &RANDOM_SIZES, rng);
        self.draw_board(rng);
        self.turn = 0;
        Ok(Reset::new(self.instructions()).info("suffix", self.suffix()))
    }

    fn step(&mut self, action: &str, _rng: &mut Rng) -> Result<Step, Error> {
        self.turn += 1;
        let turn = self.turn;
        let max_turns = self.size.max_turns;
        let Some(name) = last_move(action) else {
            let obs = text!("At turn ", turn, ", you did not provide a valid guess");
            let step = format_error_step(obs, turn, max_turns);
            return Ok(step.info("suffix", self.suffix()));
        };
        let (obs, reward) = match self.source(name) {
            None => (
                text!(
                    "At turn ",
                    turn,
                    ", you chose a move ",
                    name,
                    " that is outside the bounds of the board."
                ),
                REWARD.invalid_action,
            ),
            Some((from, gap)) => {
                self.board.swap(from, gap);
                if self.solved() {
                    let step = Step::new(
                        "Congratulations! You have solved the puzzle!",
                        REWARD.success,
                    )
                    .terminated();
                    return Ok(step.info("suffix", self.suffix()));
                }
                (
                    text!("At turn ", turn, ", you made a valid move: ", name, ".\n"),
                    REWARD.internal_step,
                )
            }
        };
        let step = if turn >= max_turns {
            turn_limit_step(reward + self.partial_credit())
        } else {
            Step::new(obs, reward)
        };
        Ok(step.info("suffix", self.suffix()))
    }

    /// A move that slides a tile (GEM's sampler draws any of the four names, unboxed).
    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        let legal: Vec<&str> = MOVES
            .into_iter()
            .filter(|name| self.source(name).is_some())
            .collect();
        let name = rng.choice(&legal).copied().unwrap_or(MOVES[0]);
        text!("\\boxed{", name, '}')
    }
}

export_env!(FifteenPuzzle);

#[cfg(test)]
mod tests;
