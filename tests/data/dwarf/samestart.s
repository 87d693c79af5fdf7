# samestart.s - symbols at one start without DWARF: a function and an
# untyped label of size 0 (lab, aaa_nt), and two sized functions (big, 3
# bytes; small, 2).  binutils 2.40 addr2line names the first of the
# largest size: lab, big.
.text
.globl main
.type main,@function
main: ret
.size main, .-main
.globl aaa_nt
.globl lab
.type lab, @function
nop
aaa_nt:
lab:
 nop
 nop
 ret
.globl big
.type big, @function
.globl small
.type small, @function
big:
small:
 nop
 nop
 ret
.size big, 3
.size small, 2
