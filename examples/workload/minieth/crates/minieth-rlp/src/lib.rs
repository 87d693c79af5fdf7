//! minieth-rlp: a small Recursive Length Prefix encoder/decoder.

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RlpError {
    Truncated,
    BadPrefix,
}

/// Encode a byte string.
pub fn encode_bytes(out: &mut Vec<u8>, data: &[u8]) {
    if data.len() == 1 && data[0] < 0x80 {
        out.push(data[0]);
    } else {
        encode_len(out, data.len(), 0x80);
        out.extend_from_slice(data);
    }
}

/// Encode an integer as a minimal big-endian byte string.
pub fn encode_u64(out: &mut Vec<u8>, v: u64) {
    let b = v.to_be_bytes();
    let skip = b.iter().take_while(|&&x| x == 0).count();
    encode_bytes(out, &b[skip..]);
}

/// Wrap already-encoded items into a list.
pub fn encode_list(out: &mut Vec<u8>, payload: &[u8]) {
    encode_len(out, payload.len(), 0xc0);
    out.extend_from_slice(payload);
}

fn encode_len(out: &mut Vec<u8>, len: usize, base: u8) {
    if len < 56 {
        out.push(base + len as u8);
    } else {
        let b = (len as u64).to_be_bytes();
        let skip = b.iter().take_while(|&&x| x == 0).count();
        out.push(base + 55 + (8 - skip) as u8);
        out.extend_from_slice(&b[skip..]);
    }
}

/// Decode the item at the start of `buf`: returns (is_list, payload, rest).
#[inline(never)]
pub fn get_item_with_prefix(buf: &[u8]) -> Result<(bool, &[u8], &[u8]), RlpError> {
    let (&p, tail) = buf.split_first().ok_or(RlpError::Truncated)?;
    let (is_list, hdr, len) = match p {
        0x00..=0x7f => return Ok((false, &buf[..1], tail)),
        0x80..=0xb7 => (false, 0usize, (p - 0x80) as usize),
        0xb8..=0xbf => {
            let n = (p - 0xb7) as usize;
            (false, n, read_be(tail, n)?)
        }
        0xc0..=0xf7 => (true, 0usize, (p - 0xc0) as usize),
        0xf8..=0xff => {
            let n = (p - 0xf7) as usize;
            (true, n, read_be(tail, n)?)
        }
    };
    let body = tail.get(hdr..).ok_or(RlpError::Truncated)?;
    if body.len() < len {
        return Err(RlpError::Truncated);
    }
    Ok((is_list, &body[..len], &body[len..]))
}

fn read_be(buf: &[u8], n: usize) -> Result<usize, RlpError> {
    if n > 8 {
        return Err(RlpError::BadPrefix);
    }
    let b = buf.get(..n).ok_or(RlpError::Truncated)?;
    Ok(b.iter().fold(0usize, |acc, &x| (acc << 8) | x as usize))
}

/// Decode a list payload into its items (each item as raw payload bytes).
#[inline(never)]
pub fn decode_list(buf: &[u8]) -> Result<Vec<Vec<u8>>, RlpError> {
    let (is_list, mut payload, _) = get_item_with_prefix(buf)?;
    if !is_list {
        return Err(RlpError::BadPrefix);
    }
    let mut items = Vec::new();
    while !payload.is_empty() {
        let (_, item, rest) = get_item_with_prefix(payload)?;
        items.push(item.to_vec());
        payload = rest;
    }
    Ok(items)
}

/// Decode a minimal big-endian integer.
pub fn decode_u64(b: &[u8]) -> u64 {
    b.iter().fold(0u64, |acc, &x| (acc << 8) | x as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip() {
        let mut items = Vec::new();
        encode_u64(&mut items, 1024);
        encode_bytes(&mut items, b"dog");
        let mut out = Vec::new();
        encode_list(&mut out, &items);
        let got = decode_list(&out).unwrap();
        assert_eq!(decode_u64(&got[0]), 1024);
        assert_eq!(got[1], b"dog");
    }
}
