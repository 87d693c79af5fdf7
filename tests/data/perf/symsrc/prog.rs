// prog.rs - Rust symbols (legacy mangling), generics and closures.
use std::hint::black_box;

#[inline(never)]
fn sum<T: Copy + std::ops::Add<Output = T>>(v: &[T], zero: T) -> T {
    let mut s = zero;
    for &x in v {
        s = s + black_box(x);
    }
    s
}

struct Worker {
    k: u64,
}

impl Worker {
    #[inline(never)]
    fn run(&self, n: u64) -> u64 {
        let mut s = 0u64;
        for i in 0..n {
            s = s.wrapping_add(black_box(i * self.k));
        }
        s
    }
}

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let vi = vec![3u64; 20000];
    let vf = vec![1.5f64; 20000];
    let w = Worker { k: 7 };
    let lam = |m: u64| -> u64 {
        let mut s = 0u64;
        for i in 0..m {
            s ^= black_box(i * 5);
        }
        s
    };
    let mut acc = 0u64;
    for _ in 0..n {
        acc = acc.wrapping_add(sum(&vi, 0u64));
        acc = acc.wrapping_add(sum(&vf, 0.0f64) as u64);
        acc = acc.wrapping_add(black_box(&lam)(20000));
        acc = acc.wrapping_add(w.run(20000));
    }
    println!("{}", acc);
}
