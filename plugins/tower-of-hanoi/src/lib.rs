//! TowerofHanoi: move a stack of disks from tower A to tower C, one top disk at a time and never
//! onto a smaller disk, answering with `\boxed{A C}` (source, then target).
//!
//! Rules and rewards follow GEM's game of the same name, so results stay comparable:
//! - no parsable `\boxed{X Y}` with towers A, B or C: format error, −0.1, the episode ends;
//! - moving from an empty tower or onto a smaller disk: 0.0, the episode goes on;
//! - the whole stack on tower C: 1.0, the episode ends;
//! - at the turn limit the episode ends (terminated and truncated) with the share of disks on C.

use geode_games::game::{fixed_or_choice, format_error_step, turn_limit_step};
use geode_games::parse::last_boxed_match;
use geode_games::prelude::*;
use geode_games::pycompat::is_space;
use geode_sdk::config::{at_least, between};
use geode_sdk::text::Piece;

/// Disk count and turn limit of one episode.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Size {
    disks: u32,
    max_turns: i64,
}

/// The sizes the `-random` id picks from at every reset.
const RANDOM_SIZES: [Size; 3] = [
    Size {
        disks: 3,
        max_turns: 10,
    },
    Size {
        disks: 4,
        max_turns: 20,
    },
    Size {
        disks: 5,
        max_turns: 35,
    },
];

/// Most disks a configuration may ask for.
const MAX_DISKS: i64 = 100;

/// The towers' names, in order.
const NAMES: [char; 3] = ['A', 'B', 'C'];

/// One game of Tower of Hanoi.
#[derive(Serialize, Deserialize)]
pub struct TowerOfHanoi {
    /// Size as configured; `None` means drawn at every reset (the `-random` id).
    fixed: Option<Size>,
    size: Size,
    /// Each tower's disks from bottom to top; disk `n` has size `n`.
    towers: [Vec<u32>; 3],
    turn: i64,
}

/// The index of the tower named `c` (either case).
fn tower(c: char) -> Option<usize> {
    NAMES
        .iter()
        .position(|&name| name == c.to_ascii_uppercase())
}

/// Reads `X Y}` at the start of `body`, as GEM's `([ABCabc])\s*,?\s*([ABCabc])}` does.
fn move_parts(body: &str) -> Option<(usize, usize)> {
    let mut chars = body.chars();
    let from = tower(chars.next()?)?;
    let rest = chars.as_str().trim_start_matches(is_space);
    let rest = rest.strip_prefix(',').unwrap_or(rest);
    let mut chars = rest.trim_start_matches(is_space).chars();
    let to = tower(chars.next()?)?;
    chars.as_str().starts_with('}').then_some((from, to))
}

/// The (source, target) towers of the last `\boxed{X Y}` in `action`.
fn last_move(action: &str) -> Option<(usize, usize)> {
    last_boxed_match(action, move_parts)
}

impl TowerOfHanoi {
    fn instructions(&self) -> String {
        text!(
            "You are playing Tower of Hanoi with ",
            self.size.disks,
            " disks.\n\
             You have to move the disks from tower A to tower C.\n\
             To move a disk, type the source tower and the target tower (e.g., '\\boxed{A C}').\n\
             Note that you can only move the top disk of a tower, and that a bigger disk cannot be placed on a smaller disk.\n\
             As you play, the history of your moves will be displayed.\n"
        )
    }

    /// The towers as Python prints them, one per line.
    fn render(&self) -> String {
        let mut out = String::with_capacity(24 + 4 * self.size.disks as usize);
        for (&name, disks) in NAMES.iter().zip(&self.towers) {
            out.push(name);
            out.push_str(": [");
            for (i, disk) in disks.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                disk.push_to(&mut out);
            }
            out.push_str("]\n");
        }
        out
    }

    fn suffix(&self) -> String {
        text!(
            "Here is the current state of the tower of hanoi:\n",
            self.render(),
            "\nEnter your move."
        )
    }

    /// The disk that moving from `from` onto `to` would carry, or why the rules forbid it.
    fn check(&self, from: usize, to: usize) -> Result<u32, String> {
        let (src, dst) = (NAMES[from], NAMES[to]);
        let Some(&disk) = self.towers[from].last() else {
            return Err(text!(
                "you tried to move from tower ",
                src,
                ", which is empty."
            ));
        };
        match self.towers[to].last() {
            Some(&top) if disk > top => Err(text!(
                "you tried to move from tower ",
                src,
                " to tower ",
                dst,
                ", but the top disk on tower ",
                src,
                " is larger than the top disk on tower ",
                dst,
                '.'
            )),
            _ => Ok(disk),
        }
    }

    fn solved(&self) -> bool {
        self.towers[2]
            .iter()
            .copied()
            .eq((1..=self.size.disks).rev())
    }
}

