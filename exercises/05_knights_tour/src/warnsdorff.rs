//! Warnsdorff's rule: always go where the fewest onward moves remain.
//!
//! The problem: an open tour on boards far beyond the plain search's reach.
//! The state is the board of move numbers plus, for every square, its
//! *degree*: how many unvisited squares it can still jump to. Each step looks
//! at no more than 8 candidates and their 8 neighbours and then updates 8
//! degrees, so one greedy pass costs O(n²) time and memory and uses no
//! recursion. The rule alone can paint itself into a corner; [`open_tour`]
//! then falls back to other move orders and finally to a backtracking search
//! guided by the same rule, which is exhaustive and so never misses a tour.

use crate::board::{Board, SEED_MOVES, Square, Step};

/// Degrees of every square on an empty n x n board, row-major.
pub(crate) fn initial_degrees(n: usize, moves: &[Step]) -> Vec<u8> {
    let mut degree = vec![0u8; n * n];
    for row in 0..n {
        for col in 0..n {
            degree[row * n + col] = neighbours(n, (row, col), moves).count() as u8;
        }
    }
    degree
}

/// The on-board squares one knight move from `from`, in `moves` order,
/// without allocating.
pub(crate) fn neighbours(
    n: usize,
    from: Square,
    moves: &[Step],
) -> impl Iterator<Item = Square> + '_ {
    moves.iter().filter_map(move |&(dr, dc)| {
        let to = (
            from.0.checked_add_signed(dr)?,
            from.1.checked_add_signed(dc)?,
        );
        (to.0 < n && to.1 < n).then_some(to)
    })
}

// ANCHOR: warnsdorff
/// One greedy pass of Warnsdorff's rule from `start`: `None` if it reaches a
/// square with no unvisited neighbour before the board is full.
///
/// The next square is the unvisited neighbour with the fewest unvisited
/// neighbours of its own. Ties go to the candidate whose unvisited
/// neighbours have the smallest total of such counts (Pohl's second look),
/// and remaining ties to the earlier move in `moves`. So the result is a
/// function of `n`, `start` and `moves` alone.
pub fn warnsdorff(n: usize, start: Square, moves: &[Step]) -> Option<Board> {
    todo!(
        "number the square, lower its neighbours' degrees, then move where \
         `next_square` says (book: knights_tour/warnsdorff.md#the-rule)"
    )
}

/// The unvisited neighbour of `at` that the rule picks, if any.
fn next_square(board: &Board, degree: &[u8], at: Square, moves: &[Step]) -> Option<Square> {
    todo!(
        "among free neighbours pick the fewest onward moves, then the smallest \
         second look, then move order (book: \
         knights_tour/warnsdorff.md#the-rule)"
    )
}
// ANCHOR_END: warnsdorff

/// How many rotations one [`Walk`] tries before giving up.
pub const MAX_ROTATIONS: usize = 2_000;

/// How [`open_tour_route`] found its tour: which of its stages succeeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// One greedy pass with the move order [`SEED_MOVES`] rotated left by
    /// `order` (0 is the seed's own order).
    Greedy { order: usize },
    /// A greedy pass with that order, stuck, then `rotations` of Pósa's
    /// rotations each followed by more greedy steps.
    Rotated { order: usize, rotations: usize },
    /// The exhaustive search (boards up to 8 x 8 only).
    Exhaustive,
}

/// An open tour from `start` on an n x n board whenever one exists, `None`
/// otherwise: [`open_tour_route`] without the route.
pub fn open_tour(n: usize, start: Square) -> Option<Board> {
    open_tour_route(n, start).map(|(board, _)| board)
}

/// The eight rotations of [`SEED_MOVES`], the seed's own order first.
fn orders() -> impl Iterator<Item = [Step; 8]> + Clone {
    (0..SEED_MOVES.len()).map(|shift| {
        let mut moves = SEED_MOVES;
        moves.rotate_left(shift);
        moves
    })
}

