//! GEM's backward play: starting with every box on its target, the player walks and pulls boxes
//! in a depth-first search, and the state with the best score (pulls × total box displacement,
//! every target uncovered) becomes the puzzle. Every such state is solvable by replaying the
//! pulls as pushes.
//!
//! The search explores exactly the states GEM explores, in the same order and within the same
//! limits (depth 300, at most 300 000 states, each state expanded once however it is reached),
//! so the same start yields the same room. Cells are bits over the room's inner cells (the
//! border is always wall). States sharing their boxes share one bitset of the player cells seen,
//! so only a pull, which changes the boxes, needs a hash lookup.

use crate::room::{Cell, Room};

/// Bits of a box-configuration key: one per inner cell plus one per box.
pub const KEY_BITS: usize = 64;
/// Most boxes a room may hold.
pub const MAX_BOXES: usize = 16;
/// GEM's search limits.
const MAX_STATES: usize = 300_000;
const MAX_TTL: i32 = 300;
/// Marks a missing neighbour or a cell that is no target.
const NONE: u8 = u8::MAX;

/// The best state found so far: the player's cell, the box configuration, and the score.
type Best = (u8, u32, i64);

/// Numbers the distinct non-zero keys it is given (open addressing, linear probing), and
/// forgets them in time proportional to their number, so small searches stay cheap after big
/// ones.
#[derive(Default)]
struct KeyIndex {
    /// Keys by slot; 0 marks a free slot.
    keys: Vec<u64>,
    /// The number given to the key in the same slot.
    numbers: Vec<u32>,
    /// The occupied slots, in numbering order.
    used: Vec<u32>,
}

impl KeyIndex {
    fn clear(&mut self) {
        for &slot in &self.used {
            self.keys[slot as usize] = 0;
        }
        self.used.clear();
    }

    /// The number of `key`, and whether it is new.
    fn number(&mut self, key: u64) -> (u32, bool) {
        debug_assert_ne!(key, 0);
        if (self.used.len() + 1) * 4 > self.keys.len() * 3 {
            self.grow();
        }
        let shift = 64 - self.keys.len().trailing_zeros();
        let mask = self.keys.len() - 1;
        let mut slot = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> shift) as usize;
        loop {
            match self.keys[slot] {
                0 => {
                    let number = self.used.len() as u32;
                    self.keys[slot] = key;
                    self.numbers[slot] = number;
                    self.used.push(slot as u32);
                    return (number, true);
                }
                k if k == key => return (self.numbers[slot], false),
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let keys: Vec<u64> = self.used.iter().map(|&s| self.keys[s as usize]).collect();
        let size = (self.keys.len() * 2).max(1 << 10);
        self.keys = vec![0; size];
        self.numbers = vec![0; size];
        self.used.clear();
        for key in keys {
            self.number(key);
        }
    }
}

/// The backward-play search, keeping its memory from one room to the next.
#[derive(Default)]
pub struct Search {
    /// The box configurations met so far, numbered.
    configs: KeyIndex,
    /// Per configuration: the inner cells holding a box.
    boxes: Vec<u64>,
    /// Per configuration: the targets (by index) whose box has never moved. GEM tells those
    /// boxes apart, so its states do too.
    unmoved: Vec<u64>,
    /// Per configuration: the player cells met with it.
    seen: Vec<u64>,
    /// States met so far (GEM's `len(explored_states)`).
    explored: usize,
    /// Where each box is, indexed by the target it started on (GEM's box mapping).
    box_at: [u8; MAX_BOXES],
    /// Pulls made on the current path (GEM's `box_swaps`).
    pulls: i64,
    /// Total Manhattan distance of the boxes from their starting targets.
    displacement: i64,
    best: Best,
    /// Inner cells per row.
    width: usize,
    /// Inner cells that are not walls.
    open: u64,
    targets: u64,
    /// The inner cell of each target, in reading order (GEM's box order).
    target_cells: Vec<u8>,
    /// Per inner cell: its target index, or [`NONE`].
    target_index: Vec<u8>,
    /// Per inner cell: the neighbour in each of `Direction::ALL`, or [`NONE`] at the border.
    neighbors: Vec<[u8; 4]>,
    /// Per target: the Manhattan distance of every inner cell from it.
    distance: Vec<[u8; KEY_BITS]>,
}

fn bit(cell: u8) -> u64 {
    1 << cell
}

impl Search {
    /// Prepares the tables for `room` and returns the player's inner cell.
    fn prepare(&mut self, room: &Room) -> u8 {
        let (rows, cols) = (room.rows, room.cols);
        let (height, width) = (rows - 2, cols - 2);
        self.width = width;
        self.open = 0;
        self.targets = 0;
        self.target_cells.clear();
        self.target_index.clear();
        self.target_index.resize(height * width, NONE);
        self.neighbors.clear();
        let mut player = NONE;
        for r in 0..height {
            for c in 0..width {
                let i = (r * width + c) as u8;
                let cell = (r + 1) * cols + c + 1;
                match room.fixed[cell] {
                    Cell::Wall => {}
                    Cell::Target => {
                        self.open |= bit(i);
                        self.targets |= bit(i);
                        self.target_index[i as usize] = self.target_cells.len() as u8;
                        self.target_cells.push(i);
                    }
                    _ => self.open |= bit(i),
                }
                if cell == room.player {
                    player = i;
                }
                let at = |ok: bool, j: usize| if ok { j as u8 } else { NONE };
                let i = i as usize;
                self.neighbors.push([
                    at(r > 0, i.wrapping_sub(width)),
                    at(r + 1 < height, i + width),
                    at(c > 0, i.wrapping_sub(1)),
                    at(c + 1 < width, i + 1),
                ]);
            }
        }
        let at = |i: usize| ((i / width) as i32, (i % width) as i32);
        self.distance.clear();
        for &target in &self.target_cells {
            let (tr, tc) = at(usize::from(target));
            let mut row = [0; KEY_BITS];
            for (i, d) in row.iter_mut().enumerate().take(height * width) {
                let (r, c) = at(i);
                *d = ((r - tr).abs() + (c - tc).abs()) as u8;
            }
            self.distance.push(row);
        }
        player
    }

