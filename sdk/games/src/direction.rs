//! Moves of grid games: the four directions and GEM's `\boxed{up|down|left|right}` answers.

use serde::{Deserialize, Serialize};

/// One of the four moves of a grid game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// Towards the first row.
    Up,
    /// Towards the last row.
    Down,
    /// Towards the first column.
    Left,
    /// Towards the last column.
    Right,
}

impl Direction {
    /// All four, in GEM's order (`["up", "down", "left", "right"]`), which random draws index.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// The lowercase name GEM prints (`"up"`).
    pub fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }

    /// The answer naming this move (`"\boxed{up}"`).
    pub fn boxed(self) -> &'static str {
        match self {
            Direction::Up => "\\boxed{up}",
            Direction::Down => "\\boxed{down}",
            Direction::Left => "\\boxed{left}",
            Direction::Right => "\\boxed{right}",
        }
    }

    /// The change of (row, column) of one step.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Direction::Up => (-1, 0),
            Direction::Down => (1, 0),
            Direction::Left => (0, -1),
            Direction::Right => (0, 1),
        }
    }

    /// The direction pointing the other way.
    pub fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }
}

/// The move in the last `\boxed{...}` of `text` that GEM's
/// `re.compile(r"\\boxed\{(up|down|left|right)\}", re.IGNORECASE)` finds, lowercased as GEM does.
///
/// Python's case-insensitive match lets `ı` (dotless i) and `İ` (capital I with dot) stand for
/// `i`, but lowercasing keeps them non-ASCII, so GEM ends up with a word that names no direction
/// (`"rıght"`). Such a word comes back as `Err` holding GEM's lowercased text.
pub fn last_boxed_direction(text: &str) -> Option<Result<Direction, String>> {
    crate::parse::last_boxed_match(text, boxed_direction_at)
}

/// Matches `word}` at the start of `body` for one of the four directions.
fn boxed_direction_at(body: &str) -> Option<Result<Direction, String>> {
    Direction::ALL.into_iter().find_map(|dir| {
        let mut chars = body.char_indices();
        let mut plain = true;
        for expected in dir.name().chars() {
            let (_, c) = chars.next()?;
            if c.eq_ignore_ascii_case(&expected) {
                continue;
            }
            if expected == 'i' && matches!(c, 'ı' | 'İ') {
                plain = false;
                continue;
            }
            return None;
        }
        let (end, close) = chars.next()?;
        if close != '}' {
            return None;
        }
        Some(if plain {
            Ok(dir)
        } else {
            Err(body[..end].to_lowercase())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_last_direction_box() {
        let got = last_boxed_direction("\\boxed{up} then \\boxed{LeFt} and \\boxed{north}");
        assert_eq!(got, Some(Ok(Direction::Left)));
        assert_eq!(last_boxed_direction("\\boxed{ up}"), None);
        assert_eq!(last_boxed_direction("\\boxed{upp}"), None);
        assert_eq!(last_boxed_direction("\\boxed{down"), None);
        assert_eq!(last_boxed_direction(""), None);
        assert_eq!(
            last_boxed_direction("\\boxed{\\boxed{right}"),
            Some(Ok(Direction::Right))
        );
    }

    #[test]
    fn python_case_folding_of_i() {
        assert_eq!(
            last_boxed_direction("\\boxed{r\u{131}ght}"),
            Some(Err("r\u{131}ght".into()))
        );
        assert_eq!(
            last_boxed_direction("\\boxed{R\u{130}GHT}"),
            Some(Err("ri\u{307}ght".into()))
        );
        assert_eq!(last_boxed_direction("\\boxed{\u{212a}eft}"), None);
    }
}
