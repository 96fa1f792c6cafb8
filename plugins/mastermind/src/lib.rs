//! Mastermind: find a hidden code from black and white pegs, answering with `\boxed{1 2 3 4}`.
//!
//! Rules and rewards follow GEM's game of the same name, so results stay comparable:
//! - no parsable `\boxed{...}` of digits: format error, −0.1, the episode ends;
//! - a guess of the wrong length, with a digit out of range, or repeated: 0.0, the episode goes on;
//! - a new guess earns (black pegs − best black pegs so far) / code length when it beats the best,
//!   so a whole episode earns at most 1.0; guessing the code ends the episode;
//! - at the turn limit the episode ends (terminated and truncated) with that step's reward.

use geode_games::game::{fixed_or_choice, format_error_step, turn_limit_step};
use geode_games::parse::last_boxed_match;
use geode_games::prelude::*;
use geode_games::pycompat::{MAX_INT_DIGITS, PyInt, is_space, sample_range, strip_leading_zeros};
use geode_sdk::config::{at_least, between};
use geode_sdk::text::Piece;
use std::collections::BTreeSet;

/// The code shape and turn limit of one episode.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Rules {
    code_length: usize,
    num_numbers: u64,
    max_turns: i64,
}

/// The rule sets the `-random` id picks from at every reset, as GEM does.
const RANDOM_RULES: [Rules; 3] = [
    Rules {
        code_length: 2,
        num_numbers: 4,
        max_turns: 10,
    },
    Rules {
        code_length: 4,
        num_numbers: 6,
        max_turns: 20,
    },
    Rules {
        code_length: 4,
        num_numbers: 8,
        max_turns: 30,
    },
];

/// Longest code a configuration may ask for.
const MAX_CODE_LENGTH: i64 = 100;

/// Entries of a guess echoed back before the rest is elided (keeps observations bounded).
const ECHO_LIMIT: usize = 100;

// A guess of the code's length is always held whole.
const _: () = assert!(MAX_CODE_LENGTH as usize <= ECHO_LIMIT);

const SUFFIX: &str = "Enter your guess.";

/// One game of Mastermind.
#[derive(Serialize, Deserialize)]
pub struct Mastermind {
    /// Rules as configured; `None` means drawn at every reset (the `-random` id).
    fixed: Option<Rules>,
    duplicates: bool,
    rules: Rules,
    code: Vec<u64>,
    guessed: BTreeSet<Vec<u64>>,
    turn: i64,
    /// The most black pegs any guess has earned so far.
    best_black: usize,
}

/// What a well-formed guess leads to: an observation and a reward.
enum Verdict {
    /// The game goes on (unless the turn limit is reached).
    Play(String, f64),
    /// The code was found.
    Won(String, f64),
}

/// `random.sample(range(1, n + 1), k)`, drawing what CPython draws.
fn sample(rng: &mut Rng, n: u64, k: usize) -> Vec<u64> {
    sample_range(rng, n, k).into_iter().map(|i| i + 1).collect()
}

/// `random.choices(range(1, n + 1), k=k)`, drawing what CPython draws.
fn choices(rng: &mut Rng, n: u64, k: usize) -> Vec<u64> {
    (0..k)
        .map(|_| 1 + (rng.random() * n as f64).floor() as u64)
        .collect()
}

/// Black pegs (right digit, right place) and white pegs (right digit, wrong place).
fn pegs(code: &[u64], guess: &[u64]) -> (usize, usize) {
    let mut unmatched: Vec<Option<u64>> = Vec::with_capacity(code.len());
    let mut loose = Vec::new();
    for (&c, &g) in code.iter().zip(guess) {
        if c == g {
            unmatched.push(None);
        } else {
            unmatched.push(Some(c));
            loose.push(g);
        }
    }
    let black = code.len() - loose.len();
    let mut white = 0;
    for g in loose {
        if let Some(slot) = unmatched.iter_mut().find(|slot| **slot == Some(g)) {
            *slot = None;
            white += 1;
        }
    }
    (black, white)
}

/// The first items of a list of `len` as Python prints it, eliding entries past [`ECHO_LIMIT`].
fn list_repr<P: Piece>(head: impl IntoIterator<Item = P>, len: usize) -> String {
    let mut repr = String::with_capacity(16);
    repr.push('[');
    let mut shown = 0;
    for item in head.into_iter().take(ECHO_LIMIT) {
        if shown > 0 {
            repr.push_str(", ");
        }
        item.push_to(&mut repr);
        shown += 1;
    }
    if len > shown {
        repr.push_str(", ...");
    }
    repr.push(']');
    repr
}

/// A guess as GEM's pattern reads it, without holding every number of a huge one.
#[derive(Default)]
struct Guess<'a> {
    /// The first [`ECHO_LIMIT`] digit groups.
    head: Vec<&'a str>,
    /// How many digit groups there are.
    len: usize,
    /// Digits in the longest group.
    widest: usize,
}

