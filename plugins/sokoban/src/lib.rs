//! Sokoban: push every box onto a target, one `\boxed{up|down|left|right}` per turn.
//!
//! Rules and rewards follow GEM's `SokobanEnv`, so results stay comparable:
//! - no parsable `\boxed{direction}`: format error, −0.1, the episode ends;
//! - a move into a wall or an immovable box: 0.0, the episode goes on;
//! - a walk or a push: 0.0; the push that puts the last box on a target earns 1.0 and ends it;
//! - at the turn limit the episode ends (truncated) with the share of boxes on targets.
//!
//! Rooms come from GEM's generator (random-walk floor, backward play from the solved state),
//! so every room is solvable; see [`room::Layout::try_room`] for where the draws differ.

mod room;
mod search;

use geode_games::direction::{Direction, last_boxed_direction};
use geode_games::game::{fixed_or_choice, format_error_step, turn_limit_step};
use geode_games::prelude::*;
use room::{Layout, MAX_TRIES, Moved, Room};
use search::Search;

/// Room layout and turn limit of an episode.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Settings {
    layout: Layout,
    /// GEM's `max_turns`.
    max_turns: i64,
}

/// The settings the `-random` id draws from at every reset, as GEM lists them.
const RANDOM_SETTINGS: [Settings; 2] = [
    Settings {
        layout: Layout {
            rows: 6,
            cols: 6,
            boxes: 2,
        },
        max_turns: 20,
    },
    Settings {
        layout: Layout {
            rows: 8,
            cols: 8,
            boxes: 5,
        },
        max_turns: 50,
    },
];

/// One game of Sokoban.
#[derive(Serialize, Deserialize)]
pub struct Sokoban {
    /// The configured settings; `None` means drawn at every reset (the `-random` id).
    fixed: Option<Settings>,
    /// The settings of the current episode.
    settings: Settings,
    /// The room in play (`None` before the first reset).
    room: Option<Room>,
    /// Turns taken in this episode.
    turn: i64,
    /// Scratch memory of the room generator, reused across resets.
    #[serde(skip)]
    search: Search,
}

impl Sokoban {
    /// GEM's rules text, with `example` as the sample move.
    fn instructions(&self, example: Direction) -> String {
        format!(
            "You are solving the Sokoban puzzle. You are the player and you need to push all boxes to targets.\n\
             When you are right next to a box, you can push it by moving in the same direction.\n\
             You cannot push a box through a wall or another box, and you cannot pull a box.\n\
             you have to complete the puzzle within {} turns.\n\
             On the board, objects are represented as:\n\
             - The player (you) appears as 'P'\n\
             - Walls are represented with '#'\n\
             - Boxes are marked as 'X'\n\
             - Empty goals are shown with 'O'\n\
             - Boxes on goals are visualized with '√'\n\
             - Empty floor is shown as '_'\n\n\
             To submit your move, type the command in \\boxed{{}}.\n\
             For example: {} to move {}.\n\
             Use logic and deduction to push all boxes onto the target positions!",
            self.settings.max_turns,
            example.boxed(),
            example.name()
        )
    }

    /// The `suffix` info: the board and the prompt for the next move.
    fn suffix(&self) -> String {
        let cells = self.room.as_ref().map_or(0, |r| r.state.len());
        let mut out = String::with_capacity(64 + 4 * cells);
        out.push_str("Here is the current board layout:\n");
        if let Some(room) = &self.room {
            room.render(&mut out);
        }
        out.push_str("\nEnter your move.");
        out
    }

    /// `step` with the `suffix` info added.
    fn with_suffix(&self, step: Step) -> Step {
        step.info("suffix", self.suffix())
    }
}

/// Reads `dim_room` (`[rows, cols]`); `None` when absent or null.
fn dim_room(config: &Config) -> Result<Option<(usize, usize)>, Error> {
    let value = match config.get("dim_room") {
        None | Some(serde_json::Value::Null) => return Ok(None),
        Some(value) => value,
    };
    let dims: Option<Vec<usize>> = value
        .as_array()
        .and_then(|a| a.iter().map(|v| v.as_u64().map(|n| n as usize)).collect());
    match dims.as_deref() {
        Some(&[rows, cols]) => Ok(Some((rows, cols))),
        _ => Err(Error::bad_config("dim_room", "expected [rows, cols]")),
    }
}

