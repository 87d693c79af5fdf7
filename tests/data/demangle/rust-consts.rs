#![feature(adt_const_params, unsized_const_params)]
#![allow(incomplete_features, dead_code)]
use std::marker::ConstParamTy;
#[derive(PartialEq, Eq, ConstParamTy)] pub struct P { a: u8, b: bool }
#[derive(PartialEq, Eq, ConstParamTy)] pub enum E { X, Y(u16), Z { c: char } }
pub struct S<const T: &'static str>;
impl<const T: &'static str> S<T> { #[inline(never)] pub fn get(&self) -> &'static str { T } }
pub struct Q<const V: P>;
impl<const V: P> Q<V> { #[inline(never)] pub fn get(&self) -> u8 { V.a } }
pub struct R2<const V: E>;
impl<const V: E> R2<V> { #[inline(never)] pub fn get(&self) -> u8 { 1 } }
pub struct A<const V: [u8; 3]>;
impl<const V: [u8; 3]> A<V> { #[inline(never)] pub fn get(&self) -> u8 { V[0] } }
pub struct T2<const V: (u8, char)>;
impl<const V: (u8, char)> T2<V> { #[inline(never)] pub fn get(&self) -> u8 { V.0 } }
async fn af(x: u32) -> u32 { x + 1 }
pub fn main() {
    let mut n = S::<"hi there">.get().len() + S::<"ünï">.get().len();
    n += Q::<{ P { a: 3, b: true } }>.get() as usize + R2::<{ E::X }>.get() as usize + R2::<{ E::Y(5) }>.get() as usize + R2::<{ E::Z { c: 'q' } }>.get() as usize;
    n += A::<{ [1, 2, 3] }>.get() as usize + T2::<{ (7, 'x') }>.get() as usize;
    let fut = af(3); std::mem::drop(fut);
    let g = async { 5 }; std::mem::drop(g);
    std::process::exit(n as i32 % 2);
}
