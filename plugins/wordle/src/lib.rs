//! Wordle: find a secret word from green/yellow/grey letter feedback, answering `\boxed{WORD}`.
//!
//! Rules, texts and rewards follow GEM's `WordleEnv`, so results stay comparable:
//! - no `\boxed{letters}` (letters may be split by whitespace): format error, −0.1, the episode ends;
//! - a guess of the wrong length or one made before: 0.0, the episode goes on;
//! - otherwise 0.5 / length for every position that turns green for the first time, plus 0.5
//!   when the whole word is green (the episode ends);
//! - at the turn limit the episode ends, truncated.

use geode_games::game::{echo, format_error_step, move_step};
use geode_games::prelude::*;
use geode_games::pycompat::{boxed_bodies, is_space};
use geode_games::word_list::{WordList, WordRules};

/// Lowercase common English words (see `data/DATA.md`), standing in for NLTK's `en-basic`.
static WORDS: WordList = WordList::new(include_str!("../data/basic.txt"));

/// The info `suffix` GEM attaches to every observation.
const SUFFIX: &str = "Enter your guess.";

/// The words a game of `length` letters draws from (lowercase alphabetic, as GEM filters them).
fn words_of_length(length: usize) -> Vec<&'static str> {
    WORDS.lowercase_of_length(length)
}

/// The configuration keys GEM registers for Wordle that its rules use. The third,
/// `only_real_words`, is registered but never consulted by GEM; it is accepted and ignored.
#[derive(Deserialize)]
struct Settings {
    word_length: Option<i64>,
    max_turns: Option<i64>,
}

/// One game of Wordle.
#[derive(Serialize, Deserialize)]
pub struct Wordle {
    /// The configured rules; `None` draws them at every reset (the `-random` id).
    fixed: Option<WordRules>,
    rules: WordRules,
    /// The secret word, uppercase.
    secret: String,
    /// Every distinct valid guess so far.
    guesses: Vec<String>,
    /// Positions that have already been green once (each pays only the first time).
    greens: Vec<bool>,
    turn: u64,
}

/// One letter's verdict.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Mark {
    Green,
    Yellow,
    Wrong,
}

impl Mark {
    /// The letter GEM prints for the mark.
    fn letter(self) -> char {
        match self {
            Mark::Green => 'G',
            Mark::Yellow => 'Y',
            Mark::Wrong => 'X',
        }
    }
}

/// Marks `guess` against `secret` (same length): greens first, then yellows left to right,
/// each secret letter used at most once.
fn evaluate(guess: &[char], secret: &[char]) -> Vec<Mark> {
    let mut unused: Vec<Option<char>> = secret.iter().copied().map(Some).collect();
    let mut marks: Vec<Option<Mark>> = vec![None; guess.len()];
    for (i, (g, s)) in guess.iter().zip(secret).enumerate() {
        if g == s {
            marks[i] = Some(Mark::Green);
            unused[i] = None;
        }
    }
    for (mark, letter) in marks.iter_mut().zip(guess) {
        if mark.is_some() {
            continue;
        }
        let found = unused.iter().position(|u| *u == Some(*letter));
        *mark = Some(match found {
            Some(at) => {
                unused[at] = None;
                Mark::Yellow
            }
            None => Mark::Wrong,
        });
    }
    marks
        .into_iter()
        .map(|m| m.unwrap_or(Mark::Wrong))
        .collect()
}

/// The marks as Python prints a list of one-letter strings: `['G', 'X', 'Y']`.
fn marks_repr(marks: &[Mark]) -> String {
    let mut repr = String::with_capacity(2 + 5 * marks.len());
    repr.push('[');
    for (i, mark) in marks.iter().enumerate() {
        if i > 0 {
            repr.push_str(", ");
        }
        repr.push('\'');
        repr.push(mark.letter());
        repr.push('\'');
    }
    repr.push(']');
    repr
}

/// The guess in the last `\boxed{...}` holding letter runs split by whitespace: uppercased,
/// with spaces (only U+0020, as GEM strips them) removed.
fn parse_guess(action: &str) -> Option<String> {
    let valid = |body: &str| {
        let starts_ends_with_letter = body.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && body.chars().last().is_some_and(|c| c.is_ascii_alphabetic());
        starts_ends_with_letter && body.chars().all(|c| c.is_ascii_alphabetic() || is_space(c))
    };
    let body = boxed_bodies(action).filter(|b| valid(b)).last()?;
    Some(body.to_ascii_uppercase().replace(' ', ""))
}

