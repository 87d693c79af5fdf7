// rswork.rs - a small Rust workload for the demangling fixtures (v0 and legacy
// symbol mangling): a generic function, a trait method, a closure.
use std::hint::black_box;
trait Shape { fn area(&self) -> f64; }
struct Sq(f64);
impl Shape for Sq { #[inline(never)] fn area(&self) -> f64 { let mut a = 0.0; for i in 0..200 { a += black_box(self.0 * i as f64); } a } }
#[inline(never)]
fn work<T: Copy + Into<f64>>(v: &[T]) -> f64 { let mut s = 0.0; for _ in 0..50 { for &x in v { s += black_box(x.into()); } } s }
fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let v: Vec<u32> = (0..1000).collect();
    let f = |k: usize| -> f64 { Sq(k as f64).area() };
    let mut t = 0.0;
    for k in 0..n { t += work(&v); t += f(k); }
    println!("{}", t);
}
