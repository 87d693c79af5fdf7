/*
 * minidb.c - a tiny "database" workload used to record the perf captures in
 * examples/ and tests/data/perf/.  It has a few clearly named hot functions at
 * different depths so a profile is easy to read:
 *
 *   main -> run_workload -> load_table -> parse_record -> parse_field
 *                        -> build_index -> hash_key (FNV-1a)
 *                        -> sort_table  -> qsort -> compare_rows
 *                        -> tree_build / tree_walk (recursion)
 *                        -> checksum_table -> checksum_block (adler32-like)
 *                        -> churn_memory -> malloc / free
 *
 * Options (all optional, in any order):
 *   -n ROUNDS      number of workload rounds (default 250, about 1 s)
 *   -c NAME        set the thread name (comm) with prctl(PR_SET_NAME) before
 *                  working; NAME may contain spaces or \xHH escapes
 *   -t             do the work in a second thread (named by -c), the main
 *                  thread just waits
 *   -u USEC        sleep USEC microseconds after each round (context switches)
 *   -s             syscall-heavy mode: each round also does 200 write()s of
 *                  64 KiB to /dev/null and 200 read()s from /dev/zero, so a
 *                  profile has kernel frames
 *   -j             JIT mode: copy raw x86-64 machine code into an mmap'd
 *                  executable region, describe it in /tmp/perf-PID.map, and
 *                  call it (so perf resolves the frames from the map)
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer -pthread -o minidb minidb.c
 * libc only.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#define NROWS 4000
#define NBUCKETS 4096

struct row {
	char key[24];
	unsigned id;
	unsigned balance;
	char note[32];
};

struct entry {
	struct entry *next;
	struct row *row;
};

struct node {
	struct node *left, *right;
	unsigned key;
};

static struct row table[NROWS];
static struct entry *buckets[NBUCKETS];
static volatile unsigned long sink;
static int rounds = 250;
static int syscall_mode;
static int jit_mode;
static int thread_mode;
static int sleep_usec;
static char comm_name[64];

/* ---- parsing ----------------------------------------------------------- */

__attribute__((noinline)) static const char *
parse_field(const char *p, char *out, size_t cap)
{
	size_t n = 0;
	while (*p && *p != ',' && *p != '\n') {
		if (n + 1 < cap)
			out[n++] = *p;
		p++;
	}
	out[n] = '\0';
	return *p == ',' ? p + 1 : p;
}

__attribute__((noinline)) static unsigned
parse_uint(const char *s)
{
	unsigned v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (unsigned)(*s++ - '0');
	return v;
}

__attribute__((noinline)) static void
parse_record(const char *line, struct row *r)
{
	char buf[32];
	line = parse_field(line, r->key, sizeof r->key);
	line = parse_field(line, buf, sizeof buf);
	r->id = parse_uint(buf);
	line = parse_field(line, buf, sizeof buf);
	r->balance = parse_uint(buf);
	parse_field(line, r->note, sizeof r->note);
}

__attribute__((noinline)) static void
load_table(unsigned seed)
{
	char line[128];
	for (int i = 0; i < NROWS; i++) {
		seed = seed * 1103515245u + 12345u;
		snprintf(line, sizeof line, "user%08x,%d,%u,note-%u\n", seed, i,
		         seed % 100000, seed % 977);
		parse_record(line, &table[i]);
	}
}

/* ---- hashing ----------------------------------------------------------- */

__attribute__((noinline)) static uint32_t
hash_key(const char *s)
{
	uint32_t h = 2166136261u;
	/* a few extra rounds so the hash is visibly hot */
	for (int k = 0; k < 4; k++)
		for (const char *p = s; *p; p++) {
			h ^= (unsigned char)*p;
			h *= 16777619u;
		}
	return h;
}

__attribute__((noinline)) static void
build_index(void)
{
	for (int i = 0; i < NROWS; i++) {
		uint32_t b = hash_key(table[i].key) % NBUCKETS;
		struct entry *e = malloc(sizeof *e);
		e->row = &table[i];
		e->next = buckets[b];
		buckets[b] = e;
	}
}

__attribute__((noinline)) static struct row *
lookup(const char *key)
{
	struct entry *e = buckets[hash_key(key) % NBUCKETS];
	for (; e; e = e->next)
		if (strcmp(e->row->key, key) == 0)
			return e->row;
	return NULL;
}

__attribute__((noinline)) static void
free_index(void)
{
	for (int b = 0; b < NBUCKETS; b++) {
		struct entry *e = buckets[b];
		while (e) {
			struct entry *n = e->next;
			free(e);
			e = n;
		}
		buckets[b] = NULL;
	}
}

/* ---- sorting (qsort callback) ------------------------------------------ */

