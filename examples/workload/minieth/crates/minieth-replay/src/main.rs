//! minieth-replay: replays a synthetic "block" of transactions through the
//! toy VM, then merkleizes the resulting state; `--repeat N` runs it N times
//! and prints timing statistics, in the spirit of `ethrex-replay --repeat`.
//!
//! usage: minieth-replay [--txs N] [--repeat N]

use minieth_rlp::{encode_bytes, encode_list, encode_u64};
use minieth_trie::InMemoryTrie;
use minieth_vm::{opcodes as op, Evm, StateDb, Transaction};
use std::time::Instant;

struct Block {
    raw_txs: Vec<Vec<u8>>,
}

/// Deterministic pseudo-random bytes (xorshift).
fn prng(state: &mut u64) -> u64 {
    let mut x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    x
}

#[inline(never)]
fn build_block(ntx: usize, seed: u64) -> Block {
    let mut s = seed | 1;
    let mut raw_txs = Vec::with_capacity(ntx);
    for i in 0..ntx {
        let mut to = vec![0u8; 20];
        to[19] = (prng(&mut s) % 64) as u8; // 64 contracts
        let mut code = Vec::new();
        let iters = 8 + (prng(&mut s) % 24) as u8;
        // Prologue: hash a word into a slot (SHA3), then
        // LOOP iters: [SLOAD x4, ADD x3, PUSH k, ADD, PUSH slot, SSTORE]
        let sl: Vec<u8> = (0..6).map(|_| (prng(&mut s) % 200) as u8).collect();
        let k = (prng(&mut s) % 256) as u8;
        code.extend_from_slice(&[
            op::PUSH1, k, op::DUP1, op::MSTORE, op::MSTORE, op::SHA3, op::PUSH1, sl[5], op::SSTORE,
        ]);
        code.extend_from_slice(&[op::PUSH1, iters, op::LOOP]);
        code.extend_from_slice(&[
            op::PUSH1, sl[0], op::SLOAD, op::PUSH1, sl[1], op::SLOAD, op::PUSH1, sl[2],
            op::SLOAD, op::PUSH1, sl[3], op::SLOAD, op::ADD, op::ADD, op::ADD, op::PUSH1, k,
            op::ADD, op::PUSH1, sl[4], op::SSTORE, op::JUMPDEST,
        ]);
        let mut items = Vec::new();
        encode_u64(&mut items, i as u64);
        encode_bytes(&mut items, &to);
        encode_u64(&mut items, prng(&mut s) % 1000);
        encode_bytes(&mut items, &code);
        let mut raw = Vec::new();
        encode_list(&mut raw, &items);
        raw_txs.push(raw);
    }
    Block { raw_txs }
}

/// Prepare the pre-state: a witness-like trie filled with accounts.
#[inline(never)]
fn prepare_state(seed: u64) -> (StateDb, InMemoryTrie) {
    let mut db = StateDb::default();
    let mut witness = InMemoryTrie::new();
    let mut s = seed | 1;
    for c in 0..64u8 {
        let mut addr = vec![0u8; 20];
        addr[19] = c;
        for slot in 0..200u64 {
            let mut w = [0u8; 32];
            w[24..].copy_from_slice(&slot.to_be_bytes());
            let v = prng(&mut s);
            let mut val = [0u8; 32];
            val[24..].copy_from_slice(&v.to_be_bytes());
            db.sstore(&addr, &w, val);
        }
        witness.insert(&addr, vec![c; 32]);
    }
    (db, witness)
}

#[inline(never)]
fn add_block_pipeline(block: &Block, db: &mut StateDb, witness: &InMemoryTrie) -> (u64, [u8; 32]) {
    let mut gas = 0;
    for raw in &block.raw_txs {
        let tx = Transaction::decode(raw).expect("valid tx");
        let sender = tx.recover_sender(raw);
        let _acct = witness.get(&tx.to);
        let mut evm = Evm::new(db);
        evm.execute_tx(&sender, &tx);
        gas += evm.gas_used;
    }
    let root = db.merkleize();
    (gas, root)
}

fn main() {
    let mut ntx = 2500usize;
    let mut repeat = 8usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--txs" => ntx = args.next().and_then(|v| v.parse().ok()).unwrap_or(ntx),
            "--repeat" => repeat = args.next().and_then(|v| v.parse().ok()).unwrap_or(repeat),
            _ => {
                eprintln!("usage: minieth-replay [--txs N] [--repeat N]");
                std::process::exit(2);
            }
        }
    }
    let block = build_block(ntx, 0x5eed);
    let mut times = Vec::with_capacity(repeat);
    let mut last_root = [0u8; 32];
    let mut gas = 0;
    for _ in 0..repeat {
        let (mut db, witness) = prepare_state(0xdb);
        let t0 = Instant::now();
        let (g, root) = add_block_pipeline(&block, &mut db, &witness);
        times.push(t0.elapsed().as_secs_f64() * 1e3);
        gas = g;
        last_root = root;
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = times[times.len() / 2];
    let hex: String = last_root[..8].iter().map(|b| format!("{b:02x}")).collect();
    println!(
        "replayed {ntx} txs x{repeat}: gas={gas} root={hex}.. min={:.2}ms median={:.2}ms max={:.2}ms",
        times[0],
        median,
        times[times.len() - 1]
    );
}
