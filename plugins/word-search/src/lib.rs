//! WordSearch: find the words hidden across and down in a letter grid, answering
//! `\boxed{start_row start_col end_row end_col}`.
//!
//! Rules, texts and rewards follow GEM's `WordSearchEnv`, so results stay comparable:
//! - no four numbers in a `\boxed{}`: format error, −0.1, the episode ends;
//! - coordinates off the grid, already tried, or diagonal: 0.0, the episode goes on;
//! - the exact span of a hidden word (either way round): 1 / number of words;
//! - finding every word ends the episode; the turn limit ends it, truncated.

use geode_games::game::{format_error_step, move_step};
use geode_games::prelude::*;
use geode_games::pycompat::{PyUint, boxed_bodies, fields_array, sample_indices};
use geode_games::word_grid::{Crossings, EMPTY, Placement, PuzzleRules, lay_out, render_numbered};
use geode_games::word_list::WordList;

/// Common English words (see `data/DATA.md`), standing in for NLTK's `en-basic`.
static BASIC: WordList = WordList::new(include_str!("../data/basic.txt"));
/// A deterministic subset of Webster's Second (web2), standing in for NLTK's `en`.
static HARDCORE: WordList = WordList::new(include_str!("../data/web2-subset.txt"));

/// The word list of a basic or hardcore game, in file order.
fn word_list(hardcore: bool) -> &'static [&'static str] {
    if hardcore {
        HARDCORE.all()
    } else {
        BASIC.all()
    }
}

/// The rules of the `-random` id (its word list is drawn at every reset) and of a game
/// configured without them.
const RANDOM_RULES: PuzzleRules = PuzzleRules {
    hardcore: false,
    num_words: 5,
    max_turns: 20,
};

/// A guess: start row, start column, end row, end column.
type Span = [u64; 4];

/// One game of WordSearch.
#[derive(Serialize, Deserialize)]
pub struct WordSearch {
    /// The configured rules; `None` draws them at every reset (the `-random` id).
    fixed: Option<PuzzleRules>,
    rules: PuzzleRules,
    grid: Vec<Vec<char>>,
    placed: Vec<Placement>,
    /// Cells of found words, shown in brackets.
    highlighted: Vec<Vec<bool>>,
    /// Distinct words found so far.
    found: Vec<String>,
    /// Every well-formed guess so far, valid or not.
    attempts: Vec<Span>,
    turn: u64,
}

/// The four numbers of the last `\boxed{r c r c}` (Python's `\d+` separated by `\s+`).
fn parse_span(action: &str) -> Option<[PyUint; 4]> {
    boxed_bodies(action)
        .filter_map(|body| {
            let [a, b, c, d] = fields_array(body)?;
            Some([
                PyUint::parse(a)?,
                PyUint::parse(b)?,
                PyUint::parse(c)?,
                PyUint::parse(d)?,
            ])
        })
        .last()
}

impl WordSearch {
    /// The opening observation: GEM's instructions, word for word.
    fn instructions(&self) -> String {
        let kind = if self.rules.hardcore {
            "Hardcore"
        } else {
            "Basic"
        };
        let max_turns = self.rules.max_turns;
        text!(
            "You are participating in a Word Search challenge (",
            kind,
            ").\n\
             The objective is to find and highlight hidden words on the grid below.\n\
             The rows and columns are numbered for your reference.\n\n\
             Words you have already found are marked in square brackets [ ].\n\
             Each row and column is numbered for clarity.\n\n\
             To locate a word, specify the row and column of its start and end letters.\n\
             Note that words are either across (horizontal) or down (vertical).\n\
             Use the format \\boxed{start_row start_col end_row end_col} for submission.\n\
             For instance: \\boxed{1 1 1 5} to find a word from row 1, col 1 to row 1, col 5.\n\n\
             Guidelines:\n\
             - you have a maximum of ",
            max_turns,
            " turns to find all the words.\n\
             - Each guess must be unique; you cannot repeat the same guess.\n\
             - The history of your attempts will be recorded below.\n\
             - Make your guesses carefully and strategically!"
        )
    }

    /// The grid with numbered rows and columns, found words in brackets.
    fn render(&self) -> String {
        render_numbered(&self.grid, |r, c| self.highlighted[r][c])
    }

    /// The info `suffix` GEM attaches to every observation: the current board.
    fn suffix(&self) -> String {
        text!(
            "Current Board:\n",
            self.render(),
            "\nWords Found: ",
            self.found.len(),
            '/',
            self.placed.len(),
            "\nEnter your guess."
        )
    }

    /// `step` carrying the `suffix` info.
    fn with_suffix(&self, step: Step) -> Step {
        step.info("suffix", self.suffix())
    }

    /// The first placed word whose ends are exactly the span's, in either order.
    fn word_at(&self, [sr, sc, er, ec]: Span) -> Option<String> {
        let cell = |row: usize, col: usize| (row as u64, col as u64);
        self.placed.iter().find_map(|p| {
            let start = cell(p.row, p.col);
            let (end_row, end_col) = p.end();
            let end = cell(end_row, end_col);
            let spans = ((sr, sc), (er, ec));
            (spans == (start, end) || spans == (end, start)).then(|| p.word.clone())
        })
    }