impl<'a> Guess<'a> {
    fn push(&mut self, digits: &'a str) {
        if self.head.len() < ECHO_LIMIT {
            self.head.push(digits);
        }
        self.len += 1;
        self.widest = self.widest.max(digits.len());
    }

    /// The numbers of the head, or `None` where Python's `int()` fails on any group.
    fn numbers(&self) -> Option<Vec<PyInt<'a>>> {
        if self.widest > MAX_INT_DIGITS {
            return None;
        }
        self.head
            .iter()
            .map(|digits| PyInt::parse(digits))
            .collect()
    }
}

/// The last `\boxed{...}` of `action` holding only digit groups separated by whitespace.
fn last_guess(action: &str) -> Option<Guess<'_>> {
    let mut guess = Guess::default();
    last_boxed_match(action, |body| scan_guess(body, &mut guess).then_some(()))?;
    Some(guess)
}

/// What GEM's guess pattern makes of one character.
#[derive(Clone, Copy)]
enum Class {
    Digit,
    Space,
    Close,
    Other,
}

/// The class and byte width of the character at byte `at` of `text`.
fn classify(text: &str, at: usize) -> (Class, usize) {
    match text.as_bytes()[at] {
        b'0'..=b'9' => (Class::Digit, 1),
        b'}' => (Class::Close, 1),
        b'\t'..=b'\r' | 0x1c..=b' ' => (Class::Space, 1),
        0x80.. => match text[at..].chars().next() {
            Some(c) if is_space(c) => (Class::Space, c.len_utf8()),
            Some(c) => (Class::Other, c.len_utf8()),
            None => (Class::Other, 1),
        },
        _ => (Class::Other, 1),
    }
}

/// Matches GEM's `\d+(?:\s+\d+)*}` at the start of `body`, collecting the digit groups into
/// `guess` (cleared first). One pass over bytes that reuses `guess`'s buffer, so a megabyte of
/// digits or of near misses stays cheap.
fn scan_guess<'a>(body: &'a str, guess: &mut Guess<'a>) -> bool {
    /// Where the scan stands: before any digit, inside a group (from its start), or after one.
    enum At {
        Start,
        Digits(usize),
        Space,
    }
    guess.head.clear();
    guess.len = 0;
    guess.widest = 0;
    let mut state = At::Start;
    let mut at = 0;
    while at < body.len() {
        let (class, width) = classify(body, at);
        state = match (state, class) {
            (At::Digits(start), Class::Digit) => At::Digits(start),
            (_, Class::Digit) => At::Digits(at),
            (At::Digits(start), Class::Space) => {
                guess.push(&body[start..at]);
                At::Space
            }
            (At::Space, Class::Space) => At::Space,
            (At::Digits(start), Class::Close) => {
                guess.push(&body[start..at]);
                return true;
            }
            _ => return false,
        };
        at += width;
    }
    false
}

impl Rules {
    /// Checked rules from a configuration.
    fn new(code_length: i64, num_numbers: i64, max_turns: i64) -> Result<Rules, Error> {
        between::<i64>("code_length", code_length, 1, MAX_CODE_LENGTH)?;
        if num_numbers < code_length {
            return Err(Error::bad_config(
                "num_numbers",
                "must be at least code_length",
            ));
        }
        Ok(Rules {
            code_length: code_length as usize,
            num_numbers: num_numbers as u64,
            max_turns: at_least("max_turns", max_turns, 1)?,
        })
    }
}

impl Mastermind {
    fn instructions(&self, example: &str) -> String {
        let Rules {
            code_length,
            num_numbers,
            max_turns,
        } = self.rules;
        let duplicates = if self.duplicates {
            "allowed"
        } else {
            "not allowed"
        };
        text!(
            "You are playing Mastermind.\n\
             You have to guess the secret ",
            code_length,
            " digit code within ",
            max_turns,
            " turns.\n\
             The code consists of digits from 1 to ",
            num_numbers,
            " (inclusive). Duplicate numbers are ",
            duplicates,
            ".\n\
             After you enter your guess, I will say mark your guess with black and white pegs, where a black peg indicates a correct digit in the correct position, while a white peg indicates a correct digit in the wrong position.\n\
             After thinking, format your final answer inside \\boxed{...}, for example, ",
            example,
            ".\n\
             As you play, the history of your guesses will be appended below. Use the information to complete the game before you run out of guesses.\n\
             Enter your first guess to start the game.\n"
        )
    }

    /// The reward for a guess with `black` pegs: the progress past the best guess so far.
    fn progress(&mut self, black: usize) -> f64 {
        if black <= self.best_black {
            return REWARD.internal_step;
        }
        let reward = (black - self.best_black) as f64 / self.rules.code_length as f64;
        self.best_black = black;
        reward
    }

