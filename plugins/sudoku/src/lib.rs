//! Sudoku: fill a 4×4 or 9×9 grid, one `\boxed{row column number}` per turn.
//!
//! Rules and rewards follow GEM's `SudokuEnv`, so results stay comparable:
//! - no parsable `\boxed{r c n}`: format error, −0.1, the episode ends;
//! - out of bounds, overwriting a filled cell, or a digit that is not the solution's: 0.0;
//! - a correct digit: 1/(empty cells at the start); the last one ends the episode;
//! - at the turn limit the episode ends (truncated) with the step's own reward.

mod grid;

use geode_games::prelude::*;
use geode_games::pycompat::{decimal_value, is_space};
use geode_sdk::text::Piece;
use grid::Grid;

/// Grid size, cells to try to empty, and turn limit.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Params {
    scale: usize,
    clues: i64,
    max_turns: i64,
}

/// The settings the `-random` id draws from at every reset, as GEM lists them.
const RANDOM_PARAMS: [Params; 2] = [
    Params {
        scale: 4,
        clues: 10,
        max_turns: 15,
    },
    Params {
        scale: 9,
        clues: 50,
        max_turns: 50,
    },
];

/// One game of Sudoku.
#[derive(Serialize, Deserialize)]
pub struct Sudoku {
    /// The configured settings; `None` means drawn at every reset (the `-random` id).
    fixed: Option<Params>,
    params: Params,
    solution: Vec<u8>,
    board: Vec<u8>,
    empty_at_start: usize,
    turn: i64,
}

impl Sudoku {
    fn instructions(&self) -> String {
        let n = self.params.scale;
        let simple = if n == 4 { "A simple version of" } else { "" };
        text!(
            "You are playing ",
            simple,
            " Sudoku.\n\
             Each row is numbered from 1 to ",
            n,
            ", and each column is also numbered from 1 to ",
            n,
            ".\n\
             Empty cells are represented by '.', and pre-filled cells contain digits from 1 to ",
            n,
            ".\n\n\
             Your objective is to fill the empty cells in the ",
            n,
            'x',
            n,
            " grid with digits from 1 to ",
            n,
            " such that:\n\
             1. Each row contains all digits from 1 to ",
            n,
            " without repetition.\n\
             2. Each column contains all digits from 1 to ",
            n,
            " without repetition.\n\
             3. Each of the nine ",
            n,
            'x',
            n,
            " subgrids contains all digits from 1 to ",
            n,
            " without repetition.\n\n\
             Rules and Instructions:\n\
             1. **Do not overwrite** the initial numbers provided in the grid.\n\
             2. **Only fill** empty cells represented by '.'.\n\
             3. You may respond in any manner you prefer, but ensure that your response includes the format of '\\boxed{row column number}', e.g. \\boxed{1 1 5}.\n\
             4. **Ensure** that your move does not violate Sudoku rules. Invalid moves, including overwriting pre-filled cells and placing two numbers in one row/col/sub-grid will result in penalties.\n\
             The history of your moves will be appended as you play more rounds. Use the history of your move to improve your decision making by avoiding the moves you have tried. Good luck!\n\n"
        )
    }

    /// The `suffix` info: the board and the prompt for the next move.
    fn suffix(&self) -> String {
        let mut out = String::with_capacity(64 + 4 * self.board.len());
        out.push_str("Here is the current board layout:\n");
        grid::render(&self.board, self.params.scale, &mut out);
        out.push_str("\nEnter your move.");
        out
    }

    fn step_result(&self, observation: String, reward: f64) -> Step {
        Step::new(observation, reward).info("suffix", self.suffix())
    }
}

