//! Laying words out across and down on a square grid, drawing randomness exactly like the
//! builder GEM's WordSearch and Crosswords share (adapted there from TextArena), and printing
//! such grids the way those games print them.

use geode_sdk::{Config, Error, Rng};
use serde::{Deserialize, Serialize};

/// The character of a cell no word covers.
pub const EMPTY: char = '.';

/// Which way a word runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Orientation {
    /// Left to right along a row.
    Across,
    /// Top to bottom along a column.
    Down,
}

impl Orientation {
    /// The lowercase name GEM prints (`across`, `down`).
    pub fn name(self) -> &'static str {
        match self {
            Orientation::Across => "across",
            Orientation::Down => "down",
        }
    }

    /// `random.choice(["across", "down"])`.
    fn draw(rng: &mut Rng) -> Orientation {
        if rng.below(2) == 0 {
            Orientation::Across
        } else {
            Orientation::Down
        }
    }
}

/// A word on the grid: its first cell and its direction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// The word as written into the grid.
    pub word: String,
    /// Row of the first letter.
    pub row: usize,
    /// Column of the first letter.
    pub col: usize,
    /// Which way the word runs.
    pub direction: Orientation,
}

impl Placement {
    /// The `(row, col)` of the word's last letter.
    pub fn end(&self) -> (usize, usize) {
        let last = self.word.chars().count().saturating_sub(1);
        match self.direction {
            Orientation::Across => (self.row, self.col + last),
            Orientation::Down => (self.row + last, self.col),
        }
    }
}

/// A finished layout: the grid (`EMPTY` where no word is) and the placed words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Rows of cells: a letter, or `EMPTY`.
    pub grid: Vec<Vec<char>>,
    /// One entry per distinct word, in first-placement order; a repeated word keeps its slot
    /// but takes its latest position (Python dict semantics).
    pub placed: Vec<Placement>,
}

/// Whether crossing candidates are checked for fit before being shuffled. Crosswords checks
/// them, WordSearch does not; the difference changes how many numbers the shuffle draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Crossings {
    /// Keep only crossings where the word fits (GEM's Crosswords).
    Checked,
    /// Keep every in-bounds crossing (GEM's WordSearch).
    Unchecked,
}

/// Lays out `words` (already in placement order, longest first) on a grid of
/// `round(longest * 1.5)` cells a side: draws one direction per word, centres the first word,
/// makes later words cross placed ones at a shuffled candidate, and falls back to the first
/// free spot in reading order. Words that fit nowhere are left out.
pub fn lay_out(words: &[String], crossings: Crossings, rng: &mut Rng) -> Layout {
    let letters: Vec<Vec<char>> = words.iter().map(|w| w.chars().collect()).collect();
    let drawn: Vec<Orientation> = words.iter().map(|_| Orientation::draw(rng)).collect();
    let orientation_of = |word: &str| {
        let last = words.iter().rposition(|w| w == word).unwrap_or(0);
        drawn[last]
    };
    let longest = letters.iter().map(Vec::len).max().unwrap_or(0);
    let size = (longest as f64 * 1.5).round_ties_even() as usize;
    let mut layout = Layout {
        grid: vec![vec![EMPTY; size]; size],
        placed: Vec::new(),
    };
    for (word, chars) in words.iter().zip(&letters) {
        let direction = orientation_of(word);
        let mut spot = None;
        if layout.placed.is_empty() {
            let (row, col) = match direction {
                Orientation::Across => (size / 2, size.saturating_sub(chars.len()) / 2),
                Orientation::Down => (size.saturating_sub(chars.len()) / 2, size / 2),
            };
            if layout.fits(chars, direction, row, col) {
                spot = Some((row, col, direction));
            }
        } else {
            let mut candidates = layout.crossings(chars, direction, crossings);
            rng.shuffle(&mut candidates);
            spot = candidates
                .into_iter()
                .find(|&(row, col, dir)| layout.fits(chars, dir, row, col));
        }
        if spot.is_none() {
            spot = (0..size)
                .flat_map(|row| (0..size).map(move |col| (row, col)))
                .find(|&(row, col)| layout.fits(chars, direction, row, col))
                .map(|(row, col)| (row, col, direction));
        }
        if let Some((row, col, direction)) = spot {
            layout.put(word, chars, row, col, direction);
        }
    }
    layout
}

