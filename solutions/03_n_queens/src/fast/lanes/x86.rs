//! The two lane widths of x86-64 behind the lanes' [`Lanes`] trait.
//!
//! The problem: the lanes' step is written once, over a vector type; here
//! are the two vector types x86-64 offers it, 16 lanes of AVX-512 and 8 of
//! AVX2, each operation one intrinsic, and the two entry points compiled
//! with those features. The state is one register per value. The cost is
//! about one instruction per operation, except AVX2's compress, which
//! has no instruction: a permutation read from a 256-entry table (8 KB).
//!
//! Every `unsafe` block here calls intrinsics. They are sound because
//! these types are private and their methods run only inlined into
//! [`count_avx512`] and [`count_avx2`], which [`super::count_with`] calls
//! only after detecting every feature they enable; loads and stores go
//! through slices of at least `N` lanes (sliced first, so an overrun
//! panics instead). Stable Rust has no safe portable SIMD, so there is no
//! safe version to measure them against; the scalar walks are the
//! comparison (the book's fast-end page).
#![allow(unsafe_code)]

use super::{Lanes, Next, Plan, Start, count_lanes};
use std::arch::x86_64::*;

/// AVX-512F for the lanes; POPCNT, BMI1 and LZCNT for the scalar
/// bookkeeping around them (without them a lane count is a dozen
/// instructions).
pub(super) fn has_avx512() -> bool {
    is_x86_feature_detected!("avx512f") && has_scalar()
}

pub(super) fn has_avx2() -> bool {
    is_x86_feature_detected!("avx2") && has_scalar()
}

fn has_scalar() -> bool {
    is_x86_feature_detected!("popcnt")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("lzcnt")
}

#[target_feature(enable = "avx512f,popcnt,bmi1,lzcnt")]
pub(super) fn count_avx512(plans: &[(Plan, bool)], starts: &[(usize, Start)], next: Next) -> u64 {
    count_lanes::<Avx512>(plans, starts, next)
}

#[target_feature(enable = "avx2,popcnt,bmi1,lzcnt")]
pub(super) fn count_avx2(plans: &[(Plan, bool)], starts: &[(usize, Start)], next: Next) -> u64 {
    count_lanes::<Avx2>(plans, starts, next)
}

#[derive(Clone, Copy)]
pub(super) struct Avx512(__m512i);