impl Environment for Sudoku {
    fn specs() -> Vec<Spec> {
        let spec =
            |id: &str, what: &str, clues: Option<i64>, turns: Option<i64>, scale: Option<i64>| {
                Spec::new(
                    id,
                    what,
                    json!({ "clues": clues, "max_turns": turns, "scale": scale }),
                )
            };
        vec![
            spec(
                "game:Sudoku-v0-easy",
                "Fill a 4x4 Sudoku (up to 10 cells emptied) within 15 turns",
                Some(10),
                Some(15),
                Some(4),
            ),
            spec(
                "game:Sudoku-v0-hard",
                "Fill a 9x9 Sudoku (up to 50 cells emptied) within 50 turns",
                Some(50),
                Some(50),
                Some(9),
            ),
            spec(
                "game:Sudoku-v0-random",
                "Sudoku; easy or hard drawn per episode",
                None,
                None,
                None,
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let clues = config.opt_int("clues")?;
        let max_turns = config.opt_int("max_turns")?;
        let scale = config.opt_int("scale")?;
        let fixed = match (scale, clues, max_turns) {
            (Some(scale), Some(clues), Some(max_turns)) => {
                if scale != 4 && scale != 9 {
                    return Err(Error::bad_config("scale", "must be 4 or 9"));
                }
                if clues > scale * scale {
                    return Err(Error::bad_config(
                        "clues",
                        format!("at most {} cells can be emptied", scale * scale),
                    ));
                }
                Some(Params {
                    scale: scale as usize,
                    clues,
                    max_turns,
                })
            }
            _ => None,
        };
        Ok(Sudoku {
            fixed,
            params: fixed.unwrap_or(RANDOM_PARAMS[0]),
            solution: Vec::new(),
            board: Vec::new(),
            empty_at_start: 0,
            turn: 0,
        })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        self.params = match self.fixed {
            Some(params) => params,
            None => *rng.choice(&RANDOM_PARAMS).expect("two settings"),
        };
        let n = self.params.scale;
        let solution = Grid::solved(n, rng);
        let removals = self.params.clues.clamp(0, (n * n) as i64) as usize;
        let puzzle = Grid::puzzle(&solution, removals, rng);
        self.solution = solution.into_cells();
        self.board = puzzle.into_cells();
        self.empty_at_start = self.board.iter().filter(|&&d| d == 0).count();
        self.turn = 0;
        Ok(Reset::new(self.instructions()).info("suffix", self.suffix()))
    }

    fn step(&mut self, action: &str, _rng: &mut Rng) -> Result<Step, Error> {
        self.turn += 1;
        let turn = self.turn;
        let max_turns = self.params.max_turns;
        let Some([row, col, digit]) = parse_move(action) else {
            let step = self.step_result(
                "You did not provide a valid guess.".into(),
                REWARD.format_error,
            );
            return Ok(step.terminated().truncated_if(turn == max_turns));
        };
        let n = self.params.scale as u64;
        let in_range = |x: &Number| (1..=n).contains(&x.value);
        let (obs, reward) = if !(in_range(&row) && in_range(&col) && in_range(&digit)) {
            let obs = move_text(
                turn,
                "tried to place",
                &digit,
                &row,
                &col,
                ", which is out of bounds.",
            );
            (obs, REWARD.invalid_action)
        } else {
            let cell = (row.value - 1) as usize * n as usize + (col.value - 1) as usize;
            let d = digit.value as u8;
            if self.board[cell] != 0 {
                let obs = move_text(
                    turn,
                    "tried to place",
                    &d,
                    &row,
                    &col,
                    ", which is already filled. You cannot overwrite pre-filled cells.",
                );
                (obs, REWARD.invalid_action)
            } else if self.solution[cell] == d {
                self.board[cell] = d;
                let reward = 1.0 / self.empty_at_start as f64;
                if !self.board.contains(&0) {
                    let obs = "Congratulations! You have completed the Sudoku puzzle!";
                    return Ok(self.step_result(obs.into(), reward).terminated());
                }
                let obs = move_text(turn, "placed", &d, &row, &col, ", which is correct.");
                (obs, reward)
            } else {
                let obs = move_text(
                    turn,
                    "tried to place",
                    &d,
                    &row,
                    &col,
                    ", which violates Sudoku rules.",
                );
                (obs, REWARD.invalid_action)
            }
        };
        if turn >= max_turns {
            let step = self.step_result(
                "You have reached the maximum number of turns.".into(),
                reward,
            );
            return Ok(step.terminated().truncated_if(true));
        }
        Ok(self.step_result(obs, reward))
    }

    /// GEM's Sudoku has no random action; this one fills a random empty cell with a random digit.
    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        let n = self.params.scale;
        let empty = self.board.iter().filter(|&&d| d == 0).count();
        let cell = if empty == 0 {
            rng.below((n * n) as u64) as usize
        } else {
            let k = rng.below(empty as u64) as usize;
            (0..self.board.len())
                .filter(|&c| self.board[c] == 0)
                .nth(k)
                .unwrap_or(0)
        };
        let digit = rng.randint(1, n as i64);
        text!("\\boxed{", cell / n + 1, ' ', cell % n + 1, ' ', digit, '}')
    }
}

export_env!(Sudoku);

/// CPython's `int()` refuses strings of more than this many digits (`sys.get_int_max_str_digits`),
/// and GEM turns that error into a format error.
const MAX_INT_DIGITS: usize = 4300;

/// GEM's report of a move: `At turn T, you <verb> D at RR CC<outcome>`.
fn move_text(
    turn: i64,
    verb: &str,
    digit: &impl Piece,
    row: &Number,
    col: &Number,
    outcome: &str,
) -> String {
    text!(
        "At turn ", turn, ", you ", verb, " ", digit, " at R", row, " C", col, outcome
    )
}

/// One `\d+` group of an answer: its digits (any Unicode decimal digits, as in Python's `re`).
struct Number<'a> {
    digits: &'a str,
    /// The value, saturated at `u64::MAX` (far outside any board).
    value: u64,
}

