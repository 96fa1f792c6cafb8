//! Hangman: reveal a secret word by guessing letters, or guess the whole word, as `\boxed{...}`.
//!
//! Rules, texts and rewards follow GEM's `HangmanEnv`, so results stay comparable:
//! - no `\boxed{letters}`: format error, −0.1, the episode ends;
//! - a letter in the word: 0.5 × (cells it reveals / length); a letter not in it, or a wrong
//!   word of the right length: 0.0; a repeated letter or a word of the wrong length: 0.0;
//! - the right word: 0.5 + 0.5 × (share of cells still hidden), the episode ends;
//! - at the turn limit the episode ends, truncated. Revealing every letter does not end it.

use geode_games::game::{echo, format_error_step, move_step};
use geode_games::prelude::*;
use geode_games::pycompat::boxed_bodies;
use geode_games::word_grid::column_header;
use geode_games::word_list::{WordList, WordRules};

/// Common English words (see `data/DATA.md`), standing in for NLTK's `en-basic`.
static BASIC: WordList = WordList::new(include_str!("../data/basic.txt"));
/// A deterministic subset of Webster's Second (web2), standing in for NLTK's `en`.
static HARDCORE: WordList = WordList::new(include_str!("../data/web2-subset.txt"));

/// The (word length, turn limit) pairs the `-random` id draws from.
const RANDOM_RULES: [(usize, u64); 3] = [(3, 10), (5, 15), (7, 20)];

/// The word list of a basic or hardcore game.
fn word_list(hardcore: bool) -> &'static WordList {
    if hardcore { &HARDCORE } else { &BASIC }
}

/// The words a game of `length` letters draws from (lowercase alphabetic, as GEM filters them).
fn words_of_length(hardcore: bool, length: usize) -> Vec<&'static str> {
    word_list(hardcore).lowercase_of_length(length)
}

/// The configuration keys GEM registers for Hangman.
#[derive(Deserialize)]
struct Settings {
    word_length: Option<i64>,
    hardcore: Option<bool>,
    max_turns: Option<i64>,
}

/// One game of Hangman.
#[derive(Serialize, Deserialize)]
pub struct Hangman {
    /// The configured rules; `None` draws them at every reset (the `-random` id).
    fixed: Option<WordRules>,
    rules: WordRules,
    /// Words come from the large list instead of the common one.
    hardcore: bool,
    /// The secret word, uppercase.
    secret: String,
    /// One cell per letter: `_` until revealed.
    board: Vec<char>,
    /// Letters guessed so far.
    guessed: Vec<char>,
    turn: u64,
}

/// What a guess leads to: its observation and reward, and whether it wins.
enum Outcome {
    Won(String, f64),
    Goes(String, f64),
}

/// Uppercases one character the way Python's `str.upper` does for those GEM's pattern accepts.
fn py_upper(c: char) -> char {
    match c {
        '\u{131}' => 'I',
        '\u{17f}' => 'S',
        other => other.to_ascii_uppercase(),
    }
}

/// The uppercased content of the last `\boxed{...}` holding only letters. GEM matches
/// `[a-zA-Z]+` case-insensitively, which in Python also admits `İ ı ſ K` (U+0130, U+0131,
/// U+017F, U+212A).
fn parse_guess(action: &str) -> Option<String> {
    let letter = |c: char| {
        c.is_ascii_alphabetic() || matches!(c, '\u{130}' | '\u{131}' | '\u{17f}' | '\u{212a}')
    };
    let body = boxed_bodies(action)
        .filter(|b| !b.is_empty() && b.chars().all(letter))
        .last()?;
    Some(body.chars().map(py_upper).collect())
}

impl Hangman {
    /// The opening observation: GEM's instructions, word for word.
    fn instructions(&self, word_example: &str, letter_example: &str) -> String {
        let WordRules {
            word_length,
            max_turns,
        } = self.rules;
        text!(
            "You are playing Hangman.\n\
             The objective of the game is to guess the ",
            word_length,
            "-letter word by providing one letter guesses or the entire word.\n\
             The cells that need to be populated with letters are represented by '_'.\n\n\
             There are two ways you can answer. You can provide one letter guesses in the format of ",
            word_example,
            ", or you can guess the entire word in the format of ",
            letter_example,
            ".\n\
             If the given letter is in the word, it will be revealed in the grid.\n\
             If the given word is correct, you win.\n\
             As you play, the history of your choices will be appended below. Use the information to figure out the word and win.\n\
             Some rules:\n\
             1. You can only guess one letter/word at a time.\n\
             2. You have to win within ",
            max_turns,
            " turns.\n\n"
        )
    }

    /// The grid: a `C00 C01 ...` header over the cells.
    fn render(&self) -> String {
        let mut grid = column_header(self.board.len());
        grid.reserve(1 + 4 * self.board.len());
        grid.push('\n');
        for &c in &self.board {
            grid.push_str("  ");
            grid.push(c);
            grid.push(' ');
        }
        grid
    }

    /// The info `suffix` GEM attaches to every observation: the current board.
    fn suffix(&self) -> String {
        text!(
            "Here is the current state of the Hangman grid:\n",
            self.render(),
            "\n\nEnter your guess."
        )
    }

    /// `step` carrying the `suffix` info.
    fn with_suffix(&self, step: Step) -> Step {
        step.info("suffix", self.suffix())
    }

    /// A random candidate word, boxed (GEM's `sample_random_word`).
    fn random_word(&self, rng: &mut Rng) -> String {
        let words = words_of_length(self.hardcore, self.rules.word_length);
        let word = rng.choice(&words).copied().unwrap_or("a");
        text!("\\boxed{", word.to_ascii_uppercase(), '}')
    }