impl Lanes for Avx512 {
    const N: usize = 16;
    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: see the module's doc.
        Avx512(unsafe { _mm512_set1_epi32(x as i32) })
    }
    #[inline(always)]
    fn load(src: &[u32]) -> Self {
        let src = &src[..16];
        // SAFETY: see the module's doc; `src` holds 16 lanes.
        Avx512(unsafe { _mm512_loadu_si512(src.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32]) {
        let dst = &mut dst[..16];
        // SAFETY: see the module's doc; `dst` holds 16 lanes.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn compress_store(self, mask: u32, dst: &mut [u32]) {
        // A compress in a register, then a plain store: the compress
        // straight to memory is microcoded and slow on some cores.
        // SAFETY: see the module's doc.
        Avx512(unsafe { _mm512_maskz_compress_epi32(mask as u16, self.0) }).store(dst)
    }
    #[inline(always)]
    fn and(self, b: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx512(unsafe { _mm512_and_si512(self.0, b.0) })
    }
    #[inline(always)]
    fn or(self, b: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx512(unsafe { _mm512_or_si512(self.0, b.0) })
    }
    #[inline(always)]
    fn xor(self, b: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx512(unsafe { _mm512_xor_si512(self.0, b.0) })
    }
    #[inline(always)]
    fn andnot(self, b: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx512(unsafe { _mm512_andnot_si512(self.0, b.0) })
    }
    #[inline(always)]
    fn neg(self) -> Self {
        // SAFETY: see the module's doc.
        Avx512(unsafe { _mm512_sub_epi32(_mm512_setzero_si512(), self.0) })
    }
    #[inline(always)]
    fn shl1(self) -> Self {
        // SAFETY: see the module's doc.
        Avx512(unsafe { _mm512_slli_epi32::<1>(self.0) })
    }
    #[inline(always)]
    fn shr1(self) -> Self {
        // SAFETY: see the module's doc.
        Avx512(unsafe { _mm512_srli_epi32::<1>(self.0) })
    }
    #[inline(always)]
    fn shlv(self, count: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx512(unsafe { _mm512_sllv_epi32(self.0, count.0) })
    }
    #[inline(always)]
    fn shrv(self, count: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx512(unsafe { _mm512_srlv_epi32(self.0, count.0) })
    }
    #[inline(always)]
    fn nonzero(self) -> u32 {
        // SAFETY: see the module's doc.
        u32::from(unsafe { _mm512_test_epi32_mask(self.0, self.0) })
    }
    #[inline(always)]
    fn pick(self, idx: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx512(unsafe { _mm512_permutexvar_epi32(idx.0, self.0) })
    }
    #[inline(always)]
    fn log2(self) -> Self {
        // The float's exponent is the index of the top bit, plus 127.
        // SAFETY: see the module's doc.
        Avx512(unsafe {
            let exponent = _mm512_srli_epi32::<23>(_mm512_castps_si512(_mm512_cvtepi32_ps(self.0)));
            _mm512_sub_epi32(exponent, _mm512_set1_epi32(127))
        })
    }
}

#[derive(Clone, Copy)]
pub(super) struct Avx2(__m256i);

/// For each 8-bit mask, the lanes it keeps, packed low: AVX2 has no
/// compress, so a permutation from this table does its work.
static PACK: [[u32; 8]; 256] = {
    let mut table = [[0u32; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut lane, mut at) = (0, 0);
        while lane < 8 {
            if mask >> lane & 1 != 0 {
                table[mask][at] = lane as u32;
                at += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};

impl Lanes for Avx2 {
    const N: usize = 8;
    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: see the module's doc.
        Avx2(unsafe { _mm256_set1_epi32(x as i32) })
    }
    #[inline(always)]
    fn load(src: &[u32]) -> Self {
        let src = &src[..8];
        // SAFETY: see the module's doc; `src` holds 8 lanes.
        Avx2(unsafe { _mm256_loadu_si256(src.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32]) {
        let dst = &mut dst[..8];
        // SAFETY: see the module's doc; `dst` holds 8 lanes.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn compress_store(self, mask: u32, dst: &mut [u32]) {
        let order = Avx2::load(&PACK[mask as usize & 255]);
        self.pick(order).store(dst)
    }
    #[inline(always)]
    fn and(self, b: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx2(unsafe { _mm256_and_si256(self.0, b.0) })
    }
    #[inline(always)]
    fn or(self, b: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx2(unsafe { _mm256_or_si256(self.0, b.0) })
    }
    #[inline(always)]
    fn xor(self, b: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx2(unsafe { _mm256_xor_si256(self.0, b.0) })
    }
    #[inline(always)]
    fn andnot(self, b: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx2(unsafe { _mm256_andnot_si256(self.0, b.0) })
    }
    #[inline(always)]
    fn neg(self) -> Self {
        // SAFETY: see the module's doc.
        Avx2(unsafe { _mm256_sub_epi32(_mm256_setzero_si256(), self.0) })
    }
    #[inline(always)]
    fn shl1(self) -> Self {
        // SAFETY: see the module's doc.
        Avx2(unsafe { _mm256_slli_epi32::<1>(self.0) })
    }
    #[inline(always)]
    fn shr1(self) -> Self {
        // SAFETY: see the module's doc.
        Avx2(unsafe { _mm256_srli_epi32::<1>(self.0) })
    }
    #[inline(always)]
    fn shlv(self, count: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx2(unsafe { _mm256_sllv_epi32(self.0, count.0) })
    }
    #[inline(always)]
    fn shrv(self, count: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx2(unsafe { _mm256_srlv_epi32(self.0, count.0) })
    }
    #[inline(always)]
    fn nonzero(self) -> u32 {
        // SAFETY: see the module's doc.
        let zero = unsafe {
            let eq = _mm256_cmpeq_epi32(self.0, _mm256_setzero_si256());
            _mm256_movemask_ps(_mm256_castsi256_ps(eq))
        };
        !(zero as u32) & 0xff
    }
    #[inline(always)]
    fn pick(self, idx: Self) -> Self {
        // SAFETY: see the module's doc.
        Avx2(unsafe { _mm256_permutevar8x32_epi32(self.0, idx.0) })
    }
    #[inline(always)]
    fn log2(self) -> Self {
        // The float's exponent is the index of the top bit, plus 127.
        // SAFETY: see the module's doc.
        Avx2(unsafe {
            let exponent = _mm256_srli_epi32::<23>(_mm256_castps_si256(_mm256_cvtepi32_ps(self.0)));
            _mm256_sub_epi32(exponent, _mm256_set1_epi32(127))
        })
    }
}
