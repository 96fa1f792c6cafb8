//! Sokoban rooms: the grid, the player's moves, and GEM's room generator (a random walk carves
//! the floor, boxes start on their targets, and playing backwards pulls them away).

use crate::search::{KEY_BITS, MAX_BOXES, Search};
use geode_games::direction::Direction;
use geode_sdk::Rng;
use serde::{Deserialize, Serialize};

/// What a cell holds, numbered with GEM's cell codes (so rooms compare with GEM's arrays).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[repr(u8)]
pub enum Cell {
    Wall = 0,
    Floor = 1,
    Target = 2,
    BoxOnTarget = 3,
    Box = 4,
    Player = 5,
}

impl Cell {
    /// The character GEM draws for the cell.
    fn symbol(self) -> char {
        match self {
            Cell::Wall => '#',
            Cell::Floor => '_',
            Cell::Target => 'O',
            Cell::BoxOnTarget => '√',
            Cell::Box => 'X',
            Cell::Player => 'P',
        }
    }

    /// Free for the player or a box to enter.
    pub fn is_free(self) -> bool {
        matches!(self, Cell::Floor | Cell::Target)
    }

    /// Holds a box.
    pub fn is_box(self) -> bool {
        matches!(self, Cell::Box | Cell::BoxOnTarget)
    }
}

/// What a move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moved {
    /// A wall, the edge, or a box that cannot go further is in the way.
    Blocked,
    /// The player stepped onto a free cell.
    Walked,
    /// The player pushed a box one cell.
    Pushed,
}

/// A room in play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Room {
    /// Height and width, border walls included.
    pub rows: usize,
    pub cols: usize,
    /// The parts that never move: walls, floor and targets.
    pub fixed: Vec<Cell>,
    /// Everything, boxes and player included.
    pub state: Vec<Cell>,
    /// The player's cell (row-major index).
    pub player: usize,
}

/// The cell next to `cell` towards `dir` on a `rows`×`cols` grid, if there is one.
pub fn neighbor(rows: usize, cols: usize, cell: usize, dir: Direction) -> Option<usize> {
    let (r, c) = (cell / cols, cell % cols);
    let (dr, dc) = dir.delta();
    let r = r.checked_add_signed(dr).filter(|&r| r < rows)?;
    let c = c.checked_add_signed(dc).filter(|&c| c < cols)?;
    Some(r * cols + c)
}

impl Room {
    /// The neighbouring cell towards `dir`, if inside the grid.
    fn next(&self, cell: usize, dir: Direction) -> Option<usize> {
        neighbor(self.rows, self.cols, cell, dir)
    }

    /// Moves the player towards `dir`, pushing a box if one is in the way and can move.
    pub fn move_player(&mut self, dir: Direction) -> Moved {
        let Some(next) = self.next(self.player, dir) else {
            return Moved::Blocked;
        };
        let moved = match self.state[next] {
            cell if cell.is_free() => Moved::Walked,
            cell if cell.is_box() => match self.next(next, dir) {
                Some(beyond) if self.state[beyond].is_free() => {
                    self.state[beyond] = match self.fixed[beyond] {
                        Cell::Target => Cell::BoxOnTarget,
                        _ => Cell::Box,
                    };
                    Moved::Pushed
                }
                _ => return Moved::Blocked,
            },
            _ => return Moved::Blocked,
        };
        self.state[self.player] = self.fixed[self.player];
        self.state[next] = Cell::Player;
        self.player = next;
        moved
    }

    /// How many boxes sit on targets.
    pub fn boxes_on_targets(&self) -> usize {
        self.state
            .iter()
            .filter(|&&c| c == Cell::BoxOnTarget)
            .count()
    }