// ANCHOR: open_tour
/// An open tour from `start` and the stage that found it, whenever a tour
/// exists. One exists for n = 1, for no n in 2..=4, and for n >= 5 from
/// every square, except that on odd boards it must start on the colour of
/// the corners (the book explains why).
///
/// The stages, each tried only when the ones before it got stuck:
/// 1. a greedy [`Walk`] (fewest onward moves, ties to the square farthest
///    from the centre, then move order) with [`SEED_MOVES`], then with each
///    other rotation of that order;
/// 2. each order again, now followed by up to [`MAX_ROTATIONS`] of Pósa's
///    rotations: the stuck end E is a knight's move from some square p(i)
///    earlier on the path, so p0 .. p(i), E, ..., p(i+1) (the tail
///    reversed) is a path over the same squares ending at p(i+1), from
///    where the greedy rule may go on;
/// 3. boards up to 8 x 8 where all that fails: an exhaustive search
///    guided by the rule.
///
/// Every stage is deterministic, so the tour is a function of `n` and
/// `start`. The sweep example proves that from the seed's corner stage 1
/// suffices for every n in 5..=1000.
pub fn open_tour_route(n: usize, start: Square) -> Option<(Board, Route)> {
    todo!(
        "reject boards and starts with no tour, then a greedy Walk per move \
         order, then Walk::complete per order, then guided_dfs on small boards \
         (book: knights_tour/warnsdorff.md#when-the-rule-gets-stuck)"
    )
}
// ANCHOR_END: open_tour

// ANCHOR: walk
/// A square's degree once it is taken, and of the border around the board:
/// far above any real degree, and 8 decrements (one per neighbour taken)
/// still leave it above [`FREE`].
const TAKEN: u8 = 64;

/// The largest degree a free square can have: anything above is taken or
/// border.
const FREE: u8 = 8;

/// A greedy path under construction on a padded grid.
///
/// The board sits inside a border two squares wide (row-major, `width` =
/// n + 4 columns), so every knight jump from a board square lands inside
/// the grid, and a jump is one addition of a precomputed offset: no bounds
/// checks, no signed coordinates. The border and the taken squares have
/// degree [`TAKEN`]; a free square's degree is its count of free jumps.
pub struct Walk {
    n: usize,
    width: usize,
    /// The 8 jumps as offsets in the grid, in the walk's move order.
    jumps: [usize; 8],
    /// Grid indices in the order visited.
    path: Vec<u32>,
    /// Where each grid index sits on the path (`u32::MAX` if it does not);
    /// empty until the first rotation needs it.
    pos: Vec<u32>,
    degree: Vec<u8>,
}

impl Walk {
    /// A path holding only `start`, with `moves` as the order for ties.
    pub fn new(n: usize, start: Square, moves: [Step; 8]) -> Self {
        let width = n + 4;
        // Wrapping addition of a negative offset as usize is a subtraction.
        let jumps = moves.map(|(dr, dc)| (dr * width as isize + dc) as usize);
        let mut degree = vec![TAKEN; width * width];
        for row in 0..n {
            let first = (row + 2) * width + 2;
            degree[first..first + n].fill(0);
        }
        for row in 0..n {
            for i in (row + 2) * width + 2..(row + 2) * width + 2 + n {
                let free = jumps.iter().filter(|&&j| degree[i.wrapping_add(j)] < TAKEN);
                degree[i] = free.count() as u8;
            }
        }
        let mut walk = Walk {
            n,
            width,
            jumps,
            path: Vec::with_capacity(n * n),
            pos: Vec::new(),
            degree,
        };
        walk.take((start.0 + 2) * width + start.1 + 2);
        walk
    }

    fn take(&mut self, at: usize) {
        if let Some(pos) = self.pos.get_mut(at) {
            *pos = self.path.len() as u32;
        }
        self.path.push(at as u32);
        self.degree[at] = TAKEN;
        for j in self.jumps {
            self.degree[at.wrapping_add(j)] -= 1;
        }
    }

    /// Whether the path covers the board.
    pub fn is_tour(&self) -> bool {
        self.path.len() == self.n * self.n
    }

    /// The board numbered along the path.
    pub fn board(&self) -> Board {
        // Numbering the padded grid needs no division per square; the rows
        // are then cut out of it.
        let mut grid = vec![0u32; self.width * self.width];
        for (k, &at) in self.path.iter().enumerate() {
            grid[at as usize] = k as u32 + 1;
        }
        let rows: Vec<Vec<u32>> = (2..self.n + 2)
            .map(|row| grid[row * self.width + 2..][..self.n].to_vec())
            .collect();
        // n rows of n numbers always form a board; the fallback is unreachable.
        Board::from_rows(&rows).unwrap_or_else(|| Board::new(self.n))
    }

