//! Sudoku grids: building a solved grid and a uniquely solvable puzzle the way GEM does, and
//! drawing them as GEM prints them.

use geode_sdk::Rng;
use geode_sdk::text::Piece;

/// A square grid of side `n` (4 or 9) with boxes of side `√n`; 0 marks an empty cell.
#[derive(Clone)]
pub struct Grid {
    n: usize,
    side: usize,
    cells: Vec<u8>,
    /// Digits used per row, column and box, one bit per digit.
    rows: Vec<u16>,
    cols: Vec<u16>,
    boxes: Vec<u16>,
}

impl Grid {
    /// An empty grid of side `n` (a perfect square).
    pub fn empty(n: usize) -> Grid {
        Grid {
            n,
            side: n.isqrt(),
            cells: vec![0; n * n],
            rows: vec![0; n],
            cols: vec![0; n],
            boxes: vec![0; n],
        }
    }

    /// The cells, row by row.
    pub fn into_cells(self) -> Vec<u8> {
        self.cells
    }

    fn box_of(&self, cell: usize) -> usize {
        let (r, c) = (cell / self.n, cell % self.n);
        r / self.side * self.side + c / self.side
    }

    /// Digits still allowed at `cell`, one bit per digit.
    fn free(&self, cell: usize) -> u16 {
        let all = ((1u32 << (self.n + 1)) - 2) as u16;
        all & !(self.rows[cell / self.n] | self.cols[cell % self.n] | self.boxes[self.box_of(cell)])
    }

    fn toggle(&mut self, cell: usize, digit: u8) {
        let bit = 1 << digit;
        let b = self.box_of(cell);
        self.rows[cell / self.n] ^= bit;
        self.cols[cell % self.n] ^= bit;
        self.boxes[b] ^= bit;
    }

    /// Writes `digit` into the empty `cell`.
    pub fn place(&mut self, cell: usize, digit: u8) {
        self.cells[cell] = digit;
        self.toggle(cell, digit);
    }

    fn clear(&mut self, cell: usize) -> u8 {
        let digit = std::mem::take(&mut self.cells[cell]);
        self.toggle(cell, digit);
        digit
    }

    /// A full valid grid, drawn like GEM: cells in reading order, each trying the digits of a
    /// fresh `random.shuffle` of `1..=n` (redrawn on every visit, backtracking included).
    pub fn solved(n: usize, rng: &mut Rng) -> Grid {
        let mut grid = Grid::empty(n);
        grid.fill_from(0, rng);
        grid
    }

    fn fill_from(&mut self, cell: usize, rng: &mut Rng) -> bool {
        if cell == self.cells.len() {
            return true;
        }
        let mut digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        let digits = &mut digits[..self.n];
        rng.shuffle(digits);
        let free = self.free(cell);
        for &digit in digits.iter() {
            if free & (1 << digit) != 0 {
                self.place(cell, digit);
                if self.fill_from(cell + 1, rng) {
                    return true;
                }
                self.clear(cell);
            }
        }
        false
    }

    /// Removes cells from a solved grid like GEM: `removals` cells of a shuffled list are tried
    /// from its end, and a removal is undone when the puzzle would lose its unique solution.
    pub fn puzzle(solution: &Grid, removals: usize, rng: &mut Rng) -> Grid {
        let mut puzzle = solution.clone();
        let mut order: Vec<usize> = (0..puzzle.cells.len()).collect();
        rng.shuffle(&mut order);
        for &cell in order.iter().rev().take(removals) {
            let digit = puzzle.clear(cell);
            if puzzle.solutions(2) != 1 {
                puzzle.place(cell, digit);
            }
        }
        puzzle
    }

    /// The number of solutions, counting no further than `limit`.
    pub fn solutions(&mut self, limit: usize) -> usize {
        // The most constrained empty cell first; the count does not depend on the order.
        let mut best: Option<(usize, u16)> = None;
        for cell in (0..self.cells.len()).filter(|&c| self.cells[c] == 0) {
            let free = self.free(cell);
            if best.is_none_or(|(_, b)| free.count_ones() < b.count_ones()) {
                best = Some((cell, free));
                if free.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((cell, free)) = best else {
            return 1;
        };
        let mut found = 0;
        for digit in 1..=self.n as u8 {
            if free & (1 << digit) != 0 && found < limit {
                self.place(cell, digit);
                found += self.solutions(limit - found);
                self.clear(cell);
            }
        }
        found
    }
}

/// Draws `cells` (side `n`, 0 for empty) exactly as GEM's `_render_board` does.
pub fn render(cells: &[u8], n: usize, out: &mut String) {
    let side = n.isqrt();
    out.push_str("   ");
    for c in 1..=n {
        if c > 1 {
            out.push(' ');
        }
        out.push('C');
        c.push_to(out);
        if c % side == 0 {
            out.push_str("  ");
        }
    }
    for (r, row) in cells.chunks(n).enumerate() {
        out.push_str("\nR");
        (r + 1).push_to(out);
        for (c, &digit) in row.iter().enumerate() {
            out.push_str("  ");
            match digit {
                0 => out.push('.'),
                d => out.push(char::from(b'0' + d)),
            }
            if (c + 1) % side == 0 && c + 1 < n {
                out.push_str(" |");
            }
        }
        if (r + 1) % side == 0 && r + 1 < n {
            out.push_str("\n   ");
            for _ in 0..2 * (n - 1) {
                out.push_str("- ");
            }
        }
    }
}
