// main.rs - Rust fixture for the perf.data tests: generics, closures,
// a module, a trait.
mod m {
    pub trait Step {
        fn step(&self, x: u64) -> u64;
    }
    pub struct Lcg(pub u64);
    impl Step for Lcg {
        #[inline(never)]
        fn step(&self, x: u64) -> u64 {
            let mut v = x;
            for _ in 0..300 {
                v = v.wrapping_mul(self.0).wrapping_add(1442695040888963407);
            }
            v
        }
    }
    #[inline(never)]
    pub fn work<T: Step>(s: &T, n: u64) -> u64 {
        (0..n).fold(0u64, |a, i| a ^ s.step(i))
    }
}

#[inline(never)]
fn run<F: Fn(u64) -> u64>(f: F, n: u64) -> u64 {
    let mut v: Vec<u64> = (0..n).map(|i| f(i)).collect();
    v.sort();
    v.iter().sum()
}

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(300);
    let l = m::Lcg(6364136223846793005);
    let mut t = 0u64;
    for r in 0..n {
        t = t.wrapping_add(m::work(&l, 200));
        t = t.wrapping_add(run(|i| m::work(&l, i % 7 + r % 3), 300));
    }
    println!("{}", t);
}