__attribute__((noinline)) static int
compare_rows(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	if (c)
		return c;
	return (x->id > y->id) - (x->id < y->id);
}

__attribute__((noinline)) static void
sort_table(void)
{
	qsort(table, NROWS, sizeof table[0], compare_rows);
}

/* ---- recursion: binary tree ------------------------------------------- */

__attribute__((noinline)) static struct node *
tree_insert(struct node *t, unsigned key)
{
	if (!t) {
		t = malloc(sizeof *t);
		t->left = t->right = NULL;
		t->key = key;
		return t;
	}
	if (key < t->key)
		t->left = tree_insert(t->left, key);
	else
		t->right = tree_insert(t->right, key);
	return t;
}

__attribute__((noinline)) static unsigned long
tree_walk(const struct node *t, int depth)
{
	if (!t)
		return 0;
	return t->key * (unsigned long)depth + tree_walk(t->left, depth + 1) +
	       tree_walk(t->right, depth + 1);
}

__attribute__((noinline)) static void
tree_free(struct node *t)
{
	if (!t)
		return;
	tree_free(t->left);
	tree_free(t->right);
	free(t);
}

/* ---- checksum ----------------------------------------------------------- */

__attribute__((noinline)) static uint32_t
checksum_block(const unsigned char *p, size_t n)
{
	uint32_t a = 1, b = 0;
	for (size_t i = 0; i < n; i++) {
		a = (a + p[i]) % 65521u;
		b = (b + a) % 65521u;
	}
	return (b << 16) | a;
}

__attribute__((noinline)) static uint32_t
checksum_table(void)
{
	uint32_t sum = 0;
	for (int i = 0; i < NROWS; i += 64) {
		size_t n = NROWS - i < 64 ? (size_t)(NROWS - i) : 64;
		sum ^= checksum_block((const unsigned char *)&table[i], n * sizeof table[0]);
	}
	return sum;
}

/* ---- allocation churn --------------------------------------------------- */

__attribute__((noinline)) static void
churn_memory(unsigned seed)
{
	void *slots[64] = {0};
	for (int i = 0; i < 20000; i++) {
		seed = seed * 1103515245u + 12345u;
		int k = (seed >> 8) & 63;
		free(slots[k]);
		slots[k] = malloc(16 + ((seed >> 16) & 1023));
		((char *)slots[k])[0] = (char)i;
	}
	for (int k = 0; k < 64; k++)
		free(slots[k]);
}

/* ---- syscalls (kernel frames) ----------------------------------------- */

__attribute__((noinline)) static void
do_syscalls(void)
{
	static char buf[65536];
	int out = open("/dev/null", O_WRONLY);
	int in = open("/dev/zero", O_RDONLY);
	for (int i = 0; i < 200; i++) {
		if (write(out, buf, sizeof buf) < 0 || read(in, buf, sizeof buf) < 0)
			break;
	}
	close(in);
	close(out);
}

/* ---- JIT: raw machine code in an executable mapping --------------------- */

typedef unsigned long (*jit_fn)(unsigned long);

/*
 * Two tiny x86-64 functions written as raw bytes; both keep a frame pointer
 * so that perf -g (frame-pointer unwinding) walks through them.
 *   spin:  push rbp ; mov rbp,rsp ; mov rax,rdi ; loop: dec rax ; jnz loop ;
 *          mov rax,rdi ; pop rbp ; ret
 *   outer: push rbp ; mov rbp,rsp ; push rbx ; sub rsp,8 ; mov rbx,rdi ;
 *          2 x (mov rdi,rbx ; call spin) ; add rsp,8 ; pop rbx ; pop rbp ; ret
 */
static const unsigned char jit_spin[] = {
	0x55,                   /* push rbp */
	0x48, 0x89, 0xe5,       /* mov rbp, rsp */
	0x48, 0x89, 0xf8,       /* mov rax, rdi */
	0x48, 0xff, 0xc8,       /* dec rax */
	0x75, 0xfb,             /* jnz -5 */
	0x48, 0x89, 0xf8,       /* mov rax, rdi */
	0x5d,                   /* pop rbp */
	0xc3,                   /* ret */
};
#define JIT_SPIN_OFF 0x000
#define JIT_OUTER_OFF 0x100

static jit_fn jit_outer;

