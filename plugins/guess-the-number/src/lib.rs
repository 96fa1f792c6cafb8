//! GuessTheNumber: find a hidden integer from "higher"/"lower" hints, answering with `\boxed{N}`.
//!
//! Rules and rewards follow GEM's game of the same name, so results stay comparable:
//! - no parsable `\boxed{N}` (or N = 0): format error, −0.1, the episode ends;
//! - a guess out of range or repeated: 0.0, the episode goes on;
//! - the right number: 1.0, the episode ends;
//! - at the turn limit: the episode ends with 1 − distance/range (0.0 when out of range).

use geode_games::prelude::*;

/// One game of GuessTheNumber.
#[derive(Serialize, Deserialize)]
struct GuessTheNumber {
    /// Range and turns as configured; `None` means drawn at every reset (the `-random` id).
    fixed: Option<Bounds>,
    bounds: Bounds,
    target: i64,
    guesses: Vec<i64>,
    turn: i64,
}

#[derive(Serialize, Deserialize, Clone, Copy)]
struct Bounds {
    min: i64,
    max: i64,
    max_turns: i64,
}

const SUFFIX: &str = "Enter your next guess.";

impl Bounds {
    /// A range and turn limit drawn the way GEM's random variant draws them.
    fn random(rng: &mut Rng) -> Bounds {
        let min = rng.randint(1, 10);
        let max = rng.randint(min + 5, min + 50);
        let max_turns = ((max - min) as f64).sqrt().ceil() as i64 + 1;
        Bounds {
            min,
            max,
            max_turns,
        }
    }
}

impl GuessTheNumber {
    fn instructions(&self, example: &str) -> String {
        let Bounds {
            min,
            max,
            max_turns,
        } = self.bounds;
        text!(
            "You are playing Guess The Number.\n\
             You have to guess the number between ",
            min,
            " and ",
            max,
            " (inclusive) within ",
            max_turns,
            " turns.\n\
             As you enter your guess, the game will provide you with hints such as the target number is 'higher' or 'lower'.\n\
             You may provide your response in any manner. Only the number that is wrapped inside \\boxed{} will be considered as your guess, for example, ",
            example,
            ".\n\
             As you play, the history of your guesses will be appended below. Use the information to complete the game before you run out of guesses.\n\
             Enter your first guess to start the game.\n"
        )
    }

    fn out_of_range(&self, guess: i64) -> bool {
        guess < self.bounds.min || guess > self.bounds.max
    }
}

impl Environment for GuessTheNumber {
    fn specs() -> Vec<Spec> {
        let spec =
            |id: &str, what: &str, min: Option<i64>, max: Option<i64>, turns: Option<i64>| {
                Spec::new(
                    id,
                    what,
                    json!({ "min_number": min, "max_number": max, "max_turns": turns }),
                )
            };
        vec![
            spec(
                "game:GuessTheNumber-v0-hard",
                "Guess a number in 1..50 within 7 turns",
                Some(1),
                Some(50),
                Some(7),
            ),
            spec(
                "game:GuessTheNumber-v0-easy",
                "Guess a number in 1..10 within 4 turns",
                Some(1),
                Some(10),
                Some(4),
            ),
            spec(
                "game:GuessTheNumber-v0-random",
                "Guess a number; range and turns drawn per episode",
                None,
                None,
                None,
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let min = config.opt_int("min_number")?;
        let max = config.opt_int("max_number")?;
        let fixed = match (min, max) {
            (Some(min), Some(max)) => {
                if min > max {
                    return Err(Error::bad_config(
                        "max_number",
                        format!("{max} is below min_number {min}"),
                    ));
                }
                let max_turns = config.opt_int("max_turns")?.unwrap_or(20);
                if max_turns < 1 {
                    return Err(Error::bad_config("max_turns", "must be at least 1"));
                }
                Some(Bounds {
                    min,
                    max,
                    max_turns,
                })
            }
            _ => None,
        };
        let bounds = fixed.unwrap_or(Bounds {
            min: 1,
            max: 20,
            max_turns: 20,
        });
        Ok(GuessTheNumber {
            fixed,
            bounds,
            target: bounds.min,
            guesses: Vec::new(),
            turn: 0,
        })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        self.bounds = match self.fixed {
            Some(bounds) => bounds,
            None => Bounds::random(rng),
        };
        self.target = rng.randint(self.bounds.min, self.bounds.max);
        self.guesses.clear();
        self.turn = 0;
        let example = self.sample_random_action(rng);
        Ok(Reset::new(self.instructions(&example)).info("suffix", SUFFIX))
    }

    fn step(&mut self, action: &str, _rng: &mut Rng) -> Result<Step, Error> {
        self.turn += 1;
        let turn = self.turn;
        let at_limit = turn >= self.bounds.max_turns;
        let Some(guess) = last_boxed_int(action).filter(|&g| g != 0) else {
            let obs = text!("At turn ", turn, ", you did not provide a valid guess.");
            let step = Step::new(obs, REWARD.format_error)
                .terminated()
                .truncated_if(turn == self.bounds.max_turns);
            return Ok(step.info("suffix", SUFFIX));
        };
        let (obs, reward) = if self.out_of_range(guess) {
            // Echo the number as written: a guess too large for i64 is not i64::MAX.
            let written = last_boxed_int_text(action).unwrap_or_default();
            (
                text!(
                    "At turn ",
                    turn,
                    ", you guessed ",
                    written,
                    ", which is outside the range specified."
                ),
                REWARD.invalid_action,
            )
        } else if self.guesses.contains(&guess) {
            (
                text!(
                    "At turn ",
                    turn,
                    ", you guessed ",
                    guess,
                    ", which has been already guessed before."
                ),
                REWARD.invalid_action,
            )
        } else if guess == self.target {
            let obs = text!(
                "Congratulations! You guessed the correct number ",
                self.target,
                " in ",
                turn,
                " turns."
            );
            return Ok(Step::new(obs, REWARD.success)
                .terminated()
                .info("suffix", SUFFIX));
        } else {
            self.guesses.push(guess);
            let hint = if guess > self.target {
                "lower"
            } else {
                "higher"
            };
            (
                text!(
                    "At turn ",
                    turn,
                    ", you guessed ",
                    guess,
                    ", and the target number is ",
                    hint,
                    " than ",
                    guess,
                    "."
                ),
                REWARD.internal_step,
            )
        };
        if !at_limit {
            return Ok(Step::new(obs, reward).info("suffix", SUFFIX));
        }
        let reward = if self.out_of_range(guess) {
            REWARD.invalid_action
        } else {
            let span = (self.bounds.max - self.bounds.min) as f64;
            if span == 0.0 {
                REWARD.success
            } else {
                1.0 - (guess - self.target).abs() as f64 / span
            }
        };
        let step = Step::new("You have reached the maximum number of turns.", reward)
            .terminated()
            .truncated_if(true);
        Ok(step.info("suffix", SUFFIX))
    }

    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        text!(
            "\\boxed{",
            rng.randint(self.bounds.min, self.bounds.max),
            "}"
        )
    }
}

export_env!(GuessTheNumber);