    /// Scores a well-formed guess of `len` numbers, of which `head` holds the first ones (all of
    /// them whenever `len` is the code length) and `digits` their digit groups as written.
    fn judge(&mut self, head: &[PyInt], digits: &[&str], len: usize) -> Verdict {
        let turn = self.turn;
        let Rules {
            code_length,
            num_numbers,
            ..
        } = self.rules;
        let shown = list_repr(digits.iter().map(|d| strip_leading_zeros(d)), len);
        if len != code_length {
            let obs = text!(
                "At turn ",
                turn,
                ", you guessed ",
                shown,
                " which has ",
                len,
                " entries but the code has length ",
                code_length,
                "."
            );
            return Verdict::Play(obs, REWARD.invalid_action);
        }
        let values: Vec<u64> = head.iter().map(PyInt::value).collect();
        if values.iter().any(|&v| v < 1 || v > num_numbers) {
            let obs = text!(
                "At turn ",
                turn,
                ", you guessed ",
                shown,
                ", which has numbers outside the range 1 to ",
                num_numbers,
                "."
            );
            return Verdict::Play(obs, REWARD.invalid_action);
        }
        if !self.guessed.insert(values.clone()) {
            let obs = text!(
                "At turn ",
                turn,
                ", you guessed ",
                shown,
                ", which has been already guessed before."
            );
            return Verdict::Play(obs, REWARD.invalid_action);
        }
        let (black, white) = pegs(&self.code, &values);
        let reward = self.progress(black);
        if black == code_length {
            let obs = text!(
                "Congratulations! You guessed the correct code ",
                list_repr(&self.code, code_length),
                " in ",
                turn,
                " turns."
            );
            return Verdict::Won(obs, reward);
        }
        let obs = text!(
            "At turn ",
            turn,
            ", you guessed ",
            shown,
            ". This guess receives ",
            black,
            " black peg(s) and ",
            white,
            " white peg(s)."
        );
        Verdict::Play(obs, reward)
    }
}

impl Environment for Mastermind {
    fn specs() -> Vec<Spec> {
        let spec = |id: &str, what: &str, shape: Option<(i64, i64, i64)>| {
            let (length, numbers, turns) = match shape {
                Some((l, n, t)) => (Some(l), Some(n), Some(t)),
                None => (None, None, None),
            };
            Spec::new(
                id,
                what,
                json!({
                    "code_length": length,
                    "num_numbers": numbers,
                    "max_turns": turns,
                    "duplicate_numbers": false,
                }),
            )
        };
        vec![
            spec(
                "game:Mastermind-v0-hard",
                "Crack a 4-digit code of digits 1..8 within 30 turns",
                Some((4, 8, 30)),
            ),
            spec(
                "game:Mastermind-v0-random",
                "Crack a code; length, digits and turns drawn per episode",
                None,
            ),
            spec(
                "game:Mastermind-v0-easy",
                "Crack a 2-digit code of digits 1..6 within 10 turns",
                Some((2, 6, 10)),
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let fixed = match (
            config.opt_int("code_length")?,
            config.opt_int("num_numbers")?,
            config.opt_int("max_turns")?,
        ) {
            (Some(length), Some(numbers), Some(turns)) => Some(Rules::new(length, numbers, turns)?),
            _ => None,
        };
        Ok(Mastermind {
            fixed,
            duplicates: config.bool_or("duplicate_numbers", false)?,
            rules: fixed.unwrap_or(RANDOM_RULES[0]),
            code: Vec::new(),
            guessed: BTreeSet::new(),
            turn: 0,
            best_black: 0,
        })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        self.rules = fixed_or_choice(self.fixed, &RANDOM_RULES, rng);
        let Rules {
            code_length,
            num_numbers,
            ..
        } = self.rules;
        self.code = if self.duplicates {
            choices(rng, num_numbers, code_length)
        } else {
            sample(rng, num_numbers, code_length)
        };
        self.guessed.clear();
        self.turn = 0;
        self.best_black = 0;
        let example = self.sample_random_action(rng);
        Ok(Reset::new(self.instructions(&example)))
    }

    fn step(&mut self, action: &str, _rng: &mut Rng) -> Result<Step, Error> {
        self.turn += 1;
        let turn = self.turn;
        let max_turns = self.rules.max_turns;
        let guess = last_guess(action).and_then(|guess| Some((guess.numbers()?, guess)));
        let Some((head, guess)) = guess else {
            let obs = text!("At turn ", turn, ", you did not provide a valid guess.");
            let step = format_error_step(obs, turn, max_turns);
            return Ok(step.info("suffix", SUFFIX));
        };
        let step = match self.judge(&head, &guess.head, guess.len) {
            Verdict::Won(obs, reward) => Step::new(obs, reward).terminated(),
            Verdict::Play(_, reward) if turn >= max_turns => turn_limit_step(reward),
            Verdict::Play(obs, reward) => Step::new(obs, reward),
        };
        Ok(step.info("suffix", SUFFIX))
    }

    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        let digits = sample(rng, self.rules.num_numbers, self.rules.code_length);
        let mut action = String::with_capacity(8 + 2 * digits.len());
        action.push_str("\\boxed{");
        for (i, digit) in digits.iter().enumerate() {
            if i > 0 {
                action.push(' ');
            }
            digit.push_to(&mut action);
        }
        action.push('}');
        action
    }
}

export_env!(Mastermind);

#[cfg(test)]
mod tests;