    /// A random letter, boxed (GEM's `sample_random_letter`).
    fn random_letter(rng: &mut Rng) -> String {
        let letter = b'A' + rng.below(26) as u8;
        text!("\\boxed{", char::from(letter), '}')
    }

    /// The outcome of guessing the whole word `guess` (two letters or more).
    fn guess_word(&self, guess: &str, turn: u64) -> Outcome {
        let length = guess.chars().count();
        let secret_length = self.secret.chars().count();
        if guess == self.secret {
            let hidden = self.board.iter().filter(|&&c| c == '_').count();
            let reward = hidden as f64 / self.board.len() as f64 * 0.5 + REWARD.success * 0.5;
            let obs = text!(
                "Congratulations! You guessed the word '",
                self.secret,
                "' correctly!"
            );
            return Outcome::Won(obs, reward);
        }
        let (obs, reward) = if length != secret_length {
            let guess = echo(guess);
            let obs = text!(
                "At turn ",
                turn,
                ", You guessed '",
                *guess,
                "' which is of length ",
                length,
                ", but the secret word is of length ",
                secret_length,
                "."
            );
            (obs, REWARD.invalid_action)
        } else {
            let obs = text!(
                "At turn ",
                turn,
                ", You guessed '",
                guess,
                "' which is incorrect."
            );
            (obs, REWARD.internal_step)
        };
        Outcome::Goes(obs, reward)
    }

    /// The observation and reward for guessing the single letter `letter`.
    fn guess_letter(&mut self, letter: char, turn: u64) -> (String, f64) {
        if self.guessed.contains(&letter) {
            let obs = text!(
                "At turn ",
                turn,
                ", you guessed '",
                letter,
                "', which has been already guessed before."
            );
            return (obs, REWARD.invalid_action);
        }
        self.guessed.push(letter);
        let mut revealed = 0;
        for (cell, c) in self.board.iter_mut().zip(self.secret.chars()) {
            if c == letter {
                *cell = letter;
                revealed += 1;
            }
        }
        if revealed == 0 {
            let obs = text!(
                "At turn ",
                turn,
                ", you guessed a letter '",
                letter,
                "' that is not in the secret word."
            );
            return (obs, REWARD.internal_step);
        }
        let obs = text!(
            "At turn ",
            turn,
            ", you successfully guessed a letter '",
            letter,
            "' that is in the secret word."
        );
        let share = revealed as f64 / self.secret.chars().count() as f64;
        (obs, share * 0.5)
    }
}

impl Environment for Hangman {
    fn specs() -> Vec<Spec> {
        let spec = |id: &str, what: &str, length: Option<i64>, turns: Option<i64>| {
            Spec::new(
                id,
                what,
                json!({ "word_length": length, "hardcore": false, "max_turns": turns }),
            )
        };
        vec![
            spec(
                "game:Hangman-v0-random",
                "Hangman; word length and turns drawn per episode",
                None,
                None,
            ),
            spec(
                "game:Hangman-v0-easy",
                "Hangman on a 3-letter word within 10 turns",
                Some(3),
                Some(10),
            ),
            spec(
                "game:Hangman-v0-hard",
                "Hangman on a 7-letter word within 20 turns",
                Some(7),
                Some(20),
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let settings: Settings = config.parse()?;
        let hardcore = settings.hardcore.unwrap_or(false);
        let list = word_list(hardcore);
        let fixed = WordRules::configured(list, settings.word_length, settings.max_turns)?;
        Ok(Hangman {
            fixed,
            rules: fixed.unwrap_or(WordRules {
                word_length: 5,
                max_turns: 15,
            }),
            hardcore,
            secret: String::new(),
            board: Vec::new(),
            guessed: Vec::new(),
            turn: 0,
        })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        self.rules = self.fixed.unwrap_or_else(|| {
            let (word_length, max_turns) = *rng.choice(&RANDOM_RULES).unwrap_or(&(5, 15));
            WordRules {
                word_length,
                max_turns,
            }
        });
        self.secret = word_list(self.hardcore).draw_secret(self.rules.word_length, rng)?;
        self.board = vec!['_'; self.secret.len()];
        self.guessed.clear();
        self.turn = 0;
        let word_example = self.random_word(rng);
        let letter_example = Self::random_letter(rng);
        let obs = self.instructions(&word_example, &letter_example);
        Ok(Reset::new(obs).info("suffix", self.suffix()))
    }

    fn step(&mut self, action: &str, _rng: &mut Rng) -> Result<Step, Error> {
        self.turn += 1;
        let turn = self.turn;
        let Some(guess) = parse_guess(action) else {
            let obs = "You did not provide a valid guess.";
            return Ok(self.with_suffix(format_error_step(obs, turn, self.rules.max_turns)));
        };
        let mut letters = guess.chars();
        let outcome = match (letters.next(), letters.next()) {
            (Some(letter), None) => {
                let (obs, reward) = self.guess_letter(letter, turn);
                Outcome::Goes(obs, reward)
            }
            _ => self.guess_word(&guess, turn),
        };
        let step = match outcome {
            Outcome::Won(obs, reward) => Step::new(obs, reward).terminated(),
            Outcome::Goes(obs, reward) => move_step(obs, reward, turn, self.rules.max_turns),
        };
        Ok(self.with_suffix(step))
    }

    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        if rng.below(2) == 0 {
            self.random_word(rng)
        } else {
            Self::random_letter(rng)
        }
    }
}

export_env!(Hangman);

#[cfg(test)]
mod tests;