impl Layout {
    /// Whether `word` can start at `(row, col)` running `direction`: inside the grid, and every
    /// cell empty or already holding the same letter.
    fn fits(&self, word: &[char], direction: Orientation, row: usize, col: usize) -> bool {
        let size = self.grid.len();
        let (along, fixed) = match direction {
            Orientation::Across => (col, row),
            Orientation::Down => (row, col),
        };
        if along + word.len() > size || fixed >= size {
            return false;
        }
        word.iter().enumerate().all(|(i, &letter)| {
            let cell = match direction {
                Orientation::Across => self.grid[row][col + i],
                Orientation::Down => self.grid[row + i][col],
            };
            cell == EMPTY || cell == letter
        })
    }

    /// Every start that makes `word` (running `direction`) share a letter with a placed word
    /// running the other way, in GEM's order: placed word, letter of `word`, letter of it.
    fn crossings(
        &self,
        word: &[char],
        direction: Orientation,
        crossings: Crossings,
    ) -> Vec<(usize, usize, Orientation)> {
        let size = self.grid.len() as isize;
        let mut found = Vec::new();
        for placed in &self.placed {
            if placed.direction == direction {
                continue;
            }
            for (i, &letter) in word.iter().enumerate() {
                for (j, placed_letter) in placed.word.chars().enumerate() {
                    if letter != placed_letter {
                        continue;
                    }
                    let (row, col) = match placed.direction {
                        Orientation::Across => {
                            (placed.row as isize - i as isize, (placed.col + j) as isize)
                        }
                        Orientation::Down => {
                            ((placed.row + j) as isize, placed.col as isize - i as isize)
                        }
                    };
                    if !(0..size).contains(&row) || !(0..size).contains(&col) {
                        continue;
                    }
                    let (row, col) = (row as usize, col as usize);
                    if crossings == Crossings::Checked && !self.fits(word, direction, row, col) {
                        continue;
                    }
                    found.push((row, col, direction));
                }
            }
        }
        found
    }

    /// Writes `word` into the grid and records (or moves) its placement.
    fn put(&mut self, word: &str, chars: &[char], row: usize, col: usize, direction: Orientation) {
        for (i, &letter) in chars.iter().enumerate() {
            match direction {
                Orientation::Across => self.grid[row][col + i] = letter,
                Orientation::Down => self.grid[row + i][col] = letter,
            }
        }
        let placement = Placement {
            word: word.to_owned(),
            row,
            col,
            direction,
        };
        match self.placed.iter_mut().find(|p| p.word == word) {
            Some(slot) => *slot = placement,
            None => self.placed.push(placement),
        }
    }
}

/// The settings GEM's WordSearch and Crosswords share: the word list, how many words to hide,
/// and the turn limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleRules {
    /// Words come from the hard list.
    pub hardcore: bool,
    /// How many words are drawn.
    pub num_words: usize,
    /// Turns before the episode is cut short.
    pub max_turns: u64,
}

impl PuzzleRules {
    /// The rules set by the `hardcore`, `num_words` and `max_turns` keys of `config`, or `None`
    /// when any of them is null (the `-random` ids, which draw them at every reset).
    pub fn configured(config: &Config) -> Result<Option<PuzzleRules>, Error> {
        /// The configuration keys GEM registers for both games.
        #[derive(Deserialize)]
        struct Settings {
            hardcore: Option<bool>,
            num_words: Option<i64>,
            max_turns: Option<i64>,
        }
        let settings: Settings = config.parse()?;
        Ok(
            match (settings.hardcore, settings.num_words, settings.max_turns) {
                (Some(hardcore), Some(words), Some(turns)) => Some(PuzzleRules {
                    hardcore,
                    num_words: geode_sdk::config::at_least("num_words", words, 1)?,
                    max_turns: geode_sdk::config::at_least("max_turns", turns, 1)?,
                }),
                _ => None,
            },
        )
    }

    /// The rules of the next episode: `fixed`, or else `random` with the word list drawn by a
    /// coin flip, as GEM's `-random` ids draw it.
    pub fn fixed_or_drawn(fixed: Option<PuzzleRules>, random: PuzzleRules, rng: &mut Rng) -> Self {
        fixed.unwrap_or_else(|| PuzzleRules {
            hardcore: rng.below(2) == 1,
            ..random
        })
    }
}

/// GEM's column header for `n` columns: `C00 C01 ...`, separated by spaces.
pub fn column_header(n: usize) -> String {
    let mut out = String::with_capacity(n * 4);
    push_column_header(&mut out, n);
    out
}

