# ooo.s - a line table whose rows are out of address order within one
# sequence (no compiler here writes that; DWARF allows it), for
# tests/stackcollapse-perf-inline.bats: source lines as binutils 2.40's
# addr2line gives them (it does not find the row at the sequence's lowest
# address when that row came later).  cc -nostdlib -no-pie -o ooo ooo.s
	.text
	.globl _start
	.type _start, @function
_start:
	nop
	nop
	nop
	nop
	ret
	.size _start, .-_start

	.section .debug_abbrev,"",@progbits
.Labbrev:
	.uleb128 1
	.uleb128 0x11		# DW_TAG_compile_unit, with children
	.byte 1
	.uleb128 0x10
	.uleb128 0x17		# DW_AT_stmt_list, sec_offset
	.uleb128 0x11
	.uleb128 0x01		# DW_AT_low_pc, addr
	.uleb128 0x12
	.uleb128 0x07		# DW_AT_high_pc, data8
	.byte 0, 0
	.uleb128 2
	.uleb128 0x2e		# DW_TAG_subprogram, no children
	.byte 0
	.uleb128 0x03
	.uleb128 0x08		# DW_AT_name, string
	.uleb128 0x11
	.uleb128 0x01
	.uleb128 0x12
	.uleb128 0x07
	.byte 0, 0
	.byte 0

	.section .debug_info,"",@progbits
	.long .Linfo_end - .Linfo_start
.Linfo_start:
	.value 4
	.long .Labbrev
	.byte 8
	.uleb128 1
	.long .Lline
	.quad _start
	.quad 5
	.uleb128 2
	.asciz "f"
	.quad _start
	.quad 5
	.byte 0
.Linfo_end:

	.section .debug_line,"",@progbits
.Lline:
	.long .Lline_end - .Lline_start
.Lline_start:
	.value 4
	.long .Lhdr_end - .Lhdr_start
.Lhdr_start:
	.byte 1, 1, 1		# min_inst_length, max_ops, default_is_stmt
	.byte -5, 14, 13	# line_base, line_range, opcode_base
	.byte 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1
	.byte 0			# no include directories
	.asciz "ooo.c"
	.uleb128 0
	.uleb128 0
	.uleb128 0
	.byte 0
.Lhdr_end:
	.byte 0, 9, 2		# set_address _start+2, line 30
	.quad _start + 2
	.byte 3
	.sleb128 29
	.byte 1
	.byte 0, 9, 2		# set_address _start, line 10
	.quad _start
	.byte 3
	.sleb128 -20
	.byte 1
	.byte 0, 9, 2		# set_address _start+4, line 40
	.quad _start + 4
	.byte 3
	.sleb128 30
	.byte 1
	.byte 0, 9, 2		# end at _start+5
	.quad _start + 5
	.byte 0, 1, 1
.Lline_end:
