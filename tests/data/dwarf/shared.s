# shared.s - four compile units, three of them with one abbreviation table
# (as dwz and Go write them) and one with its own, its codes out of order,
# for tests/stackcollapse-perf-inline.bats: the inlined frames addr2line
# gives, whichever unit's table is read first (only the tables of the
# units hit are kept).  Each function has a helper inlined into its
# second and third bytes.  cc -nostdlib -no-pie -o shared shared.s
	.text
	.globl _start
	.type _start, @function
_start:
	nop
	nop
	nop
	ret
	.size _start, .-_start
	.globl f2
	.type f2, @function
f2:
	nop
	nop
	nop
	ret
	.size f2, .-f2
	.globl f3
	.type f3, @function
f3:
	nop
	nop
	nop
	ret
	.size f3, .-f3
	.globl f4
	.type f4, @function
f4:
	nop
	nop
	nop
	ret
	.size f4, .-f4

	.section .debug_abbrev,"",@progbits
.Lshared:
	.uleb128 1
	.uleb128 0x11		# DW_TAG_compile_unit, with children
	.byte 1
	.uleb128 0x10, 0x17	# DW_AT_stmt_list, sec_offset
	.uleb128 0x11, 0x01	# DW_AT_low_pc, addr
	.uleb128 0x12, 0x07	# DW_AT_high_pc, data8
	.byte 0, 0
	.uleb128 2
	.uleb128 0x2e		# DW_TAG_subprogram, with children
	.byte 1
	.uleb128 0x03, 0x08	# DW_AT_name, string
	.uleb128 0x11, 0x01
	.uleb128 0x12, 0x07
	.byte 0, 0
	.uleb128 3
	.uleb128 0x2e		# DW_TAG_subprogram (abstract), no children
	.byte 0
	.uleb128 0x03, 0x08
	.uleb128 0x20, 0x0b	# DW_AT_inline, data1
	.byte 0, 0
	.uleb128 4
	.uleb128 0x1d		# DW_TAG_inlined_subroutine, no children
	.byte 0
	.uleb128 0x31, 0x13	# DW_AT_abstract_origin, ref4
	.uleb128 0x11, 0x01
	.uleb128 0x12, 0x07
	.byte 0, 0
	.byte 0
.Lown:
	.uleb128 9
	.uleb128 0x1d		# DW_TAG_inlined_subroutine, no children
	.byte 0
	.uleb128 0x11, 0x01
	.uleb128 0x12, 0x07
	.uleb128 0x31, 0x13
	.byte 0, 0
	.uleb128 7
	.uleb128 0x11		# DW_TAG_compile_unit, with children
	.byte 1
	.uleb128 0x10, 0x17
	.uleb128 0x11, 0x01
	.uleb128 0x12, 0x07
	.byte 0, 0
	.uleb128 5
	.uleb128 0x2e		# DW_TAG_subprogram (abstract), no children
	.byte 0
	.uleb128 0x20, 0x0b
	.uleb128 0x03, 0x08
	.byte 0, 0
	.uleb128 8
	.uleb128 0x2e		# DW_TAG_subprogram, with children
	.byte 1
	.uleb128 0x11, 0x01
	.uleb128 0x12, 0x07
	.uleb128 0x03, 0x08
	.byte 0, 0
	.byte 0

	.section .debug_info,"",@progbits
.L0_1:
	.long .L1e - .L1s
.L1s:
	.value 4
	.long .Lshared
	.byte 8
	.uleb128 1
	.long .Lline
	.quad _start
	.quad 4
.L1h:
	.uleb128 3
	.asciz "helper1"
	.byte 3
	.uleb128 2
	.asciz "_start"
	.quad _start
	.quad 4
	.uleb128 4
	.long .L1h - .L0_1
	.quad _start + 1
	.quad 2
	.byte 0
	.byte 0
.L1e:
.L0_2:
	.long .L2e - .L2s
.L2s:
	.value 4
	.long .Lshared
	.byte 8
	.uleb128 1
	.long .Lline
	.quad f2
	.quad 4
.L2h:
	.uleb128 3
	.asciz "helper2"
	.byte 3
	.uleb128 2
	.asciz "f2"
	.quad f2
	.quad 4
	.uleb128 4
	.long .L2h - .L0_2
	.quad f2 + 1
	.quad 2
	.byte 0
	.byte 0
.L2e:
.L0_3:
	.long .L3e - .L3s
.L3s:
	.value 4
	.long .Lown
	.byte 8
	.uleb128 7
	.long .Lline
	.quad f3
	.quad 4
.L3h:
	.uleb128 5
	.byte 3
	.asciz "helper3"
	.uleb128 8
	.quad f3
	.quad 4
	.asciz "f3"
	.uleb128 9
	.quad f3 + 1
	.quad 2
	.long .L3h - .L0_3
	.byte 0
	.byte 0
.L3e:
.L0_4:
	.long .L4e - .L4s
.L4s:
	.value 4
	.long .Lshared
	.byte 8
	.uleb128 1
	.long .Lline
	.quad f4
	.quad 4
.L4h:
	.uleb128 3
	.asciz "helper4"
	.byte 3
	.uleb128 2
	.asciz "f4"
	.quad f4
	.quad 4
	.uleb128 4
	.long .L4h - .L0_4
	.quad f4 + 1
	.quad 2
	.byte 0
	.byte 0
.L4e:

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
	.asciz "shared.c"
	.uleb128 0
	.uleb128 0
	.uleb128 0
	.byte 0
.Lhdr_end:
	.byte 0, 9, 2		# set_address _start, line 10
	.quad _start
	.byte 3
	.sleb128 9
	.byte 1
	.byte 0, 9, 2		# end after f4
	.quad f4 + 4
	.byte 0, 1, 1
.Lline_end:
