// rust.rs - recorded under callgrind by tests/stackcollapse-callgrind.bats:
// Rust names (a module, a generic, a trait method, a closure).
use std::hint::black_box;

mod calc {
    pub trait Area {
        fn area(&self, k: u64) -> u64;
    }
    pub struct Square(pub u64);
    impl Area for Square {
        #[inline(never)]
        fn area(&self, k: u64) -> u64 {
            let mut a = 0;
            for i in 0..k {
                a += self.0 * self.0 + i;
            }
            a
        }
    }
    #[inline(never)]
    pub fn total<T: Copy + std::ops::Add<Output = T> + Default>(v: &[T]) -> T {
        v.iter().fold(T::default(), |a, &x| a + x)
    }
}

#[inline(never)]
fn fib(n: u64) -> u64 {
    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }
}

fn main() {
    use calc::Area;
    let s = calc::Square(black_box(3));
    let v: Vec<u64> = vec![2; black_box(500)];
    let mut x = s.area(black_box(400));
    x += calc::total(&v);
    x += fib(black_box(12));
    black_box(x);
}