    /// How far a grid index is from the board's centre, squared, in half
    /// squares (so the centre of an even board needs no fractions).
    fn spread(&self, at: usize) -> usize {
        let centre = self.n + 3; // twice the centre's grid coordinate
        let (row, col) = (2 * (at / self.width), 2 * (at % self.width));
        row.abs_diff(centre).pow(2) + col.abs_diff(centre).pow(2)
    }

    /// Extends the path by the rule until it is stuck: fewest onward moves,
    /// ties to the square farthest from the centre, then the earlier move.
    pub fn greedy(&mut self) {
        todo!(
            "from the path's end take the jump of lowest degree (ties: \
             Walk::farthest) until every jump leads to a degree above FREE \
             (book: knights_tour/warnsdorff.md#when-the-rule-gets-stuck)"
        )
    }

    /// Among the jumps from `at` with degree `low`, the first one farthest
    /// from the centre (only ties pay for the distance).
    fn farthest(&self, at: usize, low: u8) -> usize {
        todo!(
            "among the jumps of degree `low`, the first with the largest \
             `spread` (book: \
             knights_tour/warnsdorff.md#when-the-rule-gets-stuck)"
        )
    }

    /// The greedy rule, then up to [`MAX_ROTATIONS`] rotations, each
    /// followed by the greedy rule again: the rotations used, if the path
    /// covers the board.
    pub fn complete(&mut self) -> Option<usize> {
        todo!(
            "greedy, then rotate at a pivot and go greedy again until the path \
             covers the board or the budget is spent (book: \
             knights_tour/warnsdorff.md#when-the-rule-gets-stuck)"
        )
    }

    /// A position i where the end's neighbour p(i) allows a rotation, one
    /// whose new end p(i + 1) has a free neighbour if there is one.
    pub fn pivot(&self, rng: &mut u64) -> Option<usize> {
        todo!(
            "positions of the end's neighbours on the path; prefer one whose \
             successor has a free neighbour (book: \
             knights_tour/warnsdorff.md#when-the-rule-gets-stuck)"
        )
    }

    /// Reverses the path from position `from` to its end.
    fn rotate(&mut self, from: usize) {
        self.path[from..].reverse();
        for i in from..self.path.len() {
            self.pos[self.path[i] as usize] = i as u32;
        }
    }
}
// ANCHOR_END: walk

// ANCHOR: guided
/// Backtracking with the rule's ordering: at each square, the unvisited
/// neighbours sorted by (degree, move order), tried in turn, on an explicit
/// stack so that no board size can overflow the call stack. Exhaustive, so
/// it settles the small boards where the rotations give up.
fn guided_dfs(n: usize, start: Square, moves: &[Step]) -> Option<Board> {
    let mut board = Board::new(n);
    let mut degree = initial_degrees(n, moves);
    let mut stack: Vec<Vec<Square>> = Vec::new();
    let mut path = vec![start];
    enter(&mut board, &mut degree, start, 1, moves);
    stack.push(ranked(&board, &degree, start, moves));
    while let Some(choices) = stack.last_mut() {
        if path.len() == n * n {
            return Some(board);
        }
        match choices.pop() {
            Some(to) => {
                enter(&mut board, &mut degree, to, path.len() as u32 + 1, moves);
                path.push(to);
                let next = ranked(&board, &degree, to, moves);
                stack.push(next);
            }
            None => {
                stack.pop();
                if let Some(back) = path.pop() {
                    leave(&mut board, &mut degree, back, moves);
                }
            }
        }
    }
    None
}

/// Candidates from `at`, best last (so `pop` takes the best first).
fn ranked(board: &Board, degree: &[u8], at: Square, moves: &[Step]) -> Vec<Square> {
    let n = board.size();
    let mut next: Vec<Square> = neighbours(n, at, moves)
        .filter(|&s| board.get(s) == 0)
        .collect();
    // A stable sort keeps move order among equal degrees; reversed for pop.
    next.sort_by_key(|&(r, c)| degree[r * n + c]);
    next.reverse();
    next
}

fn enter(board: &mut Board, degree: &mut [u8], at: Square, number: u32, moves: &[Step]) {
    let n = board.size();
    board.set(at, number);
    for (r, c) in neighbours(n, at, moves) {
        degree[r * n + c] -= 1;
    }
}

fn leave(board: &mut Board, degree: &mut [u8], at: Square, moves: &[Step]) {
    let n = board.size();
    board.set(at, 0);
    for (r, c) in neighbours(n, at, moves) {
        degree[r * n + c] += 1;
    }
}
// ANCHOR_END: guided