    /// The number of the configuration with these boxes, numbering it if it is new.
    fn config(&mut self, boxes: u64, unmoved: u64) -> u32 {
        let (number, new) = self.configs.number(boxes | unmoved << self.neighbors.len());
        if new {
            self.boxes.push(boxes);
            self.unmoved.push(unmoved);
            self.seen.push(0);
        }
        number
    }

    /// Records the state (player, config) as met; false when it was met before.
    fn meet(&mut self, player: u8, config: u32) -> bool {
        let seen = &mut self.seen[config as usize];
        if *seen & bit(player) != 0 {
            return false;
        }
        *seen |= bit(player);
        self.explored += 1;
        true
    }

    /// Plays `start` (every box on its target) backwards and returns the best room found, or
    /// `None` when no pull sequence uncovers every target.
    pub fn pull_boxes(&mut self, start: &Room) -> Option<Room> {
        let player = self.prepare(start);
        let boxes = self.target_cells.len();
        self.box_at[..boxes].copy_from_slice(&self.target_cells);
        self.pulls = 0;
        self.displacement = 0;
        self.configs.clear();
        self.boxes.clear();
        self.unmoved.clear();
        self.seen.clear();
        self.explored = 0;
        let config = self.config(self.targets, (1 << boxes) - 1);
        self.meet(player, config);
        self.best = (player, config, -1);
        self.expand(player, config, MAX_TTL - 1);
        let (player, config, score) = self.best;
        (score > 0).then(|| self.room(start, player, self.boxes[config as usize]))
    }

    /// The room with the player and boxes on these inner cells.
    fn room(&self, start: &Room, player: u8, boxes: u64) -> Room {
        let mut room = start.clone();
        room.state.copy_from_slice(&room.fixed);
        for i in 0..self.neighbors.len() {
            let cell = (i / self.width + 1) * room.cols + i % self.width + 1;
            if boxes & bit(i as u8) != 0 {
                room.state[cell] = Cell::Box;
            } else if i == usize::from(player) {
                room.state[cell] = Cell::Player;
                room.player = cell;
            }
        }
        room
    }

    /// GEM's `depth_first_search` below the state (player, config), which the caller has just
    /// met; `ttl` is what is left of GEM's depth budget there.
    fn expand(&mut self, player: u8, config: u32, ttl: i32) {
        let boxes = self.boxes[config as usize];
        let covered = (boxes | bit(player)) & self.targets != 0;
        let score = if covered {
            0
        } else {
            self.pulls * self.displacement
        };
        if score > self.best.2 {
            self.best = (player, config, score);
        }
        let ttl = ttl - 1;
        if ttl <= 0 {
            return;
        }
        let walkable = self.open & !boxes;
        let around = self.neighbors[usize::from(player)];
        for dir in 0..4 {
            let next = around[dir];
            if next == NONE || walkable & bit(next) == 0 || self.explored >= MAX_STATES {
                continue;
            }
            let behind = around[dir ^ 1];
            if behind == NONE || boxes & bit(behind) == 0 {
                if self.meet(next, config) {
                    self.expand(next, config, ttl);
                }
                continue;
            }
            let mut unmoved = self.unmoved[config as usize];
            let target = self.target_index[usize::from(behind)];
            if target != NONE {
                unmoved &= !(1 << target);
            }
            let pulled = self.config(boxes & !bit(behind) | bit(player), unmoved);
            if self.meet(next, pulled) {
                let undo = (self.box_at, self.displacement);
                self.pull(behind, player);
                self.expand(next, pulled, ttl);
                (self.box_at, self.displacement) = undo;
                self.pulls -= 1;
            }
        }
    }

    /// Moves the box at `from` to `to` in GEM's box mapping and scores the move.
    fn pull(&mut self, from: u8, to: u8) {
        self.pulls += 1;
        let boxes = self.target_cells.len();
        if let Some(k) = self.box_at[..boxes].iter().position(|&cell| cell == from) {
            self.box_at[k] = to;
            let distance = &self.distance[k];
            self.displacement +=
                i64::from(distance[usize::from(to)]) - i64::from(distance[usize::from(from)]);
        }
    }

    /// States explored by the last search.
    #[cfg(test)]
    pub fn explored(&self) -> usize {
        self.explored
    }
}
