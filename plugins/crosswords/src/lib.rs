//! Crosswords: fill a small crossword letter by letter from its clues, answering
//! `\boxed{row column letter}`.
//!
//! Rules, texts and rewards follow GEM's `CrosswordsEnv`, so results stay comparable:
//! - no `\boxed{row column letter}`: format error, −0.1, the episode ends;
//! - a cell off the grid, blocked (`.`) or already filled: 0.0, the episode goes on;
//! - a wrong letter: 0.0; a right one: 1 / number of letter cells;
//! - filling the last cell ends the episode; the turn limit ends it, truncated.

use geode_games::game::{format_error_step, move_step};
use geode_games::prelude::*;
use geode_games::pycompat::{PyUint, boxed_bodies, fields_array, sample_indices};
use geode_games::word_grid::{Crossings, EMPTY, Placement, PuzzleRules, lay_out, render_numbered};
use geode_sdk::text::Piece;
use std::sync::OnceLock;

/// GEM's word/clue table, one `word<TAB>hardcore<TAB>first clue` line per word (see `data/DATA.md`).
const CLUE_DATA: &str = include_str!("../data/clues.tsv");

/// A word GEM's crosswords can use, with the clue it shows.
struct Entry {
    word: &'static str,
    hardcore: bool,
    clue: &'static str,
}

/// The entries of a basic or hardcore game, in file order.
fn entries(hardcore: bool) -> Vec<&'static Entry> {
    static ALL: OnceLock<Vec<Entry>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        CLUE_DATA
            .lines()
            .filter_map(|line| {
                let mut parts = line.splitn(3, '\t');
                Some(Entry {
                    word: parts.next()?,
                    hardcore: parts.next()? == "1",
                    clue: parts.next()?,
                })
            })
            .collect()
    });
    all.iter().filter(|e| e.hardcore == hardcore).collect()
}

/// The rules of the `-random` id (its word list is drawn at every reset) and of a game
/// configured without them.
const RANDOM_RULES: PuzzleRules = PuzzleRules {
    hardcore: false,
    num_words: 3,
    max_turns: 20,
};

/// One game of Crosswords.
#[derive(Serialize, Deserialize)]
pub struct Crosswords {
    /// The configured rules; `None` draws them at every reset (the `-random` id).
    fixed: Option<PuzzleRules>,
    rules: PuzzleRules,
    /// The answer grid: letters as in the word list, `.` for blocked cells.
    solution: Vec<Vec<char>>,
    /// What the player sees: `.`, `_` for an open cell, or the uppercase letter placed.
    board: Vec<Vec<char>>,
    placed: Vec<Placement>,
    /// `(word, clue)` for every sampled word, longest first (numbered in this order).
    clues: Vec<(String, String)>,
    /// Letter cells in the grid; each right letter pays `1 / letter_cells`.
    letter_cells: usize,
    turn: u64,
}

/// A move: row, column, and the uppercased letter.
struct Move {
    row: PyUint,
    col: PyUint,
    letter: char,
}

/// The move in the last `\boxed{row column letter}` (Python's `(\d+)\s+(\d+)\s+([a-zA-Z])`).
fn parse_move(action: &str) -> Option<Move> {
    boxed_bodies(action)
        .filter_map(|body| {
            let [row, col, letter] = fields_array(body)?;
            let mut chars = letter.chars();
            let letter = chars.next().filter(char::is_ascii_alphabetic)?;
            if chars.next().is_some() {
                return None;
            }
            Some(Move {
                row: PyUint::parse(row)?,
                col: PyUint::parse(col)?,
                letter: letter.to_ascii_uppercase(),
            })
        })
        .last()
}

impl Crosswords {
    /// The opening observation: GEM's instructions, word for word.
    fn instructions(&self) -> String {
        text!(
            "You are playing Crosswords.\n\
             Here is the current state of the Crosswords grid. Each row and column are numbered.\n\
             The cells that need to be populated with letters are represented by '_', and those that do not need words are represented by '.'.\n\n\
             You can only provide one response per turn. Hence, plan your approach and risk appetite.\n\
             Only guesses in the format of \\boxed{row column letter} will be fetched from your response, e.g. \\boxed{0 0 d}, \\boxed{1 2 G}.\n\
             you have to finish the game in a maximum of ",
            self.rules.max_turns,
            " turns.\n\
             As you play, the history of your choices will be appended below. Use the information to complete the game."
        )
    }

    /// The board with numbered rows and columns.
    fn render(&self) -> String {
        render_numbered(&self.board, |_, _| false)
    }

    /// Appends one numbered line per placed word to `out`: clue, direction and length.
    fn clue_list(&self, out: &mut String) {
        let mut first = true;
        for (i, (word, clue)) in self.clues.iter().enumerate() {
            if let Some(p) = self.placed.iter().find(|p| &p.word == word) {
                if !first {
                    out.push('\n');
                }
                first = false;
                (i + 1).push_to(out);
                out.push_str(". ");
                out.push_str(clue);
                out.push_str(" (");
                out.push_str(p.direction.name());
                out.push_str("): ");
                word.chars().count().push_to(out);
                out.push_str(" letters");
            }
        }
    }

    /// The info `suffix` GEM attaches to every observation: the current board.
    fn suffix(&self) -> String {
        let mut out = text!(
            "Current Board:\n",
            self.render(),
            "\nHere are the clues for the words you need to find:\n"
        );
        self.clue_list(&mut out);
        out.push_str("\nEnter your guess.");
        out
    }

