//! minieth-trie: an in-memory key/value "trie" backed by a BTreeMap, with a
//! Merkle-style root computed by hashing RLP-encoded nodes.

use minieth_crypto::{keccak256, H256};
use minieth_rlp::{encode_bytes, encode_list};
use std::collections::BTreeMap;

#[derive(Default, Clone)]
pub struct InMemoryTrie {
    nodes: BTreeMap<Vec<u8>, Vec<u8>>,
}

impl InMemoryTrie {
    pub fn new() -> Self {
        Self::default()
    }

    #[inline(never)]
    pub fn insert(&mut self, key: &[u8], value: Vec<u8>) {
        let path = Self::hashed_path(key);
        self.nodes.insert(path, value);
    }

    #[inline(never)]
    pub fn get(&self, key: &[u8]) -> Option<&Vec<u8>> {
        let path = Self::hashed_path(key);
        self.nodes.get(&path)
    }

    /// Short keys (account addresses) are stored under keccak(key), as in a
    /// secure trie; long keys (storage keys, already hashed slots) as is.
    fn hashed_path(key: &[u8]) -> Vec<u8> {
        if key.len() <= 32 {
            keccak256(key).to_vec()
        } else {
            key.to_vec()
        }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Hash every (path, value) leaf, then fold the leaf hashes pairwise up
    /// to a single root.
    #[inline(never)]
    pub fn root_hash(&self) -> H256 {
        let mut level: Vec<H256> = self.nodes.iter().map(|(k, v)| hash_leaf(k, v)).collect();
        if level.is_empty() {
            return keccak256(&[0x80]);
        }
        while level.len() > 1 {
            level = level.chunks(2).map(hash_branch).collect();
        }
        level[0]
    }
}

#[inline(never)]
fn hash_leaf(path: &[u8], value: &[u8]) -> H256 {
    let mut payload = Vec::with_capacity(path.len() + value.len() + 8);
    encode_bytes(&mut payload, path);
    encode_bytes(&mut payload, value);
    let mut node = Vec::with_capacity(payload.len() + 4);
    encode_list(&mut node, &payload);
    keccak256(&node)
}

#[inline(never)]
fn hash_branch(children: &[H256]) -> H256 {
    let mut payload = Vec::with_capacity(70);
    for c in children {
        encode_bytes(&mut payload, c);
    }
    let mut node = Vec::with_capacity(payload.len() + 4);
    encode_list(&mut node, &payload);
    keccak256(&node)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_root() {
        let mut t = InMemoryTrie::new();
        t.insert(b"a", vec![1]);
        t.insert(b"b", vec![2]);
        assert_eq!(t.get(b"a"), Some(&vec![1]));
        let r1 = t.root_hash();
        t.insert(b"b", vec![3]);
        assert_ne!(r1, t.root_hash());
    }
}
