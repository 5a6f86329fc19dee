//! Exact binomial coefficients, fast enough for C(199999, 99999).
//!
//! The problem: C(n, k) with a result of hundreds of thousands of bits. The
//! textbook multiplicative formula does k big multiplications and k big
//! divisions, each as long as the number so far: quadratic. Here the state
//! is the prime factorisation of C(n, k) (Legendre's formula gives each
//! exponent from a few divisions), multiplied back as a balanced product
//! tree so every big multiplication has two operands of similar size, where
//! Karatsuba and Toom-3 pay off. Cost: a sieve up to n plus O(log n) rounds
//! of big products.

use num_bigint::BigUint;
use num_traits::One;

/// Above this `n`, the sieve would cost more memory than the answer is
/// worth; the multiplicative formula takes over.
const SIEVE_LIMIT: u64 = 1 << 24;

// ANCHOR: binomial
/// C(n, k), exactly. Small `k` (or a huge `n`) uses the multiplicative
/// formula; otherwise the prime factorisation, multiplied as a tree.
pub fn binomial(n: u64, k: u64) -> BigUint {
    if k > n {
        return BigUint::ZERO;
    }
    let k = k.min(n - k);
    if k < 64 || n > SIEVE_LIMIT {
        return multiplicative(n, k);
    }
    let factors = primes_up_to(n as usize)
        .into_iter()
        .map(|p| (p as u64, legendre(n, k, p as u64)))
        .filter(|&(_, e)| e > 0);
    product_tree(packed_powers(factors))
}

/// The exponent of the prime `p` in C(n, k) = n! / (k! (n-k)!), by
/// Legendre's formula: count the multiples of p, p², p³, ... in each
/// factorial.
fn legendre(n: u64, k: u64, p: u64) -> u32 {
    let mut exponent = 0;
    let mut power = p;
    while power <= n {
        exponent += n / power - k / power - (n - k) / power;
        power = match power.checked_mul(p) {
            Some(next) => next,
            None => break,
        };
    }
    exponent as u32
}
// ANCHOR_END: binomial

/// The primes up to `n`, by the sieve of Eratosthenes.
fn primes_up_to(n: usize) -> Vec<usize> {
    let mut composite = vec![false; n + 1];
    let mut primes = Vec::new();
    for i in 2..=n {
        if composite[i] {
            continue;
        }
        primes.push(i);
        for multiple in (i * i..=n).step_by(i) {
            composite[multiple] = true;
        }
    }
    primes
}

/// The prime powers p^e, packed several to a `u64` while they fit, so the
/// tree starts from a few thousand words rather than one leaf per prime.
fn packed_powers(factors: impl Iterator<Item = (u64, u32)>) -> Vec<BigUint> {
    let mut leaves = Vec::new();
    let mut word = 1u64;
    for (p, e) in factors {
        for _ in 0..e {
            match word.checked_mul(p) {
                Some(w) => word = w,
                None => {
                    leaves.push(BigUint::from(word));
                    word = p;
                }
            }
        }
    }
    leaves.push(BigUint::from(word));
    leaves
}

/// The product of `leaves`, multiplying neighbours pairwise so both sides
/// of every big multiplication have about the same size (which is where
/// Karatsuba and Toom-3 pay off).
fn product_tree(mut leaves: Vec<BigUint>) -> BigUint {
    while leaves.len() > 1 {
        leaves = leaves
            .chunks(2)
            .map(|pair| match pair {
                [a, b] => a * b,
                [a] => a.clone(),
                _ => unreachable!("chunks(2) yields one or two items"),
            })
            .collect();
    }
    leaves.pop().unwrap_or_else(BigUint::one)
}

// ANCHOR: multiplicative
/// C(n, k) by the multiplicative formula: after step i the running value is
/// C(n-k+i, i), an integer, so every division is exact. k big operations.
fn multiplicative(n: u64, k: u64) -> BigUint {
    let mut value = BigUint::one();
    for i in 1..=k {
        value *= n - k + i;
        value /= i;
    }
    value
}
// ANCHOR_END: multiplicative

/// [`count_exact`] through the multiplicative formula alone: the baseline
/// the benchmarks compare the factorisation against.
pub fn count_exact_multiplicative(people: u32, apples: u32) -> BigUint {
    if people == 0 {
        return BigUint::from(u8::from(apples == 0));
    }
    let slots = u64::from(apples) + u64::from(people) - 1;
    let bars = u64::from(people) - 1;
    multiplicative(slots, bars.min(slots - bars))
}
