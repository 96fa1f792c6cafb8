//! Minesweeper: reveal every safe cell and flag every mine, with `\boxed{reveal R C}` and
//! `\boxed{flag R C}` (rows and columns counted from 0).
//!
//! Rules and rewards follow GEM's game of the same name, so results stay comparable:
//! - no parsable `\boxed{word R C}`: format error, −0.1, the episode ends;
//! - a cell off the board, an unknown command, revealing a revealed or flagged cell, or flagging
//!   a revealed cell: 0.0, the episode goes on;
//! - mines are laid at the first reveal, never in the 3×3 block around it;
//! - revealing a mine: 0.0, the episode ends;
//! - a reveal earns (cells it uncovers) / (safe cells); the board is cleared, and the episode
//!   ends, when a reveal leaves every safe cell revealed and every mine flagged;
//! - at the turn limit the episode ends (terminated and truncated) with that step's reward.
//!
//! Every step's info carries the rendered board under `suffix`.

use geode_games::game::{format_error_step, turn_limit_step};
use geode_games::parse::last_boxed_match;
use geode_games::prelude::*;
use geode_games::pycompat::{PyInt, is_space, strip_leading_zeros};
use geode_sdk::config::{at_least, between};
use geode_sdk::text::Piece;
use std::collections::VecDeque;
use std::fmt::Write;

/// Board size, mine count and turn limit of one episode.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Layout {
    rows: usize,
    cols: usize,
    mines: usize,
    max_turns: i64,
}

/// Widest and tallest board a configuration may ask for.
const MAX_SIDE: i64 = 100;

/// Longest command word echoed back before the rest is elided (keeps observations bounded).
const ECHO_LIMIT: usize = 1000;

/// The eight neighbours of a cell, in GEM's order.
const NEIGHBOURS: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// One square of the board.
#[derive(Serialize, Deserialize, Clone, Copy, Default, Debug)]
struct Cell {
    mine: bool,
    /// Mines among the neighbours (meaningless on a mine).
    adjacent: u8,
    revealed: bool,
    flagged: bool,
}

/// One game of Minesweeper.
#[derive(Serialize, Deserialize)]
pub struct Minesweeper {
    /// Layout as configured; `None` means drawn at every reset (the `-random` id).
    fixed: Option<Layout>,
    layout: Layout,
    /// Row-major cells.
    cells: Vec<Cell>,
    /// Whether the mines are still to be laid (at the first reveal).
    unmined: bool,
    turn: i64,
}

/// A parsed `\boxed{word R C}`: the lowercased word and the coordinates.
struct Command<'a> {
    word: String,
    row: PyInt<'a>,
    col: PyInt<'a>,
    /// The coordinates as Python prints them (no leading zeros), for echoing back.
    shown: (&'a str, &'a str),
}

impl Layout {
    /// Checked layout from a configuration.
    fn new(rows: i64, cols: i64, mines: i64, max_turns: i64) -> Result<Layout, Error> {
        for (key, side) in [("rows", rows), ("cols", cols)] {
            between::<i64>(key, side, 1, MAX_SIDE)?;
        }
        // The first reveal keeps up to a 3×3 block free, so the rest must hold every mine.
        let room = rows * cols - rows.min(3) * cols.min(3);
        if !(0..=room).contains(&mines) {
            return Err(Error::bad_config(
                "num_mines",
                format!("must be between 0 and {room} on a {rows}×{cols} board"),
            ));
        }
        Ok(Layout {
            rows: rows as usize,
            cols: cols as usize,
            mines: mines as usize,
            max_turns: at_least("max_turns", max_turns, 1)?,
        })
    }

    /// A square board drawn the way GEM's random variant draws it.
    fn random(rng: &mut Rng) -> Layout {
        let side = rng.randint(5, 8) as usize;
        Layout {
            rows: side,
            cols: side,
            mines: side * side / 5,
            max_turns: (side * side) as i64,
        }
    }
}

/// Reads `word R C}` at the start of `body`, as GEM's `([a-zA-Z]+)\s(\d+)\s(\d+)}` does.
fn command_parts(body: &str) -> Option<(&str, &str, &str)> {
    let word_len = body.bytes().take_while(u8::is_ascii_alphabetic).count();
    if word_len == 0 {
        return None;
    }
    let (word, rest) = body.split_at(word_len);
    let (row, rest) = digits(one_space(rest)?)?;
    let (col, rest) = digits(one_space(rest)?)?;
    rest.starts_with('}').then_some((word, row, col))
}