    /// Draws the room as GEM does: symbols separated by spaces, every row ending with a newline.
    pub fn render(&self, out: &mut String) {
        for row in self.state.chunks(self.cols) {
            for (i, cell) in row.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push(cell.symbol());
            }
            out.push('\n');
        }
    }

    /// GEM's dead-position test for a box at `cell`: not a target, and walls (or the edge) on
    /// three sides, or on exactly two sides that GEM counts as a corner. GEM compares direction
    /// indices (up, down, left, right), so up+down, left+right, down+left and up+right count,
    /// while up+left and down+right do not; kept as is, since it decides which rooms are kept.
    fn is_dead_position(&self, cell: usize) -> bool {
        if self.fixed[cell] == Cell::Target {
            return false;
        }
        let mut walls = [0; 4];
        let mut count = 0;
        for (i, dir) in Direction::ALL.into_iter().enumerate() {
            if self
                .next(cell, dir)
                .is_none_or(|n| self.fixed[n] == Cell::Wall)
            {
                walls[count] = i;
                count += 1;
            }
        }
        match count {
            2 => matches!(walls[0].abs_diff(walls[1]), 1 | 3),
            n => n > 2,
        }
    }

    /// Whether some box cannot be pushed in any direction (GEM's "frozen" test): a push needs a
    /// free cell ahead and, behind, a free cell or the player.
    fn has_frozen_box(&self) -> bool {
        let boxes = || (0..self.state.len()).filter(|&c| self.state[c].is_box());
        if boxes().count() < 2 {
            return false;
        }
        boxes().any(|cell| {
            !Direction::ALL.into_iter().any(|dir| {
                let ahead = self.next(cell, dir);
                let behind = self.next(cell, dir.opposite());
                match (ahead, behind) {
                    (Some(a), Some(b)) => {
                        self.state[a].is_free()
                            && (self.state[b].is_free() || self.state[b] == Cell::Player)
                    }
                    _ => false,
                }
            })
        })
    }

    /// GEM's `check_initial_deadlocks`.
    fn has_deadlock(&self) -> bool {
        let mut boxes = (0..self.state.len()).filter(|&c| self.state[c].is_box());
        boxes.any(|c| self.is_dead_position(c)) || self.has_frozen_box()
    }
}

/// The shapes a step of the random walk turns into floor, centred on the walker.
const MASKS: [[[bool; 3]; 3]; 5] = {
    const O: bool = false;
    const X: bool = true;
    [
        [[O, O, O], [X, X, X], [O, O, O]],
        [[O, X, O], [O, X, O], [O, X, O]],
        [[O, O, O], [X, X, O], [O, X, O]],
        [[O, O, O], [X, X, O], [X, X, O]],
        [[O, O, O], [O, X, X], [O, X, O]],
    ]
};

/// The walk's headings, in GEM's order (draws index it).
const HEADINGS: [(isize, isize); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// Carves floor with GEM's random walk, drawing exactly what GEM draws from Python's `random`
/// (`sample(k=1)` draws like `choice`). Returns whether each cell is floor.
fn carve(rows: usize, cols: usize, steps: usize, rng: &mut Rng) -> Vec<bool> {
    let mut floor = vec![false; rows * cols];
    let mut heading = HEADINGS[rng.below(4) as usize];
    let mut r = rng.randint(1, rows as i64 - 1) as isize;
    let mut c = rng.randint(1, cols as i64 - 1) as isize;
    for _ in 0..steps {
        if rng.random() < 0.35 {
            heading = HEADINGS[rng.below(4) as usize];
        }
        r = (r + heading.0).clamp(1, rows as isize - 2);
        c = (c + heading.1).clamp(1, cols as isize - 2);
        let mask = &MASKS[rng.below(5) as usize];
        for (i, line) in mask.iter().enumerate() {
            for (j, &on) in line.iter().enumerate() {
                if on {
                    floor[(r as usize + i - 1) * cols + c as usize + j - 1] = true;
                }
            }
        }
    }
    for (cell, floor) in floor.iter_mut().enumerate() {
        let (r, c) = (cell / cols, cell % cols);
        if r == 0 || c == 0 || r == rows - 1 || c == cols - 1 {
            *floor = false;
        }
    }
    floor
}

/// Size and contents of the rooms to generate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// Height and width, border walls included (GEM's `dim_room`).
    pub rows: usize,
    pub cols: usize,
    /// Boxes, and as many targets (GEM's `num_boxes`).
    pub boxes: usize,
}

