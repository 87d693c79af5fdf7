#![allow(dead_code, non_snake_case, uncommon_codepoints, mixed_script_confusables, confusable_idents)]
use std::fmt::Debug;
use std::collections::HashMap;

pub struct Wrap<T, const N: usize>([T; N]);
pub struct Flag<const B: bool>;
pub struct Ch<const C: char>;
pub struct Neg<const I: i64>;
pub struct Big<const I: u128>;
pub struct Sm<const I: i8>;

pub trait Shape { type Out; fn area(&self) -> f64; fn name(&self) -> Self::Out; }
pub struct Circle(f64);
impl Shape for Circle { type Out = String; fn area(&self) -> f64 { self.0 * self.0 * 3.14 } fn name(&self) -> String { "c".into() } }

impl<T: Debug + Default + Copy, const N: usize> Wrap<T, N> {
    #[inline(never)] pub fn first(&self) -> T { self.0[0] }
}
impl<const B: bool> Flag<B> { #[inline(never)] pub fn get(&self) -> bool { B } }
impl<const C: char> Ch<C> { #[inline(never)] pub fn get(&self) -> char { C } }
impl<const I: i64> Neg<I> { #[inline(never)] pub fn get(&self) -> i64 { I } }
impl<const I: u128> Big<I> { #[inline(never)] pub fn get(&self) -> u128 { I } }
impl<const I: i8> Sm<I> { #[inline(never)] pub fn get(&self) -> i8 { I } }

pub mod größe { pub mod 日本 { #[inline(never)] pub fn çà<T: Default>() -> T { T::default() } pub struct Ünï; impl Ünï { #[inline(never)] pub fn ñ(&self) -> u8 { 7 } } } }
pub mod ascii_only { #[inline(never)] pub fn x_y_z(a: &mut dyn FnMut(u32) -> u32) -> u32 { a(3) } }

#[inline(never)] pub fn dynit(s: &dyn Shape<Out = String>) -> f64 { s.area() }
#[inline(never)] pub fn boxed(v: Vec<Box<dyn Fn(&str) -> usize + Send + Sync>>) -> usize { v.iter().map(|f| f("ab")).sum() }
#[inline(never)] pub fn hr<F>(f: F) -> usize where F: for<'a> Fn(&'a str, &'a [u8]) -> &'a str { f("x", b"y").len() }
#[inline(never)] pub fn fp(f: fn(i32, &mut [u16; 4]) -> (i8,), g: unsafe extern "C" fn(*const u8, *mut i128) -> !, h: extern "system" fn()) -> usize { f as usize + g as usize + h as usize }
#[inline(never)] pub fn tup(t: (u8, (i16, u32), [char; 2], &'static [f32], ())) -> u8 { t.0 }
#[inline(never)] pub fn gen<T: Debug, U: Clone>(t: T, u: &U) -> String { format!("{:?}", t) + &format!("{}", std::mem::size_of_val(u)) }
pub trait Tr<A> { fn go(&self, a: A) -> A; }
impl<A: Copy> Tr<A> for [u64] { #[inline(never)] fn go(&self, a: A) -> A { a } }
impl<'a, A: Copy> Tr<A> for &'a str { #[inline(never)] fn go(&self, a: A) -> A { a } }
impl Tr<*const u8> for (u8, bool) { #[inline(never)] fn go(&self, a: *const u8) -> *const u8 { a } }
extern "C" fn ec() {}
extern "system" fn es() {}
unsafe extern "C" fn nr(_: *const u8, _: *mut i128) -> ! { loop {} }
fn f1(a: i32, _b: &mut [u16; 4]) -> (i8,) { (a as i8,) }

fn main() {
    let w = Wrap::<u16, 3>([1, 2, 3]);
    let mut acc = w.first() as u64;
    acc += Flag::<true>.get() as u64 + Flag::<false>.get() as u64;
    acc += Ch::<'x'>.get() as u64 + Ch::<'\''>.get() as u64 + Ch::<'ä'>.get() as u64 + Ch::<'\n'>.get() as u64 + Ch::<'😀'>.get() as u64;
    acc += Neg::<-5>.get() as u64 + Neg::<{i64::MIN}>.get() as u64 + Neg::<0>.get() as u64;
    acc += Big::<{u128::MAX}>.get() as u64 + Big::<{1u128 << 70}>.get() as u64 + Sm::<{-128}>.get() as u64;
    acc += größe::日本::çà::<u8>() as u64 + größe::日本::Ünï.ñ() as u64;
    let mut k = 5;
    acc += ascii_only::x_y_z(&mut |x| { k += x; k }) as u64;
    acc += dynit(&Circle(2.0)) as u64;
    acc += boxed(vec![Box::new(|s: &str| s.len()), Box::new(move |s: &str| s.len() + 1)]) as u64;
    acc += hr(|a, _b| a) as u64;
    acc += fp(f1, nr, es) as u64 + (ec as usize) as u64;
    acc += tup((1, (2, 3), ['a', 'b'], &[1.0], ())) as u64;
    acc += gen(vec![Some(1u8)], &HashMap::<String, Vec<(i32, f64)>>::new()).len() as u64;
    acc += gen((), &[0u8; 7]).len() as u64;
    acc += [1u64, 2].as_slice().go(3u32) as u64 + "s".go(1i8) as u64 + ((1u8, true).go(std::ptr::null()) as usize as u64);
    let c = || { let d = |x: u8| x + 1; d(2) };
    acc += c() as u64;
    let it: Box<dyn Iterator<Item = u32>> = Box::new((0..3u32).map(|x| x * 2));
    acc += it.sum::<u32>() as u64;
    std::process::exit((acc % 2) as i32);
}
