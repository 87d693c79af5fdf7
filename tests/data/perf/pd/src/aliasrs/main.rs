// main.rs - formats u64 and usize numbers (std's merged Display::fmt) and
// calls mixlib's two merged functions, in a loop.
use std::fmt::Write;
use std::hint::black_box;

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200000);
    let f: [fn(u64) -> u64; 2] = [mixlib::aa::bb::cc::dd::ee::ff, mixlib::abcdefghijklmnopqrs];
    let mut s = String::new();
    let mut t = 0u64;
    for i in 0..n {
        t = t.wrapping_add(black_box(f[(i & 1) as usize])(i));
        s.clear();
        write!(s, "{}", black_box(i * 7919)).unwrap();
        write!(s, "{}", black_box((i * 31) as usize)).unwrap();
        t = t.wrapping_add(s.len() as u64);
    }
    println!("{}", t);
}