impl Piece for Number<'_> {
    /// Appends the number as Python prints the `int`: ASCII digits without leading zeros.
    fn push_to(&self, out: &mut String) {
        let mut digits = self
            .digits
            .chars()
            .filter_map(decimal_value)
            .skip_while(|&d| d == 0)
            .peekable();
        if digits.peek().is_none() {
            out.push('0');
        }
        for d in digits {
            out.push(char::from(b'0' + d as u8));
        }
    }

    fn size_hint(&self) -> usize {
        self.digits.len()
    }
}

/// Reads `\d+` at the start of `text`: the number and the rest, or `None` when unreadable.
fn take_number(text: &str) -> Option<(Number<'_>, &str)> {
    let mut value = 0u64;
    let mut count = 0;
    let mut end = 0;
    for (i, c) in text.char_indices() {
        let Some(d) = decimal_value(c) else { break };
        value = value.saturating_mul(10).saturating_add(u64::from(d));
        count += 1;
        end = i + c.len_utf8();
    }
    (count > 0).then(|| {
        (
            Number {
                digits: &text[..end],
                value,
            },
            &text[end..],
        )
    })
}

/// The rest of `text` after one leading `\s` character.
fn skip_space(text: &str) -> Option<&str> {
    let mut chars = text.chars();
    chars
        .next()
        .filter(|&c| is_space(c))
        .map(|_| chars.as_str())
}

/// Matches `\d+\s\d+\s\d+}` at the start of `body`.
fn move_at(body: &str) -> Option<[Number<'_>; 3]> {
    let (row, rest) = take_number(body)?;
    let (col, rest) = take_number(skip_space(rest)?)?;
    let (digit, rest) = take_number(skip_space(rest)?)?;
    rest.starts_with('}').then_some([row, col, digit])
}

/// The last `\boxed{row column number}` GEM's `\\boxed{(\d+)\s(\d+)\s(\d+)}` finds, or `None`
/// when there is none or Python's `int()` would refuse one of its numbers.
fn parse_move(action: &str) -> Option<[Number<'_>; 3]> {
    const OPEN: &str = "\\boxed{";
    let numbers = action
        .rmatch_indices(OPEN)
        .find_map(|(start, _)| move_at(&action[start + OPEN.len()..]))?;
    let readable = numbers
        .iter()
        .all(|x| x.digits.chars().count() <= MAX_INT_DIGITS);
    readable.then_some(numbers)
}

#[cfg(test)]
mod tests;
