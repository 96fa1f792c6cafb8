//! Laying words out across and down on a square grid, drawing randomness exactly like the
//! builder GEM's WordSearch and Crosswords share (adapted there from TextArena).

use crate::Rng;
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

#[cfg(test)]
mod tests {
    use super::*;

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
