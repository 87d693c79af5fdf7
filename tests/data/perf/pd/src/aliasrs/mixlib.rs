// mixlib.rs - a library crate whose two public functions have the same
// body, so LLVM merges them into one address with two global symbols (as
// Rust's std has <u64 as Display>::fmt and <usize as Display>::fmt).  The
// names are chosen so that the longer mangled name is not the longer
// demangled one: perf, which compares them demangled, keeps aa::...::ee.
pub mod aa { pub mod bb { pub mod cc { pub mod dd { pub mod ee {
    #[inline(never)]
    pub fn ff(mut x: u64) -> u64 {
        for _ in 0..256 { x ^= x >> 31; x = x.wrapping_mul(0x9e3779b97f4a7c15); x ^= x << 7; }
        x
    }
} } } } }
#[inline(never)]
pub fn abcdefghijklmnopqrs(mut x: u64) -> u64 {
    for _ in 0..256 { x ^= x >> 31; x = x.wrapping_mul(0x9e3779b97f4a7c15); x ^= x << 7; }
    x
}
