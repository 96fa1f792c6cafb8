//! Game2048: slide and merge tiles to reach a target tile, one `\boxed{up|down|left|right}` per turn.
//!
//! Rules and rewards follow GEM's `Game2048Env`, so results stay comparable:
//! - no parsable `\boxed{direction}`: format error, −0.1, the episode ends;
//! - a move that changes nothing: 0.0, the episode goes on;
//! - a move that raises the largest tile (capped at the target) earns the log2 progress from the
//!   starting tile to the target, so an episode earns at most 1.0 in all;
//! - reaching the target, or a board with no move left, ends the episode;
//! - at the turn limit the episode ends (truncated) with the step's own reward.

use geode_games::direction::{Direction, last_boxed_direction};
use geode_games::prelude::*;
use std::fmt::Write;

/// Largest board side accepted (GEM has no limit; lines are sorted on the stack).
const MAX_SIZE: usize = 16;

/// Target tile and turn limit of an episode.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Rules {
    target_tile: u64,
    max_turns: i64,
}

/// The settings the `-random` id draws from at every reset, as GEM lists them.
const RANDOM_RULES: [Rules; 3] = [
    Rules {
        target_tile: 16,
        max_turns: 20,
    },
    Rules {
        target_tile: 32,
        max_turns: 30,
    },
    Rules {
        target_tile: 64,
        max_turns: 50,
    },
];

/// One game of 2048.
#[derive(Serialize, Deserialize)]
pub struct Game2048 {
    /// The configured rules; `None` means drawn at every reset (the `-random` id).
    fixed: Option<Rules>,
    rules: Rules,
    size: usize,
    /// Tiles row by row, 0 for an empty cell.
    board: Vec<u64>,
    turn: i64,
    /// The largest tile reached so far, capped at the target (rewards are paid on its growth).
    best_tile: u64,
    start_tile: u64,
}

/// The cell holding the `i`-th tile of line `k` when sliding towards `dir`.
fn line_cell(size: usize, dir: Direction, k: usize, i: usize) -> usize {
    match dir {
        Direction::Left => k * size + i,
        Direction::Right => k * size + size - 1 - i,
        Direction::Up => i * size + k,
        Direction::Down => (size - 1 - i) * size + k,
    }
}

/// Slides a line towards its start, merging equal neighbours once each, as 2048 does.
fn merge_line(line: &mut [u64]) {
    let mut len = 0;
    let mut mergeable = false;
    for i in 0..line.len() {
        let tile = line[i];
        if tile == 0 {
            continue;
        }
        if mergeable && line[len - 1] == tile {
            line[len - 1] *= 2;
            mergeable = false;
        } else {
            line[len] = tile;
            len += 1;
            mergeable = true;
        }
    }
    line[len..].fill(0);
}

impl Game2048 {
    fn instructions(&self, example: &str) -> String {
        let Rules {
            target_tile,
            max_turns,
        } = self.rules;
        text!(
            "You are playing 2048.\n\
             Your goal is to reach the ",
            target_tile,
            " tile by sliding and merging tiles.\n\
             You have ",
            max_turns,
            " turns maximum.\n\n\
             Rules:\n\
             - When two tiles with the same number touch, they merge into one tile with double the value.\n\
             - After each move, a new tile (2 or 4) appears in a random empty spot.\n\
             - You can move tiles in four directions: 'up', 'down', 'left', 'right'.\n\n\
             To submit your move, type the direction in \\boxed{...}.\n\
             For example: ",
            example,
            "\n\n"
        )
    }

    /// The `suffix` info: the board and the prompt for the next move.
    fn suffix(&self) -> String {
        let mut out = String::with_capacity(32 + 5 * self.board.len());
        out.push_str("Current board:\n");
        for (r, row) in self.board.chunks(self.size).enumerate() {
            if r > 0 {
                out.push('\n');
            }
            for (c, &tile) in row.iter().enumerate() {
                if c > 0 {
                    out.push(' ');
                }
                match tile {
                    0 => out.push_str("   ."),
                    _ => {
                        let _ = write!(out, "{tile:4}");
                    }
                }
            }
        }
        out.push_str("\nEnter your move.");
        out
    }

    fn step_result(&self, observation: String, reward: f64) -> Step {
        Step::new(observation, reward).info("suffix", self.suffix())
    }

    /// Whether sliding towards `dir` would change the board.
    fn can_slide(&self, dir: Direction) -> bool {
        (0..self.size).any(|k| {
            let mut gap = false;
            let mut previous = 0;
            for i in 0..self.size {
                let tile = self.board[line_cell(self.size, dir, k, i)];
                if tile == 0 {
                    gap = true;
                } else if gap || tile == previous {
                    return true;
                } else {
                    previous = tile;
                }
            }
            false
        })
    }

    /// Slides every line towards `dir`.
    fn slide(&mut self, dir: Direction) {
        let mut line = [0u64; MAX_SIZE];
        let line = &mut line[..self.size];
        for k in 0..self.size {
            for (i, tile) in line.iter_mut().enumerate() {
                *tile = self.board[line_cell(self.size, dir, k, i)];
            }
            merge_line(line);
            for (i, &tile) in line.iter().enumerate() {
                self.board[line_cell(self.size, dir, k, i)] = tile;
            }
        }
    }

