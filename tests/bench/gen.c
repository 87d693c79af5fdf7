/*
 * gen - deterministic benchmark input for `make bench`.
 *
 *	gen folded|shuffled MB STACKS [FRAMES]
 *	gen deep|deepshuf STACKS
 *
 * Writes about MB megabytes of folded stacks to stdout: STACKS distinct
 * stacks (tree-shaped, sharing callers like real profiles, 4 to 48 frames
 * deep, Rust- and C++-like names from a vocabulary of FRAMES names), sorted
 * as the collapsers write them, and repeated until the size is reached (as
 * when profiles are concatenated).  MB 0 writes each stack once: the
 * bench's shape T (tree-like: most frames shared with the line before).
 * With "shuffled" instead of "folded", the stacks are in random order.
 *
 * "deep" writes the bench's shape L, each stack once: STACKS deep stacks
 * (20 to 52 frames, mean 36) whose first frames come from small sets (about
 * 5 frames shared with the line before once sorted) and the rest from a
 * large skewed vocabulary of Rust, C++, Java and JIT-like names (about 1.4
 * distinct names per stack), as in long system-wide, fleet-merged or
 * JIT-heavy profiles.  "deepshuf" is the same in random order.
 *
 * The same arguments always give the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rs = 0x2545f4914f6cdd1dULL;

static unsigned long long
rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static const char *crates[] = {
	"minieth_vm", "minieth_trie", "minieth_rlp", "minieth_crypto",
	"alloc::collections::btree", "core::slice", "std::io", "serde_json",
	"tokio::runtime", "hashbrown::raw", "v8::internal", "std::__1",
};
static const char *mods[] = {
	"evm", "state", "db", "node", "map", "search", "read", "de", "task",
	"table", "compiler", "vector", "buffer", "codec", "ops",
};
static const char *fns[] = {
	"run", "step", "sload", "sstore", "get", "insert", "find_key_index",
	"compare", "next", "decode", "encode", "hash", "keccak_f1600", "poll",
	"spawn", "alloc", "push_back", "visit", "parse_value", "merkleize",
};

static int
cmpline(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *jfns[] = {
	"apply", "accept", "call", "invoke", "handle", "process", "run",
	"lambda$", "read", "write", "flush", "resolve", "dispatch", "update",
	"render", "compute", "merge", "emit", "visit", "transform",
};
#ifndef SCALE
#define SCALE 142000.0
#endif
static const char *roots[] = { "java", "node", "minieth-replay" };

/* Name k of the large vocabulary: the same k, the same name. */
static void
deepname(char *b, size_t n, size_t k)
{
	unsigned long long h = k * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;

	h ^= h >> 29;
	switch (k % 4) {
	case 0:
		snprintf(b, n, "%s::%s::%s_%zu", crates[h % 4],
		    mods[(h >> 8) % 15], fns[(h >> 16) % 20], k);
		break;
	case 1:
		snprintf(b, n, "app.%s.%s%zu", mods[(h >> 8) % 15],
		    jfns[(h >> 16) % 20], k);
		break;
	case 2:
		snprintf(b, n, "%s::%s<%zu>", crates[11 - h % 3],
		    fns[(h >> 16) % 20], k);
		break;
	default:
		snprintf(b, n, "JS:*%s %s.js:%zu", jfns[(h >> 16) % 20],
		    mods[(h >> 8) % 15], k);
	}
}