/// `text` after exactly one leading whitespace character.
fn one_space(text: &str) -> Option<&str> {
    let mut chars = text.chars();
    chars.next().filter(|&c| is_space(c))?;
    Some(chars.as_str())
}

/// A leading run of ASCII digits and what follows it.
fn digits(text: &str) -> Option<(&str, &str)> {
    let len = text.bytes().take_while(u8::is_ascii_digit).count();
    (len > 0).then(|| text.split_at(len))
}

/// The command in the last `\boxed{word R C}` of `action`, if its numbers are readable.
fn last_command(action: &str) -> Option<Command<'_>> {
    let (word, row, col) = last_boxed_match(action, command_parts)?;
    Some(Command {
        word: word.to_ascii_lowercase(),
        row: PyInt::parse(row)?,
        col: PyInt::parse(col)?,
        shown: (strip_leading_zeros(row), strip_leading_zeros(col)),
    })
}

impl Minesweeper {
    fn instructions(&self, reveal: (usize, usize), flag: (usize, usize)) -> String {
        let ((rr, rc), (fr, fc)) = (reveal, flag);
        text!(
            "You are playing the Minesweeper game.\n\
             The objective of the game is to reveal all cells that do not contain mines.\n\
             To make a move, you can either reveal a cell or place a flag on a suspected mine location using one of the following commands:\n\
             - 'reveal': Reveal the contents of a specific cell.\n\
             - 'flag': Place or remove a flag on a specific cell to mark it as a potential mine.\n\
             To submit your move, type the command followed by the row and column in \\boxed{}.\n\
             For example:\n\
             - \\boxed{reveal ",
            rr,
            ' ',
            rc,
            "} to reveal the cell in Row ",
            rr,
            ", Column ",
            rc,
            ".\n\
             - \\boxed{flag ",
            fr,
            ' ',
            fc,
            "} to place or remove a flag on the cell in Row ",
            fr,
            ", Column ",
            fc,
            ".\n\
             The current board layout is shown below. Cells that are unrevealed are represented by a dot ('.'), revealed numbers show the count of adjacent mines, and flagged cells are marked with an 'F'.\n\
             Use logic and deduction to avoid revealing cells with mines!\n\
             Be mindful not to choose revealed or flagged cells.\n"
        )
    }

    /// The board as the agent sees it, with row and column numbers.
    fn render(&self) -> String {
        let Layout { rows, cols, .. } = self.layout;
        let mut out = String::with_capacity((rows + 1) * (3 * cols + 4));
        out.push_str("   ");
        for c in 0..cols {
            if c > 0 {
                out.push(' ');
            }
            // Width 2, right-aligned: a formatting option, so `core::fmt` stays here.
            let _ = write!(out, "{c:2}");
        }
        out.push('\n');
        for (r, row) in self.cells.chunks(cols).enumerate() {
            let _ = write!(out, "{r:2} ");
            for cell in row {
                out.push(' ');
                match cell {
                    Cell {
                        revealed: true,
                        mine: true,
                        ..
                    } => out.push('*'),
                    Cell { revealed: true, .. } => cell.adjacent.push_to(&mut out),
                    Cell { flagged: true, .. } => out.push('F'),
                    _ => out.push('.'),
                }
                out.push(' ');
            }
            out.push('\n');
        }
        out
    }

    fn suffix(&self) -> String {
        text!(
            "Here is the current board layout:\n",
            self.render(),
            "\nEnter your guess."
        )
    }

    /// A random cell, drawn as GEM draws the coordinates of a random action.
    fn random_cell(&self, rng: &mut Rng) -> (usize, usize) {
        let row = rng.randint(0, self.layout.rows as i64 - 1) as usize;
        let col = rng.randint(0, self.layout.cols as i64 - 1) as usize;
        (row, col)
    }

