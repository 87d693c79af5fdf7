//! minieth-crypto: Keccak-256 built on a plain Keccak-f[1600] permutation.
//!
//! `keccak_f1600` is kept out of line (`#[inline(never)]`) so that it shows up
//! as the hot leaf in a profile, like `KeccakF1600` does in real clients.

const RC: [u64; 24] = [
    0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
    0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
    0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
];

const ROTC: [u32; 24] = [
    1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44,
];

const PILN: [usize; 24] = [
    10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1,
];

/// The Keccak-f[1600] permutation (24 rounds) on a 5x5 state of 64-bit lanes.
#[inline(never)]
pub fn keccak_f1600(st: &mut [u64; 25]) {
    let mut bc = [0u64; 5];
    for rc in RC.iter() {
        // theta
        for i in 0..5 {
            bc[i] = st[i] ^ st[i + 5] ^ st[i + 10] ^ st[i + 15] ^ st[i + 20];
        }
        for i in 0..5 {
            let t = bc[(i + 4) % 5] ^ bc[(i + 1) % 5].rotate_left(1);
            for j in (0..25).step_by(5) {
                st[j + i] ^= t;
            }
        }
        // rho and pi
        let mut t = st[1];
        for i in 0..24 {
            let j = PILN[i];
            let tmp = st[j];
            st[j] = t.rotate_left(ROTC[i]);
            t = tmp;
        }
        // chi
        for j in (0..25).step_by(5) {
            bc.copy_from_slice(&st[j..j + 5]);
            for i in 0..5 {
                st[j + i] ^= (!bc[(i + 1) % 5]) & bc[(i + 2) % 5];
            }
        }
        // iota
        st[0] ^= rc;
    }
}

/// Sponge absorbing with rate 136 bytes (Keccak-256), original Keccak padding.
#[inline(never)]
pub fn keccak256(data: &[u8]) -> [u8; 32] {
    const RATE: usize = 136;
    let mut st = [0u64; 25];
    let mut chunks = data.chunks_exact(RATE);
    for block in &mut chunks {
        absorb_block(&mut st, block);
        keccak_f1600(&mut st);
    }
    let rest = chunks.remainder();
    let mut last = [0u8; RATE];
    last[..rest.len()].copy_from_slice(rest);
    last[rest.len()] ^= 0x01;
    last[RATE - 1] ^= 0x80;
    absorb_block(&mut st, &last);
    keccak_f1600(&mut st);
    let mut out = [0u8; 32];
    for (i, lane) in st.iter().take(4).enumerate() {
        out[i * 8..i * 8 + 8].copy_from_slice(&lane.to_le_bytes());
    }
    out
}

fn absorb_block(st: &mut [u64; 25], block: &[u8]) {
    for (i, lane) in block.chunks_exact(8).enumerate() {
        st[i] ^= u64::from_le_bytes(lane.try_into().unwrap());
    }
}

/// A 32-byte hash.
pub type H256 = [u8; 32];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_string() {
        let h = keccak256(b"");
        assert_eq!(
            h[..4],
            [0xc5, 0xd2, 0x46, 0x01],
            "keccak256(\"\") starts with c5d24601"
        );
    }
}