/* Shape L: each of nstacks deep stacks once. */
static int
deep(size_t nstacks, int shuffled)
{
	static const size_t fan[] = { 3, 5, 8, 12, 15 };
	char **lines = malloc(nstacks * sizeof(*lines)), line[8192], nm[256];
	size_t i, d, len, depth;

	for (i = 0; i < nstacks; i++) {
		depth = 20 + (size_t)(rnd() % 33);
		len = 0;
		for (d = 0; d < depth; d++) {
			if (d == 0)
				snprintf(nm, sizeof(nm), "%s", roots[rnd() % 3]);
			else if (d < 5)
				snprintf(nm, sizeof(nm), "%s::%s::%s",
				    crates[d], mods[d], fns[rnd() % fan[d]]);
			else {
				/* skewed: low ids are common, high ids rare */
				double u = (double)(rnd() >> 11) / 9007199254740992.0;

				deepname(nm, sizeof(nm),
				    (size_t)(u * u * u * SCALE));
			}
			len += (size_t)snprintf(line + len, sizeof(line) - len,
			    "%s%s", d ? ";" : "", nm);
		}
		snprintf(line + len, sizeof(line) - len, " %llu\n",
		    1 + rnd() % 97);
		lines[i] = strdup(line);
	}
	if (!shuffled)
		qsort(lines, nstacks, sizeof(*lines), cmpline);
	for (i = 0; i < nstacks; i++)
		fputs(lines[i], stdout);
	return fflush(stdout) == 0 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	unsigned long long target, written = 0;
	size_t nstacks, nframes, i, k, depth, len;
	char **names, line[8192];
	size_t *parent, *fr, *dep;
	unsigned long long *cnt;

	char **lines;
	int shuffled;

	if (argc == 3 && (strcmp(argv[1], "deep") == 0 ||
	    strcmp(argv[1], "deepshuf") == 0))
		return deep(strtoul(argv[2], NULL, 10),
		    strcmp(argv[1], "deepshuf") == 0);
	if (argc < 4 || (strcmp(argv[1], "folded") != 0 &&
	    strcmp(argv[1], "shuffled") != 0)) {
		fprintf(stderr, "usage: gen folded|shuffled MB STACKS [FRAMES]\n"
		    "       gen deep|deepshuf STACKS\n");
		return 2;
	}
	target = strtoull(argv[2], NULL, 10) * 1000000ULL;
	nstacks = strtoul(argv[3], NULL, 10);
	shuffled = strcmp(argv[1], "shuffled") == 0;
	nframes = argc > 4 ? strtoul(argv[4], NULL, 10) : 20000;
	if (nstacks == 0 || nframes == 0)
		return 2;
	names = malloc(nframes * sizeof(*names));
	for (i = 0; i < nframes; i++) {
		char b[256];

		snprintf(b, sizeof(b), "%s::%s::%s_%zu",
		    crates[rnd() % (sizeof(crates) / sizeof(*crates))],
		    mods[rnd() % (sizeof(mods) / sizeof(*mods))],
		    fns[rnd() % (sizeof(fns) / sizeof(*fns))], i);
		names[i] = strdup(b);
	}
	/* A tree of call paths: node i has a parent node (or none) and a
	 * frame; a stack is the path from the root to node i. */
	parent = malloc(nstacks * sizeof(*parent));
	fr = malloc(nstacks * sizeof(*fr));
	dep = malloc(nstacks * sizeof(*dep));
	cnt = malloc(nstacks * sizeof(*cnt));
	for (i = 0; i < nstacks; i++) {
		parent[i] = (size_t)-1;
		dep[i] = 1;
		if (i >= 4) {
			k = (size_t)(rnd() % i);
			if (dep[k] < 48) {
				parent[i] = k;
				dep[i] = dep[k] + 1;
			}
		}
		fr[i] = (size_t)(rnd() % nframes);
		cnt[i] = 1 + rnd() % 997;
	}
	lines = malloc(nstacks * sizeof(*lines));
	for (i = 0; i < nstacks; i++) {
		size_t path[64];

		depth = 0;
		for (k = i; k != (size_t)-1 && depth < 64; k = parent[k])
			path[depth++] = k;
		len = (size_t)snprintf(line, sizeof(line), "%s",
		    i % 3 ? "minieth-replay" : "tokio-worker");
		while (depth > 0 && len < sizeof(line) - 300) {
			const char *nm = names[fr[path[--depth]]];

			line[len++] = ';';
			len += (size_t)snprintf(line + len, sizeof(line) - len,
			    "%s", nm);
		}
		snprintf(line + len, sizeof(line) - len, " %llu\n", cnt[i]);
		lines[i] = strdup(line);
	}
	if (shuffled)
		for (i = nstacks - 1; i > 0; i--) {
			char *t = lines[i];

			k = (size_t)(rnd() % (i + 1));
			lines[i] = lines[k];
			lines[k] = t;
		}
	else
		qsort(lines, nstacks, sizeof(*lines), cmpline);
	if (target == 0)	/* each stack once */
		for (i = 0; i < nstacks; i++)
			fputs(lines[i], stdout);
	while (written < target)
		for (i = 0; i < nstacks && written < target; i++) {
			len = strlen(lines[i]);
			fwrite(lines[i], 1, len, stdout);
			written += len;
		}
	return fflush(stdout) == 0 ? 0 : 1;
}