impl Environment for Sokoban {
    fn specs() -> Vec<Spec> {
        vec![
            Spec::new(
                "game:Sokoban-v0-easy",
                "Push 2 boxes onto targets in a 6x6 room within 20 turns",
                json!({ "dim_room": [6, 6], "num_boxes": 2, "max_turns": 20 }),
            ),
            Spec::new(
                "game:Sokoban-v0-hard",
                "Push 4 boxes onto targets in an 8x8 room within 50 turns",
                json!({ "dim_room": [8, 8], "num_boxes": 4, "max_turns": 50 }),
            ),
            Spec::new(
                "game:Sokoban-v0-random",
                "Sokoban; easy (6x6, 2 boxes) or 8x8 with 5 boxes drawn per episode",
                // GEM registers `room_size` here and ignores it.
                json!({ "dim_room": [6, 6], "room_size": null, "num_boxes": null, "max_turns": null }),
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let dims = dim_room(&config)?;
        let boxes = config.opt_int("num_boxes")?;
        let max_turns = config.opt_int("max_turns")?;
        let fixed = match (dims, boxes, max_turns) {
            (Some((rows, cols)), Some(boxes), Some(max_turns)) => {
                let layout = Layout {
                    rows,
                    cols,
                    boxes: usize::try_from(boxes).unwrap_or(0),
                };
                layout
                    .check()
                    .map_err(|(key, why)| Error::bad_config(key, why))?;
                Some(Settings { layout, max_turns })
            }
            _ => None,
        };
        Ok(Sokoban {
            fixed,
            settings: fixed.unwrap_or(RANDOM_SETTINGS[0]),
            room: None,
            turn: 0,
            search: Search::default(),
        })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        self.settings = fixed_or_choice(self.fixed, &RANDOM_SETTINGS, rng);
        // GEM generates rooms from generators of its own and leaves the global one to the draws
        // below; the room generator here is seeded from a copy of the episode's, so a seed
        // still replays while the draws below stay GEM's.
        let mut room_rng = Rng::seeded(rng.clone().getrandbits(64));
        let layout = self.settings.layout;
        let room = layout
            .generate(&mut room_rng, &mut self.search)
            .ok_or_else(|| {
                Error::Internal(format!(
                    "no {}x{} room with {} boxes after {MAX_TRIES} tries",
                    layout.rows, layout.cols, layout.boxes
                ))
            })?;
        self.room = Some(room);
        self.turn = 0;
        let example = *rng.choice(&Direction::ALL).expect("four directions");
        Ok(Reset::new(self.instructions(example)).info("suffix", self.suffix()))
    }

    fn step(&mut self, action: &str, _rng: &mut Rng) -> Result<Step, Error> {
        let Some(room) = self.room.as_mut() else {
            return Err(Error::InvalidState("step called before reset".into()));
        };
        self.turn += 1;
        let turn = self.turn;
        let max_turns = self.settings.max_turns;
        // GEM crashes on a case-folded word that names no direction; here it is a format error.
        let Some(Ok(dir)) = last_boxed_direction(action) else {
            let obs = format!("At turn {turn}, your submitted action is not valid.");
            return Ok(self.with_suffix(format_error_step(obs, turn, max_turns)));
        };
        let name = dir.name();
        let (obs, reward) = match room.move_player(dir) {
            Moved::Blocked => (
                format!(
                    "At turn {turn}, you cannot move {name} - you would collide with wall or other boxes!"
                ),
                REWARD.invalid_action,
            ),
            moved => {
                if room.boxes_on_targets() == self.settings.layout.boxes {
                    let obs = "Congratulations! You have solved the Sokoban puzzle!";
                    return Ok(self.with_suffix(Step::new(obs, REWARD.success).terminated()));
                }
                let pushed = if moved == Moved::Pushed {
                    "pushed a box while you "
                } else {
                    ""
                };
                (
                    format!("At turn {turn}, you {pushed}moved {name}."),
                    REWARD.internal_step,
                )
            }
        };
        if turn >= max_turns {
            let share = room.boxes_on_targets() as f64 / self.settings.layout.boxes as f64;
            return Ok(self.with_suffix(turn_limit_step(REWARD.success * share)));
        }
        Ok(self.with_suffix(Step::new(obs, reward)))
    }

    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        let dir = rng.choice(&Direction::ALL).expect("four directions");
        dir.boxed().to_owned()
    }
}

export_env!(Sokoban);

#[cfg(test)]
mod tests;
