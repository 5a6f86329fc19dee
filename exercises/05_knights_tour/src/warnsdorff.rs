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
        "number the square, lower its neighbours' degrees, then move where `next_square` says (book: knights_tour/warnsdorff.md#the-rule)"
    )
}

/// The unvisited neighbour of `at` that the rule picks, if any.
fn next_square(board: &Board, degree: &[u8], at: Square, moves: &[Step]) -> Option<Square> {
    todo!(
        "among free neighbours pick the fewest onward moves, then the smallest second look, then move order (book: knights_tour/warnsdorff.md#the-rule)"
    )
}

/// How many rotations [`open_tour`] tries before giving up.
pub const MAX_ROTATIONS: usize = 2_000;

/// An open tour from `start` on an n x n board whenever one exists, `None`
/// otherwise. One exists for n = 1, for no n in 2..=4, and for n >= 5 from
/// every square, except that on odd boards it must start on the colour of
/// the corners (the book explains why).
///
/// The greedy rule ([`warnsdorff`]) with [`SEED_MOVES`] first, then with
/// each other rotation of that order. If all 8 get stuck with squares left,
/// each order again, now followed by up to [`MAX_ROTATIONS`] of Pósa's
/// rotations: the stuck end E is a knight's move from some
/// square p(i) earlier on the path, so p0 .. p(i), E, ..., p(i+1) (the tail
/// reversed) is a path over the same squares ending at p(i+1), from where
/// the greedy rule may go on. A rotation whose new end has a free neighbour
/// is preferred; otherwise one is picked by a fixed pseudo-random sequence,
/// so the result is still a function of `n` and `start`. Boards up to 8 x 8
/// where all that fails get an exhaustive search guided by the rule.
pub fn open_tour(n: usize, start: Square) -> Option<Board> {
    todo!(
        "reject boards and starts with no tour, then try a Walk for each rotation of the move order (book: knights_tour/warnsdorff.md#when-the-rule-gets-stuck)"
    )
}

/// A greedy path under construction: its squares, where each sits on it,
/// which squares are taken, and every square's count of free neighbours.
struct Walk {
    n: usize,
    moves: [Step; 8],
    path: Vec<Square>,
    pos: Vec<usize>,
    taken: Vec<bool>,
    degree: Vec<u8>,
}

impl Walk {
    fn new(n: usize, start: Square, moves: [Step; 8]) -> Self {
        let mut walk = Walk {
            n,
            moves,
            path: Vec::with_capacity(n * n),
            pos: vec![0; n * n],
            taken: vec![false; n * n],
            degree: initial_degrees(n, &moves),
        };
        walk.take(start);
        walk
    }

    fn take(&mut self, at: Square) {
        let n = self.n;
        self.pos[at.0 * n + at.1] = self.path.len();
        self.taken[at.0 * n + at.1] = true;
        self.path.push(at);
        for (r, c) in neighbours(n, at, &self.moves) {
            self.degree[r * n + c] -= 1;
        }
    }

    /// The greedy rule, then up to [`MAX_ROTATIONS`] rotations, each
    /// followed by the greedy rule again; the path if it covers the board.
    fn complete(mut self) -> Option<Vec<Square>> {
        todo!(
            "greedy, then rotate and go greedy again until the path covers the board or the budget is spent (book: knights_tour/warnsdorff.md#when-the-rule-gets-stuck)"
        )
    }

    fn free(&self, (r, c): Square) -> bool {
        !self.taken[r * self.n + c]
    }

    /// Extends the path by the rule (fewest onward moves, then Pohl's
    /// second look, then move order) until it is stuck.
    fn greedy(&mut self) {
        todo!(
            "repeat the rule from the path's end until no free neighbour is left (book: knights_tour/warnsdorff.md#when-the-rule-gets-stuck)"
        )
    }

    /// A position i where the end's neighbour p(i) allows a rotation, one
    /// whose new end p(i + 1) has a free neighbour if there is one.
    fn pivot(&self, rng: &mut u64) -> Option<usize> {
        todo!(
            "positions of the end's neighbours on the path; prefer one whose successor has a free neighbour (book: knights_tour/warnsdorff.md#when-the-rule-gets-stuck)"
        )
    }

    /// Reverses the path from position `from` to its end.
    fn rotate(&mut self, from: usize) {
        self.path[from..].reverse();
        for i in from..self.path.len() {
            let (r, c) = self.path[i];
            self.pos[r * self.n + c] = i;
        }
    }
}

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
