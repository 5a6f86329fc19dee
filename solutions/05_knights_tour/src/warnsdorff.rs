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
    if start.0 >= n || start.1 >= n {
        return None;
    }
    let mut board = Board::new(n);
    let mut degree = initial_degrees(n, moves);
    let mut at = start;
    for number in 1..=(n * n) as u32 {
        board.set(at, number);
        for (row, col) in neighbours(n, at, moves) {
            degree[row * n + col] -= 1;
        }
        if number as usize == n * n {
            break;
        }
        at = next_square(&board, &degree, at, moves)?;
    }
    Some(board)
}

/// The unvisited neighbour of `at` that the rule picks, if any.
fn next_square(board: &Board, degree: &[u8], at: Square, moves: &[Step]) -> Option<Square> {
    let n = board.size();
    let free = |&s: &Square| board.get(s) == 0;
    let mut best: Option<(u8, u32, Square)> = None;
    for to in neighbours(n, at, moves).filter(free) {
        let d = degree[to.0 * n + to.1];
        if best.is_some_and(|(bd, _, _)| d > bd) {
            continue;
        }
        // Only a tie on the first look needs the second one.
        let second = neighbours(n, to, moves)
            .filter(free)
            .map(|(r, c)| u32::from(degree[r * n + c]))
            .sum();
        if best.is_none_or(|(bd, bs, _)| d < bd || second < bs) {
            best = Some((d, second, to));
        }
    }
    best.map(|(_, _, to)| to)
}
// ANCHOR_END: warnsdorff

/// How many rotations [`open_tour`] tries before giving up.
pub const MAX_ROTATIONS: usize = 2_000;

// ANCHOR: open_tour
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
    if start.0 >= n || start.1 >= n || (2..=4).contains(&n) {
        return None;
    }
    if n % 2 == 1 && (start.0 + start.1) % 2 == 1 {
        return None;
    }
    let orders = (0..SEED_MOVES.len()).map(|shift| {
        let mut moves = SEED_MOVES;
        moves.rotate_left(shift);
        moves
    });
    if let Some(board) = orders
        .clone()
        .find_map(|moves| warnsdorff(n, start, &moves))
    {
        return Some(board);
    }
    for moves in orders {
        if let Some(path) = Walk::new(n, start, moves).complete() {
            return Some(Board::from_path(n, &path));
        }
    }
    (n <= 8)
        .then(|| guided_dfs(n, start, &SEED_MOVES))
        .flatten()
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
        let full = self.n * self.n;
        self.greedy();
        let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..MAX_ROTATIONS {
            if self.path.len() == full {
                break;
            }
            let pivot = self.pivot(&mut rng)?;
            self.rotate(pivot + 1);
            self.greedy();
        }
        (self.path.len() == full).then_some(self.path)
    }

    fn free(&self, (r, c): Square) -> bool {
        !self.taken[r * self.n + c]
    }

    /// Extends the path by the rule (fewest onward moves, then Pohl's
    /// second look, then move order) until it is stuck.
    fn greedy(&mut self) {
        let n = self.n;
        while let Some(&at) = self.path.last() {
            let mut best: Option<(u8, u32, Square)> = None;
            for to in neighbours(n, at, &self.moves).filter(|&s| self.free(s)) {
                let d = self.degree[to.0 * n + to.1];
                if best.is_some_and(|(bd, _, _)| d > bd) {
                    continue;
                }
                let second = neighbours(n, to, &self.moves)
                    .filter(|&s| self.free(s))
                    .map(|(r, c)| u32::from(self.degree[r * n + c]))
                    .sum();
                if best.is_none_or(|(bd, bs, _)| d < bd || second < bs) {
                    best = Some((d, second, to));
                }
            }
            match best {
                Some((_, _, to)) => self.take(to),
                None => return,
            }
        }
    }

    /// A position i where the end's neighbour p(i) allows a rotation, one
    /// whose new end p(i + 1) has a free neighbour if there is one.
    fn pivot(&self, rng: &mut u64) -> Option<usize> {
        let last = self.path.len() - 1;
        let n = self.n;
        let pivots: Vec<usize> = neighbours(n, self.path[last], &self.moves)
            .map(|(r, c)| self.pos[r * n + c])
            .filter(|&i| i + 1 < last)
            .collect();
        let opens =
            |&&i: &&usize| neighbours(n, self.path[i + 1], &self.moves).any(|s| self.free(s));
        if let Some(&i) = pivots.iter().find(opens) {
            return Some(i);
        }
        // xorshift: a fixed sequence, so the tour depends on n and start only.
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        pivots
            .get((*rng % 8) as usize % pivots.len().max(1))
            .copied()
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
// ANCHOR_END: open_tour