impl Wordle {
    /// The opening observation: GEM's instructions, word for word.
    fn instructions(&self, example: &str) -> String {
        let WordRules {
            word_length,
            max_turns,
        } = self.rules;
        text!(
            "You are playing Wordle.\n\
             You have to guess the secret ",
            word_length,
            "-letter word within ",
            max_turns,
            " turns.\n\
             After you enter your guess, I will say mark your guess as follows:\n  \
             - G (green): correct letter in the correct position\n  \
             - Y (yellow): letter exists in the word but in the wrong position\n  \
             - X (wrong): letter is not in the word\n\
             After thinking, format your final answer inside \\boxed{...}, for example, ",
            example,
            ".\n\
             As you play, the history of your guesses will be appended below. Use the information to complete the game before you run out of guesses.\n"
        )
    }

    /// 0.5 / length for each green position not green before; records them.
    fn green_reward(&mut self, marks: &[Mark]) -> f64 {
        let share = 1.0 / self.greens.len() as f64 * 0.5;
        let mut reward = 0.0;
        for (seen, mark) in self.greens.iter_mut().zip(marks) {
            if *mark == Mark::Green && !*seen {
                reward += share;
                *seen = true;
            }
        }
        reward
    }

    /// `step` carrying the `suffix` info.
    fn with_suffix(step: Step) -> Step {
        step.info("suffix", SUFFIX)
    }
}

impl Environment for Wordle {
    fn specs() -> Vec<Spec> {
        let spec = |id: &str, what: &str, length: Option<i64>, turns: Option<i64>| {
            Spec::new(
                id,
                what,
                json!({ "word_length": length, "only_real_words": true, "max_turns": turns }),
            )
        };
        vec![
            spec(
                "game:Wordle-v0-hard",
                "Guess a 5-letter word within 25 turns",
                Some(5),
                Some(25),
            ),
            spec(
                "game:Wordle-v0-easy",
                "Guess a 3-letter word within 15 turns",
                Some(3),
                Some(15),
            ),
            spec(
                "game:Wordle-v0-random",
                "Guess a 3- to 5-letter word; length and turns drawn per episode",
                None,
                None,
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let settings: Settings = config.parse()?;
        let fixed = WordRules::configured(&WORDS, settings.word_length, settings.max_turns)?;
        let rules = fixed.unwrap_or(WordRules {
            word_length: 5,
            max_turns: 25,
        });
        Ok(Wordle {
            fixed,
            rules,
            secret: String::new(),
            guesses: Vec::new(),
            greens: Vec::new(),
            turn: 0,
        })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        self.rules = self.fixed.unwrap_or_else(|| {
            let word_length = rng.randint(3, 5) as usize;
            WordRules {
                word_length,
                max_turns: word_length as u64 * 5,
            }
        });
        self.secret = WORDS.draw_secret(self.rules.word_length, rng)?;
        self.guesses.clear();
        self.greens = vec![false; self.rules.word_length];
        self.turn = 0;
        let example = self.sample_random_action(rng);
        Ok(Reset::new(self.instructions(&example)).info("suffix", SUFFIX))
    }

    fn step(&mut self, action: &str, _rng: &mut Rng) -> Result<Step, Error> {
        self.turn += 1;
        let turn = self.turn;
        let length = self.rules.word_length;
        let Some(guess) = parse_guess(action) else {
            let obs = text!("At turn ", turn, ", you did not provide a valid guess.");
            return Ok(Self::with_suffix(format_error_step(
                obs,
                turn,
                self.rules.max_turns,
            )));
        };
        let letters: Vec<char> = guess.chars().collect();
        let (obs, reward) = if letters.len() != length {
            let obs = text!(
                "At turn ",
                turn,
                ", you guessed ",
                *echo(&guess),
                " which has ",
                letters.len(),
                " letters but the secret word has ",
                length,
                " letters."
            );
            (obs, REWARD.invalid_action)
        } else if self.guesses.contains(&guess) {
            let obs = text!(
                "At turn ",
                turn,
                ", you guessed ",
                guess,
                ", which has been already guessed before."
            );
            (obs, REWARD.invalid_action)
        } else {
            let secret: Vec<char> = self.secret.chars().collect();
            let marks = evaluate(&letters, &secret);
            let reward = self.green_reward(&marks);
            self.guesses.push(guess.clone());
            if marks.iter().all(|&m| m == Mark::Green) {
                let obs = text!(
                    "Congratulations! You guessed the secret word ",
                    self.secret,
                    " in ",
                    turn,
                    " turns."
                );
                let reward = reward + REWARD.success * 0.5;
                return Ok(Self::with_suffix(Step::new(obs, reward).terminated()));
            }
            let obs = text!(
                "At turn ",
                turn,
                ", you guessed ",
                guess,
                "\nFeedback:\n",
                guess,
                '\n',
                marks_repr(&marks)
            );
            (obs, reward)
        };
        let step = move_step(obs, reward, turn, self.rules.max_turns);
        Ok(Self::with_suffix(step))
    }

    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        let words = words_of_length(self.rules.word_length);
        let word = rng.choice(&words).copied().unwrap_or("about");
        text!("\\boxed{", word.to_ascii_uppercase(), '}')
    }
}

export_env!(Wordle);

#[cfg(test)]
mod tests;