/// Rooms tried per reset before giving up (GEM: 1000 per generation call, up to 50 calls). The
/// densest registered layout (8×8, 5 boxes) needs about 200 on average and 2000 at worst in
/// 3000 seeds, so the bound is never reached in practice while keeping reset time bounded.
pub const MAX_TRIES: usize = 10_000;

impl Layout {
    /// Checks that rooms of this layout can be generated: at least 3×3 cells, between 1 and
    /// [`MAX_BOXES`] boxes, and inner cells plus boxes at most [`KEY_BITS`] (one search key),
    /// e.g. 8×8 with up to 16 boxes or 9×9 with up to 15. On error, names the config key.
    pub fn check(self) -> Result<(), (&'static str, String)> {
        if self.rows < 3 || self.cols < 3 {
            return Err((
                "dim_room",
                "a room needs at least 3 rows and 3 columns".into(),
            ));
        }
        let inner = (self.rows - 2) * (self.cols - 2);
        if inner >= KEY_BITS {
            return Err((
                "dim_room",
                format!("(rows - 2) * (cols - 2) must be below {KEY_BITS}"),
            ));
        }
        if !(1..=MAX_BOXES).contains(&self.boxes) || inner + self.boxes > KEY_BITS {
            return Err((
                "num_boxes",
                format!(
                    "between 1 and {MAX_BOXES}, and at most {} for this room",
                    KEY_BITS - inner
                ),
            ));
        }
        Ok(())
    }

    /// Steps of the random walk, as GEM computes them (`int(1.7 * (rows + cols))`).
    fn walk_steps(self) -> usize {
        (1.7 * (self.rows + self.cols) as f64) as usize
    }

    /// One try of GEM's generator: `None` when GEM's try fails (too little floor, a deadlock,
    /// or no backward play that uncovers every target).
    ///
    /// The floor is carved with the draws GEM takes from Python's `random`. GEM places the
    /// player and boxes with numpy's generator, which geode does not reproduce: those draws
    /// (uniform picks among the free cells, in reading order) come from `rng` too, so rooms
    /// differ from GEM's for the same seed, while following the same rules.
    pub(crate) fn try_room(self, rng: &mut Rng, search: &mut Search) -> Option<Room> {
        let (rows, cols) = (self.rows, self.cols);
        let floor = carve(rows, cols, self.walk_steps(), rng);
        let mut free: Vec<usize> = (0..floor.len()).filter(|&c| floor[c]).collect();
        if free.len() <= self.boxes + 1 {
            return None;
        }
        let mut fixed: Vec<Cell> = floor
            .iter()
            .map(|&f| if f { Cell::Floor } else { Cell::Wall })
            .collect();
        let player = free.remove(rng.below(free.len() as u64) as usize);
        for _ in 0..self.boxes {
            let target = free.remove(rng.below(free.len() as u64) as usize);
            fixed[target] = Cell::Target;
        }
        let mut state: Vec<Cell> = fixed
            .iter()
            .map(|&c| if c == Cell::Target { Cell::Box } else { c })
            .collect();
        state[player] = Cell::Player;
        let start = Room {
            rows,
            cols,
            fixed,
            state,
            player,
        };
        if start.has_deadlock() {
            return None;
        }
        let room = search.pull_boxes(&start)?;
        (!room.has_deadlock()).then_some(room)
    }