    /// `step` carrying the `suffix` info.
    fn with_suffix(&self, step: Step) -> Step {
        step.info("suffix", self.suffix())
    }

    /// The observation and reward of a well-formed move, filling the cell when it is right.
    fn judge(&mut self, mv: &Move) -> (String, f64) {
        let turn = self.turn;
        let Move { row, col, letter } = mv;
        let at = text!(
            "At turn ",
            turn,
            ", you tried to place ",
            *letter,
            " at (",
            row.text,
            ", ",
            col.text,
            ')'
        );
        let size = self.board.len() as u64;
        if row.value >= size || col.value >= size {
            return (
                text!(at, ", which is out of bounds."),
                REWARD.invalid_action,
            );
        }
        let (r, c) = (row.value as usize, col.value as usize);
        match self.board[r][c] {
            EMPTY => (
                text!(at, ", which is a black dot and cannot be filled."),
                REWARD.invalid_action,
            ),
            '_' if self.solution[r][c].to_ascii_uppercase() == *letter => {
                self.board[r][c] = *letter;
                let obs = text!(
                    "At turn ",
                    turn,
                    ", you placed ",
                    *letter,
                    " at (",
                    row.text,
                    ", ",
                    col.text,
                    ") correctly."
                );
                (obs, 1.0 / self.letter_cells as f64)
            }
            '_' => (text!(at, ", but it is incorrect."), REWARD.internal_step),
            _ => (
                text!(at, ", but the cell is already filled."),
                REWARD.invalid_action,
            ),
        }
    }

    /// The cells still showing `_`, in reading order.
    fn open_cells(&self) -> Vec<(usize, usize)> {
        let mut open = Vec::new();
        for (r, row) in self.board.iter().enumerate() {
            for (c, &cell) in row.iter().enumerate() {
                if cell == '_' {
                    open.push((r, c));
                }
            }
        }
        open
    }
}

impl Environment for Crosswords {
    fn specs() -> Vec<Spec> {
        let spec = |id: &str, what: &str, hard: Option<bool>, turns, words| {
            Spec::new(
                id,
                what,
                json!({ "hardcore": hard, "max_turns": turns, "num_words": words }),
            )
        };
        vec![
            spec(
                "game:Crosswords-v0-easy",
                "Fill a 3-word crossword of common words within 30 turns",
                Some(false),
                Some(30),
                Some(3),
            ),
            spec(
                "game:Crosswords-v0-hard",
                "Fill a 3-word crossword of harder words within 40 turns",
                Some(true),
                Some(40),
                Some(3),
            ),
            spec(
                "game:Crosswords-v0-random",
                "Fill a 3-word crossword within 20 turns; word list drawn per episode",
                None,
                None,
                None,
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let fixed = PuzzleRules::configured(&config)?;
        Ok(Crosswords {
            fixed,
            rules: fixed.unwrap_or(RANDOM_RULES),
            solution: Vec::new(),
            board: Vec::new(),
            placed: Vec::new(),
            clues: Vec::new(),
            letter_cells: 0,
            turn: 0,
        })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        self.rules = PuzzleRules::fixed_or_drawn(self.fixed, RANDOM_RULES, rng);
        let pool = entries(self.rules.hardcore);
        let mut chosen: Vec<&Entry> = sample_indices(rng, pool.len(), self.rules.num_words)
            .into_iter()
            .map(|i| pool[i])
            .collect();
        chosen.sort_by_key(|e| std::cmp::Reverse(e.word.chars().count()));
        let words: Vec<String> = chosen.iter().map(|e| e.word.to_owned()).collect();
        let layout = lay_out(&words, Crossings::Checked, rng);
        self.board = layout
            .grid
            .iter()
            .map(|row| {
                let hide = |&c: &char| if c == EMPTY { EMPTY } else { '_' };
                row.iter().map(hide).collect()
            })
            .collect();
        self.solution = layout.grid;
        self.placed = layout.placed;
        self.clues = chosen
            .iter()
            .map(|e| (e.word.to_owned(), e.clue.to_owned()))
            .collect();
        self.letter_cells = self.board.iter().flatten().filter(|&&c| c != EMPTY).count();
        self.turn = 0;
        Ok(Reset::new(self.instructions()).info("suffix", self.suffix()))
    }

    fn step(&mut self, action: &str, _rng: &mut Rng) -> Result<Step, Error> {
        self.turn += 1;
        let turn = self.turn;
        let Some(mv) = parse_move(action) else {
            let obs = text!(
                "At turn ",
                turn,
                ", you did not provide a valid guess in \\boxed{row column letter} format."
            );
            return Ok(self.with_suffix(format_error_step(obs, turn, self.rules.max_turns)));
        };
        let (obs, reward) = self.judge(&mv);
        let step = if self.open_cells().is_empty() {
            let obs = "Congratulations! You completed the Crosswords puzzle!";
            Step::new(obs, reward).terminated()
        } else {
            move_step(obs, reward, turn, self.rules.max_turns)
        };
        Ok(self.with_suffix(step))
    }

    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        let open = self.open_cells();
        let Some(&(row, col)) = rng.choice(&open) else {
            return "\\boxed{0 0 A}".into();
        };
        let letter = char::from(b'A' + rng.below(26) as u8);
        text!("\\boxed{", row, ' ', col, ' ', letter, '}')
    }
}

export_env!(Crosswords);

#[cfg(test)]
mod tests;
