#!/usr/bin/env python3
# mkhandmade.py OUT [64]: a small ELF64 x86-64 file whose only contents
# are hand-written .eh_frame, .eh_frame_hdr and .debug_frame sections in
# the rarer forms of call frame information (see README).  With 64, CIE B
# and FDE B1 of .eh_frame are in 64-bit DWARF (CIE id and pointer 4 bytes,
# as the LSB has them: readelf reads 8 and cannot follow).
import struct, sys

def uleb(v):
    out = b''
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])

def sleb(v):
    out = b''
    while True:
        b = v & 0x7f
        v >>= 7
        if (v == 0 and not b & 0x40) or (v == -1 and b & 0x40):
            return out + bytes([b])
        out += bytes([b | 0x80])

def pad(body, align, dw64):
    hdr = 12 if dw64 else 4
    while (len(body) + hdr) % align:
        body += b'\0'        # DW_CFA_nop
    return body

def entry(body, dw64=False, align=8):
    body = pad(body, align, dw64)
    if dw64:
        return struct.pack('<IQ', 0xffffffff, len(body)) + body
    return struct.pack('<I', len(body)) + body

EH, HDR = 0x10000, 0x20000
B64 = len(sys.argv) > 2 and sys.argv[2] == '64'
BHDR = 12 if B64 else 4
eh = b''
fdes = []      # (pc, offset in .eh_frame)

# CIE A: version 1, "eh" (old GCC: a pointer after the string), no 'z':
# FDE addresses absolute, 8 bytes
ciea = len(eh)
eh += entry(struct.pack('<I', 0) + b'\x01eh\0' + struct.pack('<Q', 0) +
    uleb(1) + sleb(-8) + bytes([16]) +
    bytes([0x0c, 7, 8, 0x90, 1]))             # def_cfa rsp+8, offset rip
# FDE A1: advance_loc (packed, 1, 2, 4), remember/restore, set_loc
off = len(eh)
ins = bytes([0x44, 0x0e, 16, 0x86, 2,        # adv 4, cfa_off 16, rbp c-16
    0x02, 0x10, 0x0a, 0x0d, 6,               # adv1 16, remember, cfa rbp
    0x03]) + struct.pack('<H', 0x20) + bytes([0x83, 3,   # adv2, rbx c-24
    0x04]) + struct.pack('<I', 0x30) + bytes([0x0b,      # adv4, restore
    0x01]) + struct.pack('<Q', 0x4000a0) + bytes([0x07, 3,  # set_loc, undef
    0xc6, 0x08, 12, 0x09, 13, 12])           # restore rbp, same r12, r13 in r12
fdes.append((0x400000, off))
eh += entry(struct.pack('<I', off + 4 - ciea) + struct.pack('<QQ', 0x400000, 0x100) + ins)

# CIE B: version 3 (return column a ULEB128), "zR" udata8, code
# alignment 4
cieb = len(eh)
eh += entry(struct.pack('<I', 0) + b'\x03zR\0' + uleb(4) + sleb(-4) +
    uleb(16) + uleb(1) + bytes([0x04]) +
    bytes([0x0c, 7, 8, 0x05, 16, 2]), dw64=B64)    # offset_extended rip
# FDE B1
off = len(eh)
ins = bytes([0x41, 0x12, 6]) + sleb(-4) + bytes([      # adv 4, def_cfa_sf rbp+16
    0x14, 3, 4, 0x42, 0x15, 12]) + sleb(-6) + bytes([  # val_offset rbx, val_offset_sf r12
    0x11, 13]) + sleb(-2) + bytes([0x43,               # offset_extended_sf r13
    0x2f, 14, 3, 0x2e, 0x20,                           # GNU_negative_offset r14, args_size
    0x13]) + sleb(-6) + bytes([0x41, 0x2d, 0x06, 14])  # def_cfa_offset_sf, window_save, restore_extended
fdes.append((0x401000, off))
eh += entry(struct.pack('<I', off + BHDR - cieb) + struct.pack('<QQ', 0x401000, 0x40) +
    uleb(0) + ins, dw64=B64)

# CIE C: "zPLR": personality indirect pcrel sdata4, LSDA pcrel sdata8,
# FDE addresses pcrel sdata8
ciec = len(eh)
body = struct.pack('<I', 0) + b'\x01zPLR\0' + uleb(1) + sleb(-8) + bytes([16])
augd = bytes([0x9b]) + struct.pack('<i', 0x1234) + bytes([0x1c, 0x1c])
eh += entry(body + uleb(len(augd)) + augd + bytes([0x0c, 7, 8, 0x90, 1]))
# FDE C1: an LSDA pointer in its augmentation data; expressions
off = len(eh)
here = EH + off + 8
expr = bytes([0x77, 8, 0x80, 0, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22])
ins = bytes([0x0f, len(expr)]) + expr + bytes([0x48,
    0x10, 3, 2, 0x77, 0x10, 0x16, 6, 2, 0x76, 0,       # expression rbx, val_expression rbp
    0x48, 0x0c, 7, 8])