fn push_column_header(out: &mut String, n: usize) {
    for i in 0..n {
        if i > 0 {
            out.push(' ');
        }
        push_label(out, 'C', i);
    }
}

/// Appends `prefix` and `i` padded with zeros to two digits (`C07`, `R12`, `C123`), the way
/// Python's `f"C{i:02}"` prints it, without `core::fmt` (boards are drawn on every step).
fn push_label(out: &mut String, prefix: char, i: usize) {
    out.push(prefix);
    if i < 10 {
        out.push('0');
    }
    out.push_str(itoa::Buffer::new().format(i));
}

/// A square grid with numbered rows and columns, as GEM's WordSearch and Crosswords print it;
/// the cells where `marked(row, col)` holds are shown in brackets.
pub fn render_numbered(grid: &[Vec<char>], marked: impl Fn(usize, usize) -> bool) -> String {
    let n = grid.len();
    let mut out = String::with_capacity((n + 1) * (4 * n + 5));
    out.push_str("   ");
    push_column_header(&mut out, n);
    for (r, row) in grid.iter().enumerate() {
        out.push('\n');
        push_label(&mut out, 'R', r);
        out.push(' ');
        for (c, &letter) in row.iter().enumerate() {
            if marked(r, c) {
                out.push('[');
                out.push(letter);
                out.push_str("] ");
            } else {
                out.push(' ');
                out.push(letter);
                out.push_str("  ");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_rules_from_config() {
        let config = |value: serde_json::Value| Config::new(value.as_object().unwrap().clone());
        let rules = PuzzleRules::configured(&config(
            serde_json::json!({"hardcore": true, "num_words": 4, "max_turns": 9}),
        ));
        let expected = PuzzleRules {
            hardcore: true,
            num_words: 4,
            max_turns: 9,
        };
        assert_eq!(rules, Ok(Some(expected)));
        let random = serde_json::json!({"hardcore": null, "num_words": 4, "max_turns": 9});
        assert_eq!(PuzzleRules::configured(&config(random)), Ok(None));
        let bad = serde_json::json!({"hardcore": false, "num_words": 0, "max_turns": 9});
        assert!(PuzzleRules::configured(&config(bad)).is_err());
        let bad = serde_json::json!({"hardcore": "yes", "num_words": 1, "max_turns": 9});
        assert!(PuzzleRules::configured(&config(bad)).is_err());
        let drawn = PuzzleRules::fixed_or_drawn(None, expected, &mut Rng::seeded(3));
        assert_eq!((drawn.num_words, drawn.max_turns), (4, 9));
    }

    #[test]
    fn renders_numbered_rows_and_columns() {
        assert_eq!(column_header(3), "C00 C01 C02");
        let wide = column_header(101);
        assert!(wide.starts_with("C00 C01 C02"));
        assert!(wide.contains("C09 C10 C11"));
        assert!(wide.ends_with("C99 C100"), "{wide}");
        assert_eq!(render_numbered(&[], |_, _| false), "   ");
        let grid = vec![vec!['A', 'B'], vec!['.', 'C']];
        assert_eq!(
            render_numbered(&grid, |r, c| (r, c) == (1, 1)),
            "   C00 C01\nR00  A   B  \nR01  .  [C] "
        );
    }

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn centres_the_first_word_and_crosses_the_rest() {
        let layout = lay_out(
            &words(&["HOUSE", "SEA"]),
            Crossings::Unchecked,
            &mut Rng::seeded(1),
        );
        assert_eq!(layout.grid.len(), 8);
        assert_eq!(layout.placed.len(), 2);
        let first = &layout.placed[0];
        for p in &layout.placed {
            let chars: Vec<char> = p.word.chars().collect();
            for (i, c) in chars.iter().enumerate() {
                let (r, col) = match p.direction {
                    Orientation::Across => (p.row, p.col + i),
                    Orientation::Down => (p.row + i, p.col),
                };
                assert_eq!(layout.grid[r][col], *c);
            }
        }
        match first.direction {
            Orientation::Across => assert_eq!((first.row, first.col), (4, 1)),
            Orientation::Down => assert_eq!((first.row, first.col), (1, 4)),
        }
    }

    #[test]
    fn grid_size_rounds_half_to_even() {
        let layout = lay_out(&words(&["CAT"]), Crossings::Checked, &mut Rng::seeded(0));
        assert_eq!(layout.grid.len(), 4);
        let layout = lay_out(&words(&["HOUSE"]), Crossings::Checked, &mut Rng::seeded(0));
        assert_eq!(layout.grid.len(), 8);
    }
}