static void
jit_setup(void)
{
#if defined(__x86_64__)
	unsigned char *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return;
	memset(code, 0xcc, 4096);
	memcpy(code + JIT_SPIN_OFF, jit_spin, sizeof jit_spin);
	unsigned char *o = code + JIT_OUTER_OFF;
	int32_t rel;
	*o++ = 0x55;                         /* push rbp */
	*o++ = 0x48; *o++ = 0x89; *o++ = 0xe5; /* mov rbp, rsp */
	*o++ = 0x53;                         /* push rbx */
	*o++ = 0x48; *o++ = 0x83; *o++ = 0xec; *o++ = 0x08; /* sub rsp, 8 */
	*o++ = 0x48; *o++ = 0x89; *o++ = 0xfb; /* mov rbx, rdi */
	for (int i = 0; i < 2; i++) {
		*o++ = 0x48; *o++ = 0x89; *o++ = 0xdf; /* mov rdi, rbx */
		*o++ = 0xe8;                           /* call rel32 */
		rel = (int32_t)((code + JIT_SPIN_OFF) - (o + 4));
		memcpy(o, &rel, 4);
		o += 4;
	}
	*o++ = 0x48; *o++ = 0x83; *o++ = 0xc4; *o++ = 0x08; /* add rsp, 8 */
	*o++ = 0x5b;                         /* pop rbx */
	*o++ = 0x5d;                         /* pop rbp */
	*o++ = 0xc3;                         /* ret */
	size_t outer_len = (size_t)(o - (code + JIT_OUTER_OFF));
	if (mprotect(code, 4096, PROT_READ | PROT_EXEC) != 0)
		return;

	/* perf map: "START SIZE NAME" in hex, one per line */
	char path[64];
	snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "%lx %zx Lcom/foo/Bar;::baz->Lcom/foo/Qux;::inl\n",
		        (unsigned long)(uintptr_t)(code + JIT_SPIN_OFF), sizeof jit_spin);
		fprintf(f, "%lx %zx LInterpreter;::run(Ljava/lang/Object;)V\n",
		        (unsigned long)(uintptr_t)(code + JIT_OUTER_OFF), outer_len);
		fclose(f);
	}
	jit_outer = (jit_fn)(void *)(code + JIT_OUTER_OFF);
#endif
}

__attribute__((noinline)) static void
run_jit(void)
{
	if (jit_outer)
		sink += jit_outer(3000000);
}

/* ---- driver -------------------------------------------------------------- */

__attribute__((noinline)) static void
run_workload(unsigned round)
{
	load_table(round * 7919u + 1);
	build_index();
	for (int i = 0; i < NROWS; i += 3) {
		struct row *r = lookup(table[(i * 31) % NROWS].key);
		if (r)
			sink += r->balance;
	}
	sort_table();

	struct node *t = NULL;
	unsigned s = round;
	for (int i = 0; i < 3000; i++) {
		s = s * 1664525u + 1013904223u;
		t = tree_insert(t, s >> 8);
	}
	sink += tree_walk(t, 1);
	tree_free(t);

	sink += checksum_table();
	churn_memory(round);
	free_index();
	if (syscall_mode)
		do_syscalls();
	if (jit_mode)
		run_jit();
}

static void *
worker(void *arg)
{
	(void)arg;
	if (comm_name[0])
		prctl(PR_SET_NAME, comm_name, 0, 0, 0);
	for (int r = 0; r < rounds; r++) {
		run_workload((unsigned)r);
		if (sleep_usec)
			usleep((useconds_t)sleep_usec);
	}
	return NULL;
}

/* decode \xHH escapes so a comm with arbitrary bytes can be given */
static void
decode_name(const char *in, char *out, size_t cap)
{
	size_t n = 0;
	while (*in && n + 1 < cap) {
		if (in[0] == '\\' && in[1] == 'x' && in[2] && in[3]) {
			char hex[3] = {in[2], in[3], 0};
			out[n++] = (char)strtoul(hex, NULL, 16);
			in += 4;
		} else {
			out[n++] = *in++;
		}
	}
	out[n] = '\0';
}

int
main(int argc, char **argv)
{
	int opt;
	while ((opt = getopt(argc, argv, "n:c:u:tsj")) != -1) {
		switch (opt) {
		case 'n': rounds = atoi(optarg); break;
		case 'c': decode_name(optarg, comm_name, 16); break;
		case 'u': sleep_usec = atoi(optarg); break;
		case 't': thread_mode = 1; break;
		case 's': syscall_mode = 1; break;
		case 'j': jit_mode = 1; break;
		default:
			fprintf(stderr, "usage: %s [-n rounds] [-c name] [-u usec] [-t] [-s] [-j]\n", argv[0]);
			return 2;
		}
	}
	if (jit_mode)
		jit_setup();
	if (thread_mode) {
		pthread_t th;
		if (pthread_create(&th, NULL, worker, NULL) != 0)
			return 1;
		pthread_join(th, NULL);
	} else {
		worker(NULL);
	}
	printf("minidb: %d rounds, sink=%lu\n", rounds, (unsigned long)sink);
	return 0;
}