impl Environment for TowerOfHanoi {
    fn specs() -> Vec<Spec> {
        let spec = |id: &str, what: &str, disks: Option<i64>, turns: Option<i64>| {
            Spec::new(id, what, json!({ "num_disks": disks, "max_turns": turns }))
        };
        vec![
            spec(
                "game:TowerofHanoi-v0-easy",
                "Move 3 disks from tower A to C within 10 turns",
                Some(3),
                Some(10),
            ),
            spec(
                "game:TowerofHanoi-v0-hard",
                "Move 5 disks from tower A to C within 35 turns",
                Some(5),
                Some(35),
            ),
            spec(
                "game:TowerofHanoi-v0-random",
                "Move a stack from tower A to C; disks and turns drawn per episode",
                None,
                None,
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let fixed = match (config.opt_int("num_disks")?, config.opt_int("max_turns")?) {
            (Some(disks), Some(max_turns)) => Some(Size {
                disks: between("num_disks", disks, 1, MAX_DISKS)?,
                max_turns: at_least("max_turns", max_turns, 1)?,
            }),
            _ => None,
        };
        Ok(TowerOfHanoi {
            fixed,
            size: fixed.unwrap_or(RANDOM_SIZES[0]),
            towers: Default::default(),
            turn: 0,
        })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        self.size = fixed_or_choice(self.fixed, &RANDOM_SIZES, rng);
        self.towers = [
            (1..=self.size.disks).rev().collect(),
            Vec::new(),
            Vec::new(),
        ];
        self.turn = 0;
        Ok(Reset::new(self.instructions()).info("suffix", self.suffix()))
    }

    fn step(&mut self, action: &str, _rng: &mut Rng) -> Result<Step, Error> {
        self.turn += 1;
        let turn = self.turn;
        let max_turns = self.size.max_turns;
        let Some((from, to)) = last_move(action) else {
            let step = format_error_step("You did not provide a valid action.", turn, max_turns);
            return Ok(step.info("suffix", self.suffix()));
        };
        let (obs, reward) = match self.check(from, to) {
            Err(why) => (text!("At turn ", turn, ", ", why), REWARD.invalid_action),
            Ok(disk) => {
                self.towers[from].pop();
                self.towers[to].push(disk);
                if self.solved() {
                    let step = Step::new(
                        "Congratulations! You solved the Tower of Hanoi Puzzle",
                        REWARD.success,
                    )
                    .terminated();
                    return Ok(step.info("suffix", self.suffix()));
                }
                let (src, dst) = (NAMES[from], NAMES[to]);
                let obs = text!(
                    "At turn ",
                    turn,
                    ", you moved disk ",
                    disk,
                    " from tower ",
                    src,
                    " to tower ",
                    dst,
                    '.'
                );
                (obs, REWARD.internal_step)
            }
        };
        let step = if turn >= max_turns {
            let on_target = self.towers[2].len() as f64 / self.size.disks as f64;
            turn_limit_step(on_target)
        } else {
            Step::new(obs, reward)
        };
        Ok(step.info("suffix", self.suffix()))
    }

    /// A legal move between two different towers (GEM's game defines no sampler).
    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        let legal: Vec<(usize, usize)> = (0..3)
            .flat_map(|from| (0..3).map(move |to| (from, to)))
            .filter(|&(from, to)| from != to && self.check(from, to).is_ok())
            .collect();
        let (from, to) = rng.choice(&legal).copied().unwrap_or((0, 2));
        text!("\\boxed{", NAMES[from], ' ', NAMES[to], '}')
    }
}

export_env!(TowerOfHanoi);

#[cfg(test)]
mod tests;
