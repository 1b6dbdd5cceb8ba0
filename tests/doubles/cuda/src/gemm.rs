//! The matrix multiply cuBLAS would run on the GPU, on the CPU: column-major, `op(A)` and
//! `op(B)` as the transpose flags say, FP32 with FP32 accumulation or FP16 with FP16
//! accumulation (each partial sum rounded to half, as `CUBLAS_COMPUTE_16F` accumulates).

use crate::half;

/// The shape of one call, as cuBLAS takes it.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub trans_a: bool,
    pub trans_b: bool,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub lda: usize,
    pub ldb: usize,
    pub ldc: usize,
}

impl Shape {
    /// Elements of A, B and C the call touches, counted from each matrix's start.
    pub fn extents(&self) -> (usize, usize, usize) {
        let span = |rows: usize, cols: usize, ld: usize| {
            if rows == 0 || cols == 0 {
                0
            } else {
                ld * (cols - 1) + rows
            }
        };
        let (ar, ac) = if self.trans_a {
            (self.k, self.m)
        } else {
            (self.m, self.k)
        };
        let (br, bc) = if self.trans_b {
            (self.n, self.k)
        } else {
            (self.k, self.n)
        };
        (
            span(ar, ac, self.lda),
            span(br, bc, self.ldb),
            span(self.m, self.n, self.ldc),
        )
    }

    fn a(&self, i: usize, l: usize) -> usize {
        if self.trans_a {
            l + i * self.lda
        } else {
            i + l * self.lda
        }
    }

    fn b(&self, l: usize, j: usize) -> usize {
        if self.trans_b {
            j + l * self.ldb
        } else {
            l + j * self.ldb
        }
    }
}

/// C = alpha · op(A) · op(B) + beta · C in FP32.
pub fn sgemm(s: &Shape, alpha: f32, a: &[f32], b: &[f32], beta: f32, c: &mut [f32]) {
    for j in 0..s.n {
        for i in 0..s.m {
            let mut acc = 0.0f32;
            for l in 0..s.k {
                acc = a[s.a(i, l)].mul_add(b[s.b(l, j)], acc);
            }
            let out = &mut c[i + j * s.ldc];
            // beta 0 overwrites whatever C held (NaN included), as BLAS defines it.
            *out = if beta == 0.0 {
                alpha * acc
            } else {
                alpha * acc + beta * *out
            };
        }
    }
}

/// C = alpha · op(A) · op(B) + beta · C on halves, every step rounded to half.
pub fn hgemm(s: &Shape, alpha: u16, a: &[u16], b: &[u16], beta: u16, c: &mut [u16]) {
    let round = |x: f32| half::to_f32(half::from_f32(x));
    let (alpha, beta) = (half::to_f32(alpha), half::to_f32(beta));
    for j in 0..s.n {
        for i in 0..s.m {
            let mut acc = 0.0f32;
            for l in 0..s.k {
                let p = round(half::to_f32(a[s.a(i, l)]) * half::to_f32(b[s.b(l, j)]));
                acc = round(acc + p);
            }
            let out = &mut c[i + j * s.ldc];
            let v = if beta == 0.0 {
                alpha * acc
            } else {
                round(alpha * acc) + beta * half::to_f32(*out)
            };
            *out = half::from_f32(v);
        }
    }
}
