//! minieth-vm: a toy stack machine with EVM-like opcodes (PUSH, ADD, MUL,
//! SLOAD, SSTORE, SHA3, ...) over a BTreeMap-backed account storage.

use minieth_crypto::{keccak256, H256};
use minieth_rlp::{decode_list, decode_u64, RlpError};
use minieth_trie::InMemoryTrie;
use std::collections::BTreeMap;

pub mod opcodes {
    pub const STOP: u8 = 0x00;
    pub const ADD: u8 = 0x01;
    pub const MUL: u8 = 0x02;
    pub const SHA3: u8 = 0x20;
    pub const MSTORE: u8 = 0x52;
    pub const SLOAD: u8 = 0x54;
    pub const SSTORE: u8 = 0x55;
    pub const JUMPDEST: u8 = 0x5b;
    pub const PUSH1: u8 = 0x60;
    pub const DUP1: u8 = 0x80;
    pub const LOOP: u8 = 0xf0; // toy: pop n, repeat the code after it n times
}

#[derive(Debug, Clone)]
pub struct Transaction {
    pub nonce: u64,
    pub to: Vec<u8>,
    pub value: u64,
    pub code: Vec<u8>,
}

impl Transaction {
    #[inline(never)]
    pub fn decode(raw: &[u8]) -> Result<Self, RlpError> {
        let items = decode_list(raw)?;
        if items.len() != 4 {
            return Err(RlpError::BadPrefix);
        }
        Ok(Transaction {
            nonce: decode_u64(&items[0]),
            to: items[1].clone(),
            value: decode_u64(&items[2]),
            code: items[3].clone(),
        })
    }

    /// Stand-in for signature recovery: hash the raw transaction.
    #[inline(never)]
    pub fn recover_sender(&self, raw: &[u8]) -> Vec<u8> {
        let h = keccak256(raw);
        h[12..].to_vec()
    }
}

/// Account storage: (address ++ slot) -> value, kept in a BTreeMap.
#[derive(Default)]
pub struct StateDb {
    pub storage: BTreeMap<Vec<u8>, [u8; 32]>,
    pub balances: BTreeMap<Vec<u8>, u64>,
}

impl StateDb {
    #[inline(never)]
    pub fn sload(&self, addr: &[u8], slot: &H256) -> [u8; 32] {
        let key = storage_key(addr, slot);
        self.storage.get(&key).copied().unwrap_or([0; 32])
    }

    #[inline(never)]
    pub fn sstore(&mut self, addr: &[u8], slot: &H256, value: [u8; 32]) {
        let key = storage_key(addr, slot);
        self.storage.insert(key, value);
    }

    /// Build a trie of the storage and return its root (merkleization).
    #[inline(never)]
    pub fn merkleize(&self) -> H256 {
        let mut trie = InMemoryTrie::new();
        for (k, v) in &self.storage {
            trie.insert(k, v.to_vec());
        }
        for (k, v) in &self.balances {
            trie.insert(k, v.to_be_bytes().to_vec());
        }
        trie.root_hash()
    }
}

fn storage_key(addr: &[u8], slot: &H256) -> Vec<u8> {
    let mut k = Vec::with_capacity(addr.len() + 32);
    k.extend_from_slice(addr);
    k.extend_from_slice(slot);
    k
}

fn word(v: u64) -> [u8; 32] {
    let mut w = [0u8; 32];
    w[24..].copy_from_slice(&v.to_be_bytes());
    w
}

fn low64(w: &[u8; 32]) -> u64 {
    u64::from_be_bytes(w[24..].try_into().unwrap())
}

pub struct Evm<'a> {
    pub db: &'a mut StateDb,
    pub gas_used: u64,
}

impl<'a> Evm<'a> {
    pub fn new(db: &'a mut StateDb) -> Self {
        Evm { db, gas_used: 0 }
    }

    /// Execute one transaction: transfer value then run its code.
    #[inline(never)]
    pub fn execute_tx(&mut self, sender: &[u8], tx: &Transaction) {
        *self.db.balances.entry(sender.to_vec()).or_insert(1 << 40) -= tx.value;
        *self.db.balances.entry(tx.to.clone()).or_insert(0) += tx.value;
        self.run(&tx.to, &tx.code);
    }

    #[inline(never)]
    fn run(&mut self, addr: &[u8], code: &[u8]) {
        let mut stack: Vec<[u8; 32]> = Vec::with_capacity(16);
        let mut memory: Vec<u8> = Vec::new();
        let mut pc = 0usize;
        let mut loop_start = 0usize;
        let mut loops_left = 0u64;
        loop {
            if pc >= code.len() {
                if loops_left > 0 {
                    loops_left -= 1;
                    pc = loop_start;
                    continue;
                }
                break;
            }
            let op = code[pc];
            pc += 1;
            self.gas_used += 3;
            match op {
                opcodes::STOP => break,
                opcodes::PUSH1 => {
                    stack.push(word(code[pc] as u64));
                    pc += 1;
                }
                opcodes::DUP1 => {
                    let top = *stack.last().unwrap_or(&[0; 32]);
                    stack.push(top);
                }
                opcodes::ADD | opcodes::MUL => {
                    let a = low64(&stack.pop().unwrap_or([0; 32]));
                    let b = low64(&stack.pop().unwrap_or([0; 32]));
                    let r = if op == opcodes::ADD { a.wrapping_add(b) } else { a.wrapping_mul(b) };
                    stack.push(word(r));
                }
                opcodes::MSTORE => {
                    let v = stack.pop().unwrap_or([0; 32]);
                    memory.extend_from_slice(&v);
                }
                opcodes::SHA3 => {
                    self.gas_used += 30;
                    let h = op_sha3(&memory);
                    memory.clear();
                    stack.push(h);
                }
                opcodes::SLOAD => {
                    self.gas_used += 2100;
                    let slot = stack.pop().unwrap_or([0; 32]);
                    stack.push(self.db.sload(addr, &slot));
                }
                opcodes::SSTORE => {
                    self.gas_used += 5000;
                    let slot = stack.pop().unwrap_or([0; 32]);
                    let val = stack.pop().unwrap_or([0; 32]);
                    self.db.sstore(addr, &slot, val);
                }
                opcodes::LOOP => {
                    loops_left = low64(&stack.pop().unwrap_or([0; 32]));
                    loop_start = pc;
                }
                opcodes::JUMPDEST => {}
                _ => break,
            }
        }
    }
}

#[inline(never)]
fn op_sha3(memory: &[u8]) -> [u8; 32] {
    keccak256(memory)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sstore_then_sload() {
        let mut db = StateDb::default();
        let tx = Transaction {
            nonce: 0,
            to: vec![1; 20],
            value: 5,
            code: vec![opcodes::PUSH1, 7, opcodes::PUSH1, 1, opcodes::SSTORE],
        };
        let mut evm = Evm::new(&mut db);
        evm.execute_tx(&[2; 20], &tx);
        assert_eq!(low64(&db.sload(&[1; 20], &word(1))), 7);
    }
}