body = (struct.pack('<I', off + 4 - ciec) + struct.pack('<q', 0x402000 - here) +
    struct.pack('<Q', 0x30) + uleb(8) + struct.pack('<q', 0x5000) + ins)
fdes.append((0x402000, off))
eh += entry(body)

# CIE D: "zRS" (a signal frame), FDE addresses udata4 absolute
cied = len(eh)
eh += entry(struct.pack('<I', 0) + b'\x01zRS\0' + uleb(1) + sleb(-8) +
    bytes([16]) + uleb(1) + bytes([0x03]) + bytes([0x0c, 7, 160, 1, 0x90, 2]))
off = len(eh)
fdes.append((0x402100, off))
eh += entry(struct.pack('<I', off + 4 - cied) + struct.pack('<II', 0x402100, 0x10) +
    uleb(0) + bytes([0x42, 0x0c, 6, 0x10]))
eh += struct.pack('<I', 0)                    # terminator

# .eh_frame_hdr: version 1, eh_frame_ptr pcrel sdata4, count udata4,
# table datarel sdata4
hdr = bytes([1, 0x1b, 0x03, 0x3b]) + struct.pack('<iI', EH - (HDR + 4), len(fdes))
for pc, o in sorted(fdes):
    hdr += struct.pack('<ii', pc - HDR, EH + o - HDR)

# .debug_frame: a 64-bit DWARF CIE (id all ones), version 3; a version 4
# CIE (with 64: 4-byte addresses); a version 1 CIE
df = b''
cie = len(df)
df += entry(struct.pack('<Q', 0xffffffffffffffff) + b'\x03\0' + uleb(1) +
    sleb(-8) + uleb(16) + bytes([0x0c, 7, 8, 0x90, 1]), dw64=True)
df += entry(struct.pack('<Q', cie) + struct.pack('<QQ', 0x403000, 0x20) +
    bytes([0x41, 0x0e, 16, 0x86, 2, 0x50, 0x0e, 8]), dw64=True)
cie = len(df)
asz = 4 if B64 else 8       # readelf takes the file's size, not the CIE's
df += entry(struct.pack('<I', 0xffffffff) + b'\x04\0' + bytes([asz, 0]) +
    uleb(1) + sleb(-8) + uleb(16) + bytes([0x0c, 7, 8, 0x90, 1]))
df += entry(struct.pack('<I', cie) + struct.pack('<II' if B64 else '<QQ',
    0x404000, 0x10) + bytes([0x42, 0x0e, 24, 0x83, 3]))
cie = len(df)
df += entry(struct.pack('<I', 0xffffffff) + b'\x01\0' + uleb(1) +
    sleb(-8) + bytes([16]) + bytes([0x0c, 7, 8, 0x90, 1]))
df += entry(struct.pack('<I', cie) + struct.pack('<QQ', 0x405000, 0x08) +
    bytes([0x41, 0x0e, 16, 0x0a, 0x41, 0x0e, 32, 0x41, 0x0b]))

# the ELF file: header, sections, section headers
names = b'\0.eh_frame\0.eh_frame_hdr\0.debug_frame\0.shstrtab\0'
secs = [('.eh_frame', 1, 2, EH, eh, 8), ('.eh_frame_hdr', 1, 2, HDR, hdr, 4),
    ('.debug_frame', 1, 0, 0, df, 8), ('.shstrtab', 3, 0, 0, names, 1)]
data = b''
offs = []
pos = 64
for s in secs:
    while (pos + len(data)) % 8:
        data += b'\0'
    offs.append(pos + len(data))
    data += s[4]
while (pos + len(data)) % 8:
    data += b'\0'
shoff = pos + len(data)
sh = b'\0' * 64
for s, o in zip(secs, offs):
    sh += struct.pack('<IIQQQQIIQQ', names.index(s[0].encode() + b'\0'),
        s[1], s[2], s[3], o, len(s[4]), 0, 0, s[5], 0)
ehdr = b'\x7fELF\x02\x01\x01' + b'\0' * 9 + struct.pack('<HHIQQQIHHHHHH',
    2, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, len(secs) + 1, len(secs))
open(sys.argv[1], 'wb').write(ehdr + data + sh)