    /// Marks the cells of a straight span as found.
    fn highlight(&mut self, [sr, sc, er, ec]: Span) {
        let (sr, sc, er, ec) = (sr as usize, sc as usize, er as usize, ec as usize);
        if sr == er {
            for col in sc.min(ec)..=sc.max(ec) {
                self.highlighted[sr][col] = true;
            }
        } else {
            for row in sr.min(er)..=sr.max(er) {
                self.highlighted[row][sc] = true;
            }
        }
    }

    /// The observation and reward of a well-formed guess, recording what it finds.
    fn judge(&mut self, span: Span, text: &[String; 4]) -> (String, f64) {
        let turn = self.turn;
        let [sr, sc, er, ec] = text;
        let coords = text!('(', sr, ", ", sc, ") to (", er, ", ", ec, ')');
        let size = self.grid.len() as u64;
        if span.iter().any(|&n| n >= size) {
            let obs = text!(
                "At turn ",
                turn,
                ", your tried coordinates ",
                coords,
                " are out of bounds."
            );
            return (obs, REWARD.invalid_action);
        }
        if self.attempts.contains(&span) {
            let obs = text!(
                "At turn ",
                turn,
                ", you have already tried the coordinates ",
                coords,
                '.'
            );
            return (obs, REWARD.invalid_action);
        }
        if span[0] != span[2] && span[1] != span[3] {
            let obs = text!(
                "At turn ",
                turn,
                ", you tried ",
                coords,
                ", which is not valid because words must be either across (horizontal) or down (vertical)."
            );
            return (obs, REWARD.invalid_action);
        }
        let Some(word) = self.word_at(span) else {
            let obs = text!(
                "At turn ",
                turn,
                ", incorrect attempt. No word found at coordinates ",
                coords,
                '.'
            );
            return (obs, REWARD.internal_step);
        };
        self.highlight(span);
        let obs = text!(
            "At turn ",
            turn,
            ", correct! You found the word '",
            word,
            "' at coordinates ",
            coords,
            '.'
        );
        if !self.found.contains(&word) {
            self.found.push(word);
        }
        (obs, 1.0 / self.placed.len() as f64)
    }
}

impl Environment for WordSearch {
    fn specs() -> Vec<Spec> {
        let spec = |id: &str, what: &str, words: Option<i64>, turns: Option<i64>, hard| {
            Spec::new(
                id,
                what,
                json!({ "num_words": words, "max_turns": turns, "hardcore": hard }),
            )
        };
        vec![
            spec(
                "game:WordSearch-v0-easy",
                "Find 5 common words in a letter grid within 20 turns",
                Some(5),
                Some(20),
                Some(false),
            ),
            spec(
                "game:WordSearch-v0-hard",
                "Find 5 dictionary words in a letter grid within 20 turns",
                Some(5),
                Some(20),
                Some(true),
            ),
            spec(
                "game:WordSearch-v0-random",
                "Find 5 words in a letter grid; word list drawn per episode",
                None,
                None,
                None,
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let fixed = PuzzleRules::configured(&config)?;
        Ok(WordSearch {
            fixed,
            rules: fixed.unwrap_or(RANDOM_RULES),
            grid: Vec::new(),
            placed: Vec::new(),
            highlighted: Vec::new(),
            found: Vec::new(),
            attempts: Vec::new(),
            turn: 0,
        })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        self.rules = PuzzleRules::fixed_or_drawn(self.fixed, RANDOM_RULES, rng);
        let list = word_list(self.rules.hardcore);
        let mut words: Vec<String> = sample_indices(rng, list.len(), self.rules.num_words)
            .into_iter()
            .map(|i| list[i].to_uppercase())
            .collect();
        words.sort_by_key(|w| std::cmp::Reverse(w.chars().count()));
        let layout = lay_out(&words, Crossings::Unchecked, rng);
        self.grid = layout.grid;
        for cell in self.grid.iter_mut().flatten() {
            if *cell == EMPTY {
                *cell = char::from(b'A' + rng.below(26) as u8);
            }
        }
        self.placed = layout.placed;
        self.highlighted = vec![vec![false; self.grid.len()]; self.grid.len()];
        self.found.clear();
        self.attempts.clear();
        self.turn = 0;
        Ok(Reset::new(self.instructions()).info("suffix", self.suffix()))
    }

    fn step(&mut self, action: &str, _rng: &mut Rng) -> Result<Step, Error> {
        self.turn += 1;
        let turn = self.turn;
        let Some(numbers) = parse_span(action) else {
            let obs = text!(
                "At turn ",
                turn,
                ", you did not provide a valid guess in \\boxed{start_row start_col end_row end_col} format."
            );
            return Ok(self.with_suffix(format_error_step(obs, turn, self.rules.max_turns)));
        };
        let span = numbers.each_ref().map(|n| n.value);
        let text = numbers.map(|n| n.text);
        let (obs, reward) = self.judge(span, &text);
        self.attempts.push(span);
        let step = if self.found.len() == self.placed.len() {
            let obs = "Congratulations! You completed the Word Search puzzle!";
            Step::new(obs, reward).terminated()
        } else {
            move_step(obs, reward, turn, self.rules.max_turns)
        };
        Ok(self.with_suffix(step))
    }

    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        let size = self.grid.len() as i64;
        if size == 0 {
            return "\\boxed{0 0 0 2}".into();
        }
        let [a, b, c, d] = [(); 4].map(|_| rng.randint(0, size - 1));
        text!("\\boxed{", a, ' ', b, ' ', c, ' ', d, '}')
    }
}

export_env!(WordSearch);

#[cfg(test)]
mod tests;
