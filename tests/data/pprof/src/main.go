// Command pprofwork records the Go profiles in tests/data/pprof (see
// record.sh): a CPU profile whose hot functions are inlined into their
// callers and whose goroutines carry pprof labels, and the heap and allocs
// profiles of the same run (four sample types each; allocs names
// alloc_space as its default_sample_type, heap names none).
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"sync"
	"time"
)

var sink uint64

// mix and round are small enough for the compiler to inline them: their
// samples are inlined frames of the callers' locations.
func mix(x uint64) uint64 { return (x ^ x>>31) * 0x9e3779b97f4a7c15 }

func round(x, k uint64) uint64 { return mix(x+k) ^ mix(x-k) }

//go:noinline
func hashBlock(seed uint64, n int) uint64 {
	h := seed
	for i := 0; i < n; i++ {
		h = round(h, uint64(i))
	}
	return h
}

//go:noinline
func hashAll(stop time.Time) {
	for time.Now().Before(stop) {
		sink += hashBlock(sink, 200000)
	}
}

//go:noinline
func sortRound(buf []uint64, seed uint64) {
	for i := range buf {
		seed = mix(seed + uint64(i))
		buf[i] = seed
	}
	sort.Slice(buf, func(a, b int) bool { return buf[a] < buf[b] })
}

//go:noinline
func sortAll(stop time.Time) {
	buf := make([]uint64, 4096)
	for time.Now().Before(stop) {
		sortRound(buf, sink)
	}
}

// Allocations for the heap profiles: some kept, some dropped.
var keep [][]byte

//go:noinline
func allocSmall(n int) {
	for i := 0; i < n; i++ {
		b := make([]byte, 64)
		if i%4 == 0 {
			keep = append(keep, b)
		}
	}
}

//go:noinline
func allocLarge(n int) {
	for i := 0; i < n; i++ {
		b := make([]byte, 32768)
		if i%2 == 0 {
			keep = append(keep, b)
		}
	}
}

//go:noinline
func buildTable(n int) map[int]string {
	m := make(map[int]string)
	for i := 0; i < n; i++ {
		m[i] = string(make([]byte, i%100))
	}
	return m
}

func main() {
	cpu := flag.String("cpu", "cpu.pb.gz", "CPU profile out")
	heap := flag.String("heap", "heap.pb.gz", "heap profile out")
	allocs := flag.String("allocs", "allocs.pb.gz", "allocs profile out")
	secs := flag.Float64("t", 1.5, "seconds of CPU work per goroutine")
	flag.Parse()
	runtime.MemProfileRate = 4096

	f, err := os.Create(*cpu)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	stop := time.Now().Add(time.Duration(*secs * float64(time.Second)))
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		pprof.Do(context.Background(), pprof.Labels("worker", "hash", "phase", "one"),
			func(context.Context) { hashAll(stop) })
	}()
	go func() {
		defer wg.Done()
		pprof.Do(context.Background(), pprof.Labels("worker", "sort"),
			func(context.Context) { sortAll(stop) })
	}()
	wg.Wait()
	pprof.StopCPUProfile()
	f.Close()

	allocSmall(20000)
	allocLarge(200)
	t := buildTable(5000)
	runtime.GC()
	for _, p := range []struct{ name, file string }{{"heap", *heap}, {"allocs", *allocs}} {
		f, err := os.Create(p.file)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.Lookup(p.name).WriteTo(f, 0); err != nil {
			log.Fatal(err)
		}
		f.Close()
	}
	runtime.KeepAlive(t)
	runtime.KeepAlive(keep)
}
