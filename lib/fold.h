/*
 * fold.h - libfold, the shared core of the foldkit tools.
 *
 * Every foldkit binary is a thin main() over these units.  The rules that
 * hold for the whole library:
 *
 *  - Out of memory is fatal: the x*() allocators print "prog: out of memory"
 *    and exit 1.  No other function returns an allocation failure.
 *  - Nothing allocates per input line.  Memory grows with the number of
 *    distinct strings (stacks, frames) and with the longest line, never with
 *    the size of the input.
 *  - Strings are bytes with a length.  Names may hold any byte, NUL
 *    included; nothing here relies on NUL termination of input data.
 *  - All output to stdout goes through the fo_*() writer.  A write error is
 *    fatal ("prog: write error: ...", exit 1); a closed pipe (EPIPE) ends the
 *    program quietly with status 0.
 *  - Messages go to stderr as "prog: file:line: what is wrong".
 *  - Exit status: 0 success, 1 error in data or I/O, 2 usage error.
 *
 * The library is in domains, a folder each, with one header that states
 * the domain's contract (what it holds, who owns what, how long a pointer
 * stays valid, what is fatal).  A domain uses only the domains above it
 * in this list, and within a domain no two units call each other in a
 * circle (tests/libfold.bats checks both on the built objects):
 *
 *   base/     base.h     messages, allocation, the line reader, the stdout
 *                        writer, arenas, hashing, interning, counts and
 *                        numbers, rankings, patterns, escaping, inflate
 *   markup/   markup.h   structured text read as a stream: XML, JSON
 *   folded/   folded.h   the folded format: a line, the reader, frame ids,
 *                        distinct stacks in frame order, two profiles merged
 *   demangle/ demangle.h C++ and Rust symbol names demangled as c++filt
 *                        demangles them
 *   symbols/  symbols.h  addresses to names: ELF, kallsyms, perf maps, the
 *                        symbol sources of a recording; call frame
 *                        information; inlined functions from DWARF
 *   report/   report.h   what the analysis tools share: options, filters,
 *                        tables, rankings, before/after rankings
 *   flame/    flame.h    flame graphs as SVG
 *   perf/     perf.h     perf script text and perf.data to folded stacks;
 *                        --call-graph dwarf stacks unwound
 *   dtrace/   dtrace.h   DTrace and bpftrace output to folded stacks
 *   pprof/    pprof.h    pprof profiles (profile.proto, gzip or raw) to
 *                        folded stacks; the protobuf wire format
 *   xctrace/  xctrace.h  Instruments exports (xctrace export XML) to
 *                        folded stacks
 *   callgrind/ callgrind.h  valgrind's callgrind profiles to folded
 *                        stacks, by call context
 *   samply/   samply.h   Firefox Profiler processed profiles (samply) to
 *                        folded stacks; names from sidecars and binaries
 *   sample/   sample.h   macOS sample reports to folded stacks
 *
 * This header includes base.h, which every tool and unit needs; a tool or
 * unit includes the headers of the other domains it uses.
 */
#ifndef FOLD_H
#define FOLD_H

#include "base/base.h"

#endif