    /// The in-board neighbours of (`row`, `col`), in GEM's order.
    fn neighbours(&self, row: usize, col: usize) -> impl Iterator<Item = usize> + use<> {
        let Layout { rows, cols, .. } = self.layout;
        NEIGHBOURS.into_iter().filter_map(move |(dr, dc)| {
            let r = row.checked_add_signed(dr).filter(|&r| r < rows)?;
            let c = col.checked_add_signed(dc).filter(|&c| c < cols)?;
            Some(r * cols + c)
        })
    }

    /// Lays the mines outside the 3×3 block around (`row`, `col`), drawing as GEM does.
    fn lay_mines(&mut self, row: usize, col: usize, rng: &mut Rng) {
        let Layout {
            rows, cols, mines, ..
        } = self.layout;
        let mut laid = 0;
        while laid < mines {
            let r = rng.randint(0, rows as i64 - 1) as usize;
            let c = rng.randint(0, cols as i64 - 1) as usize;
            let cell = &mut self.cells[r * cols + c];
            if !cell.mine && (r.abs_diff(row) > 1 || c.abs_diff(col) > 1) {
                cell.mine = true;
                laid += 1;
            }
        }
        for r in 0..rows {
            for c in 0..cols {
                let count = self
                    .neighbours(r, c)
                    .filter(|&i| self.cells[i].mine)
                    .count();
                self.cells[r * cols + c].adjacent = count as u8;
            }
        }
    }

    /// Reveals a safe cell and floods out from cells with no adjacent mine, skipping flags.
    /// Returns how many cells it uncovered.
    fn uncover(&mut self, row: usize, col: usize) -> usize {
        let cols = self.layout.cols;
        let start = row * cols + col;
        self.cells[start].revealed = true;
        let mut uncovered = 1;
        let mut queue = VecDeque::from([start]);
        while let Some(i) = queue.pop_front() {
            if self.cells[i].adjacent != 0 {
                continue;
            }
            for j in self.neighbours(i / cols, i % cols) {
                let next = &mut self.cells[j];
                if !next.revealed && !next.flagged {
                    next.revealed = true;
                    uncovered += 1;
                    queue.push_back(j);
                }
            }
        }
        uncovered
    }

    /// Whether every safe cell is revealed and every mine flagged.
    fn cleared(&self) -> bool {
        self.cells
            .iter()
            .all(|c| if c.mine { c.flagged } else { c.revealed })
    }

    /// Plays a parsed command: the observation and reward, and whether the episode ended.
    fn play(&mut self, command: &Command, rng: &mut Rng) -> (String, f64, bool) {
        let turn = self.turn;
        let Layout {
            rows, cols, mines, ..
        } = self.layout;
        let (row, col) = (command.row.value(), command.col.value());
        if row >= rows as u64 || col >= cols as u64 {
            let obs = text!(
                "At turn ",
                turn,
                ", you chose cell (",
                command.shown.0,
                ", ",
                command.shown.1,
                "), which is outside the bounds of the grid."
            );
            return (obs, REWARD.invalid_action, false);
        }
        let (row, col) = (row as usize, col as usize);
        let index = row * cols + col;
        match command.word.as_str() {
            "reveal" => {
                if self.unmined {
                    self.lay_mines(row, col, rng);
                    self.unmined = false;
                }
                let cell = self.cells[index];
                if cell.mine {
                    let obs = text!("Game over! You hit a mine at (", row, ", ", col, ')');
                    return (obs, REWARD.fail, true);
                }
                if cell.revealed || cell.flagged {
                    let obs = text!(
                        "At turn ",
                        turn,
                        ", you chose to reveal cell (",
                        row,
                        ", ",
                        col,
                        "), which has already been revealed."
                    );
                    return (obs, REWARD.invalid_action, false);
                }
                let reward = self.uncover(row, col) as f64 / (rows * cols - mines) as f64;
                if self.cleared() {
                    let obs =
                        "Congratulations! You have successfully cleared the Minesweeper board.";
                    return (obs.to_string(), reward, true);
                }
                let obs = text!(
                    "At turn ",
                    turn,
                    ", you successfully revealed cell (",
                    row,
                    ", ",
                    col,
                    ")."
                );
                (obs, reward, false)
            }
            "flag" => {
                let cell = &mut self.cells[index];
                if cell.revealed {
                    let obs = text!(
                        "At turn ",
                        turn,
                        ", you chose to flag cell (",
                        row,
                        ", ",
                        col,
                        "), which has already been revealed."
                    );
                    return (obs, REWARD.invalid_action, false);
                }
                cell.flagged = !cell.flagged;
                let change = if cell.flagged { "added" } else { "removed" };
                let obs = text!(
                    "At turn ",
                    turn,
                    ", you ",
                    change,
                    " a flag on cell (",
                    row,
                    ", ",
                    col,
                    ")."
                );
                (obs, REWARD.internal_step, false)
            }
            word => {
                let shown = match word.char_indices().nth(ECHO_LIMIT) {
                    Some((cut, _)) => text!(&word[..cut], "..."),
                    None => word.to_string(),
                };
                let obs = text!(
                    "At turn ",
                    turn,
                    ", you chose an invalid action '",
                    shown,
                    "'. Valid actions are 'reveal' or 'flag'."
                );
                (obs, REWARD.invalid_action, false)
            }
        }
    }
}