    /// Puts a 2 (90%) or a 4 on a random empty cell, drawing like GEM (`choice`, then `random`).
    fn add_random_tile(&mut self, rng: &mut Rng) {
        let empty = self.board.iter().filter(|&&t| t == 0).count();
        if empty == 0 {
            return;
        }
        let k = rng.below(empty as u64) as usize;
        if let Some(cell) = self.board.iter_mut().filter(|t| **t == 0).nth(k) {
            *cell = if rng.random() < 0.9 { 2 } else { 4 };
        }
    }

    fn largest_tile(&self) -> u64 {
        self.board.iter().copied().max().unwrap_or(0)
    }

    /// The reward for raising the largest tile (capped at the target), on GEM's log2 scale.
    fn progress_reward(&mut self) -> f64 {
        let current = self.largest_tile().min(self.rules.target_tile);
        if current <= self.best_tile {
            return 0.0;
        }
        let log2 = |x: u64| (x as f64).log2();
        let reward = (log2(current) - log2(self.best_tile))
            / (log2(self.rules.target_tile) - log2(self.start_tile));
        self.best_tile = current;
        reward
    }
}

impl Environment for Game2048 {
    fn specs() -> Vec<Spec> {
        let spec = |id: &str, what: &str, target: Option<u64>, turns: Option<i64>| {
            Spec::new(
                id,
                what,
                json!({ "target_tile": target, "max_turns": turns, "board_size": 4 }),
            )
        };
        vec![
            spec(
                "game:Game2048-v0-easy",
                "Reach the 64 tile within 50 turns",
                Some(64),
                Some(50),
            ),
            spec(
                "game:Game2048-v0-hard",
                "Reach the 512 tile within 50 turns",
                Some(512),
                Some(50),
            ),
            spec(
                "game:Game2048-v0-extreme-hard",
                "Reach the 2048 tile within 100 turns",
                Some(2048),
                Some(100),
            ),
            spec(
                "game:Game2048-v0-random",
                "2048; target 16, 32 or 64 drawn per episode",
                None,
                None,
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let size = config.opt_int("board_size")?.unwrap_or(4);
        if !(1..=MAX_SIZE as i64).contains(&size) {
            return Err(Error::bad_config(
                "board_size",
                format!("must be between 1 and {MAX_SIZE}"),
            ));
        }
        let target = config.opt_int("target_tile")?;
        let max_turns = config.opt_int("max_turns")?;
        let fixed = match (target, max_turns) {
            (Some(target), Some(max_turns)) => {
                if target < 1 {
                    return Err(Error::bad_config("target_tile", "must be at least 1"));
                }
                Some(Rules {
                    target_tile: target as u64,
                    max_turns,
                })
            }
            _ => None,
        };
        let size = size as usize;
        Ok(Game2048 {
            fixed,
            rules: fixed.unwrap_or(RANDOM_RULES[0]),
            size,
            board: vec![0; size * size],
            turn: 0,
            best_tile: 0,
            start_tile: 0,
        })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        self.rules = match self.fixed {
            Some(rules) => rules,
            None => *rng.choice(&RANDOM_RULES).expect("three settings"),
        };
        self.board.fill(0);
        self.turn = 0;
        self.add_random_tile(rng);
        self.add_random_tile(rng);
        self.best_tile = self.largest_tile();
        self.start_tile = self.best_tile;
        let example = self.sample_random_action(rng);
        Ok(Reset::new(self.instructions(&example)).info("suffix", self.suffix()))
    }

    fn step(&mut self, action: &str, rng: &mut Rng) -> Result<Step, Error> {
        self.turn += 1;
        let turn = self.turn;
        let max_turns = self.rules.max_turns;
        let Some(parsed) = last_boxed_direction(action) else {
            let obs = text!(
                "At turn ",
                turn,
                ", you did not provide a valid move. Please use \\boxed{direction} format."
            );
            let step = self.step_result(obs, REWARD.format_error).terminated();
            return Ok(step.truncated_if(turn == max_turns));
        };
        let (obs, reward) = match parsed {
            Ok(dir) if self.can_slide(dir) => {
                self.slide(dir);
                let reward = self.progress_reward();
                self.add_random_tile(rng);
                if self.best_tile >= self.rules.target_tile {
                    let obs = text!(
                        "Congratulations! You reached the ",
                        self.rules.target_tile,
                        " tile in ",
                        turn,
                        " turns!"
                    );
                    return Ok(self.step_result(obs, reward).terminated());
                }
                if !Direction::ALL.into_iter().any(|d| self.can_slide(d)) {
                    let obs = "Game over! No more moves possible.".to_owned();
                    return Ok(self.step_result(obs, reward).terminated());
                }
                (text!("At turn ", turn, ", you moved ", dir.name()), reward)
            }
            parsed => {
                // GEM echoes the move it read, even a case-folded word that names no direction.
                let name = match &parsed {
                    Ok(dir) => dir.name(),
                    Err(word) => word.as_str(),
                };
                let obs = text!(
                    "At turn ",
                    turn,
                    ", you chose move '",
                    name,
                    "' which doesn't change the board state. Try a different direction."
                );
                (obs, REWARD.invalid_action)
            }
        };
        if turn >= max_turns {
            let obs = text!(
                "You have reached the maximum number of turns (",
                max_turns,
                ")."
            );
            return Ok(self
                .step_result(obs, reward)
                .terminated()
                .truncated_if(true));
        }
        Ok(self.step_result(obs, reward))
    }

    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        let dir = rng.choice(&Direction::ALL).expect("four directions");
        dir.boxed().to_owned()
    }
}

export_env!(Game2048);

#[cfg(test)]
mod tests;