    /// Generates a solvable room, trying at most [`MAX_TRIES`] times.
    pub fn generate(self, rng: &mut Rng, search: &mut Search) -> Option<Room> {
        (0..MAX_TRIES).find_map(|_| self.try_room(rng, search))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A start room from rows of `#` (wall), `_` (floor), `B` (a box on its target) and `P`
    /// (the player, if any).
    fn start_room(rows: &[&str]) -> Room {
        let cols = rows[0].len();
        let cells: Vec<char> = rows.concat().chars().collect();
        let fixed = cells
            .iter()
            .map(|c| match c {
                '#' => Cell::Wall,
                'B' => Cell::Target,
                _ => Cell::Floor,
            })
            .collect();
        let state = cells
            .iter()
            .map(|c| match c {
                '#' => Cell::Wall,
                'B' => Cell::Box,
                'P' => Cell::Player,
                _ => Cell::Floor,
            })
            .collect();
        let player = cells.iter().position(|&c| c == 'P').unwrap_or(0);
        Room {
            rows: rows.len(),
            cols,
            fixed,
            state,
            player,
        }
    }

    fn rows(room: &Room) -> Vec<String> {
        let mut out = String::new();
        room.render(&mut out);
        out.lines().map(|l| l.replace(' ', "")).collect()
    }

    // Rooms, scores and state counts printed by GEM's `reverse_playing` for these starts.
    #[test]
    fn backward_play_matches_gem() {
        let cases: [(&[&str], &[&str], usize); 3] = [
            (
                &["######", "###__#", "#_B__#", "#_P__#", "#__B_#", "######"],
                &["######", "###__#", "#_OX_#", "#__XP#", "#__O_#", "######"],
                265,
            ),
            (
                &[
                    "########", "#__#___#", "#B_____#", "#_____##", "#___B_##", "#___BP##",
                    "#___B_##", "########",
                ],
                &[
                    "########", "#_P#___#", "#OX____#", "#__X__##", "#___O_##", "#XX_O_##",
                    "#___O_##", "########",
                ],
                217_558,
            ),
            (
                &[
                    "#########",
                    "#__B___P#",
                    "#____#__#",
                    "#_______#",
                    "#B__B___#",
                    "#_#__####",
                    "#########",
                ],
                &[
                    "#########",
                    "#__O____#",
                    "#PX__#__#",
                    "#_____X_#",
                    "#O__OX__#",
                    "#_#__####",
                    "#########",
                ],
                34_375,
            ),
        ];
        let mut search = Search::default();
        for (start, expected, explored) in cases {
            let start = start_room(start);
            assert!(!start.has_deadlock());
            let room = search.pull_boxes(&start).unwrap();
            assert_eq!(rows(&room), expected);
            assert_eq!(search.explored(), explored);
            assert!(!room.has_deadlock());
        }
    }

    // Floors printed by GEM's `room_topology_generation` with `random.Random(seed)`.
    #[test]
    fn carving_matches_gem() {
        let cases: [(usize, usize, u64, &[&str]); 3] = [
            (
                6,
                6,
                0,
                &["######", "######", "######", "#__###", "#__###", "######"],
            ),
            (
                8,
                8,
                1,
                &[
                    "########", "#_###_##", "#_____##", "#__#__##", "#_##___#", "#______#",
                    "#______#", "########",
                ],
            ),
            (
                7,
                9,
                2,
                &[
                    "#########",
                    "#_______#",
                    "#_______#",
                    "#_______#",
                    "##______#",
                    "######__#",
                    "#########",
                ],
            ),
        ];
        for (rows, cols, seed, expected) in cases {
            let steps = Layout {
                rows,
                cols,
                boxes: 1,
            }
            .walk_steps();
            let floor = carve(rows, cols, steps, &mut Rng::seeded(seed));
            let drawn: Vec<String> = floor
                .chunks(cols)
                .map(|row| row.iter().map(|&f| if f { '_' } else { '#' }).collect())
                .collect();
            assert_eq!(drawn, expected);
        }
    }

    #[test]
    fn dead_positions_follow_gem() {
        // A box in a horizontal corridor counts as dead for GEM; an up-left corner does not.
        let room = start_room(&["#####", "#___#", "#####"]);
        assert!(room.is_dead_position(7));
        let room = start_room(&["#####", "#___#", "#___#", "#####"]);
        assert!(!room.is_dead_position(6));
        assert!(room.is_dead_position(8));
        assert!(!room.is_dead_position(13));
    }
}