impl Environment for Minesweeper {
    fn specs() -> Vec<Spec> {
        let spec = |id: &str, what: &str, layout: Option<(i64, i64, i64, i64)>| {
            let (rows, cols, mines, turns) = match layout {
                Some((r, c, m, t)) => (Some(r), Some(c), Some(m), Some(t)),
                None => (None, None, None, None),
            };
            Spec::new(
                id,
                what,
                json!({ "rows": rows, "cols": cols, "num_mines": mines, "max_turns": turns }),
            )
        };
        vec![
            spec(
                "game:Minesweeper-v0-easy",
                "Clear a 5×5 board with 5 mines within 25 turns",
                Some((5, 5, 5, 25)),
            ),
            spec(
                "game:Minesweeper-v0-hard",
                "Clear an 8×8 board with 12 mines within 64 turns",
                Some((8, 8, 12, 64)),
            ),
            spec(
                "game:Minesweeper-v0-random",
                "Clear a board; size, mines and turns drawn per episode",
                None,
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let fixed = match (
            config.opt_int("rows")?,
            config.opt_int("cols")?,
            config.opt_int("num_mines")?,
            config.opt_int("max_turns")?,
        ) {
            (Some(rows), Some(cols), Some(mines), Some(turns)) => {
                Some(Layout::new(rows, cols, mines, turns)?)
            }
            _ => None,
        };
        let layout = fixed.unwrap_or(Layout {
            rows: 5,
            cols: 5,
            mines: 5,
            max_turns: 25,
        });
        Ok(Minesweeper {
            fixed,
            layout,
            cells: vec![Cell::default(); layout.rows * layout.cols],
            unmined: true,
            turn: 0,
        })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        self.layout = match self.fixed {
            Some(layout) => layout,
            None => Layout::random(rng),
        };
        self.cells = vec![Cell::default(); self.layout.rows * self.layout.cols];
        self.unmined = true;
        self.turn = 0;
        let reveal = self.random_cell(rng);
        let flag = self.random_cell(rng);
        Ok(Reset::new(self.instructions(reveal, flag)).info("suffix", self.suffix()))
    }

    fn step(&mut self, action: &str, rng: &mut Rng) -> Result<Step, Error> {
        self.turn += 1;
        let at_limit = self.turn >= self.layout.max_turns;
        let step = match last_command(action) {
            None => {
                let obs = text!(
                    "At turn ",
                    self.turn,
                    ", you did not provide a valid guess."
                );
                format_error_step(obs, self.turn, self.layout.max_turns)
            }
            Some(command) => match self.play(&command, rng) {
                (obs, reward, true) => Step::new(obs, reward).terminated(),
                (_, reward, false) if at_limit => turn_limit_step(reward),
                (obs, reward, false) => Step::new(obs, reward),
            },
        };
        Ok(step.info("suffix", self.suffix()))
    }

    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        // GEM picks from nine "reveal"s and one "flag".
        let word = if rng.below(10) < 9 { "reveal" } else { "flag" };
        let (row, col) = self.random_cell(rng);
        text!("\\boxed{", word, ' ', row, ' ', col, '}')
    }
}

export_env!(Minesweeper);

#[cfg(test)]
mod tests;
