/*
 * samplygen - profiles in the Firefox Profiler's processed format (as
 * samply saves them; JSON on stdout) for the tests and the bench of
 * stackcollapse-samply.  One abstract profile written in the layout of
 * any version from 41 to 70, so that every layout must fold the same.
 *
 *	samplygen [-v VERSION] [-d] [-s] [-n N] [-l NAME:PATH:CODEID]
 *	    [-a ADDR,ADDR,...]...
 *
 * -v  the layout (default 70): before 47 pids and tids are numbers;
 *     before 56 each thread has its own stringArray (each in another
 *     order), from 56 one in shared; before 60 each thread has its own
 *     tables (each in another order), from 60 they are in shared; before
 *     66 stackTable.prefix, from 66 prefixOffset; before 70
 *     resourceTable.lib, from 70 frameTable.lib (-1: none)
 * -d  samples.timeDeltas instead of samples.time
 * -s  keys sorted (as the fxprof snapshots: libs before meta, shared
 *     before threads) instead of samply's order
 * -n  a bench profile instead (deterministic): N samples in one thread
 *     over 20,000 stacks (a random tree, up to ~40 deep) of 4,000 frames
 *     of one library, a third named in the profile (fn_ADDR), the rest
 *     placeholders; weights of 1, timeDeltas of 6 decimals, CPU deltas
 * -D  a profile of one sample whose stack is N frames deep (library lib)
 * -l, -a  a profile of one library (name, path, codeId) and one thread:
 *     each -a a sample whose stack is those library-relative addresses,
 *     root first, every frame samply's placeholder ("0x" and its address)
 *
 * The abstract profile: two libraries (app, libfoo.so), named frames,
 * placeholder frames, a frame whose name is hex but not its address, a
 * hex frame without a library, names with ';', '"', and UTF-8 (raw and
 * escaped); four threads in two processes: null stacks, weights, a null
 * weight column, null and zero threadCPUDelta, a thread without samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int version = 70, deltas, sorted;

struct frame {
	const char *name;	/* JSON text of the function name */
	int res;		/* -1: none; 0 app, 1 libfoo.so */
	long long addr;		/* -1: none */
};
static struct frame frames[] = {
	{ "\"main\"", 0, 0x10 },
	{ "\"0x1000\"", 0, 0x1000 },
	{ "\"0x2a0\"", 1, 0x2a0 },
	{ "\"compute;inner\"", 0, 0x1500 },
	{ "\"0x7f00dead\"", -1, 0x7f00dead },
	{ "\"0x3000\"", 0, 0x3004 },
	{ "\"label \\\"q\\\" \\u00e9 \xc3\xa9\"", -1, -1 },
};
#define NF ((int)(sizeof(frames) / sizeof(frames[0])))
static const int sprefix[] = { -1, 0, 1, 0, 3, -1, 5, 1 };
static const int sframe[] = { 0, 1, 2, 3, 4, 6, 5, 3 };
#define NS 8

struct thread {
	const char *proc, *name;
	int pid, tid;
	int n;
	int stack[8];		/* -1: null */
	const char *weight;	/* JSON text, or NULL: a null column */
	const char *cpu;
};
static struct thread threads[] = {
	{ "proc-a", "main-thread", 100, 100, 6, { 2, 2, -1, 4, 7, 0 },
	    "[1,2,1,1,3,1]", "[null,5,0,7,0,2]" },
	{ "proc-a", "worker", 100, 101, 4, { 3, 3, 6, 1 }, "[1,1,1,1]",
	    "[1,0,1,1]" },
	{ "proc-b", "other", 200, 200, 2, { 5, 2 }, NULL, "[3,3]" },
	{ "proc-b", "idle", 200, 201, 0, { 0 }, "[]", "[]" },
};
#define NT 4

/* The custom profile of -l and -a. */
static const char *lname, *lpath, *lcode;
static char **stacks;
static int nstacks;
static long nbench = -1, deep;

/* Per-thread layouts put each thread's strings (rot) and tables in
 * another order: string i at (i + rot) % n. */
static int rot;

static const char *
nl(void)
{
	return "\n";
}

static void
libs(void)
{
	printf("\"libs\":[");
	if (lname != NULL)
		printf("{\"name\":\"%s\",\"path\":\"%s\",\"debugName\":\"%s\","
		    "\"debugPath\":\"%s\",\"breakpadId\":\"0\",\"codeId\":"
		    "%s%s%s,\"arch\":null}", lname, lpath, lname, lpath,
		    *lcode ? "\"" : "", *lcode ? lcode : "null",
		    *lcode ? "\"" : "");
	else
		printf("{\"name\":\"app\",\"path\":\"/nonexistent/app\","
		    "\"debugName\":\"app\",\"debugPath\":\"/nonexistent/app\","
		    "\"breakpadId\":\"FFEEDDCCBBAA99887766554433221100F\","
		    "\"codeId\":\"ffeeddccbbaa99887766554433221100ffeeddcc\","
		    "\"arch\":null},%s{\"name\":\"libfoo.so\",\"path\":"
		    "\"/nonexistent/libfoo.so\",\"debugName\":\"libfoo.so\","
		    "\"debugPath\":\"/nonexistent/libfoo.so\",\"breakpadId\":"
		    "\"00112233445566778899AABBCCDDEEFF0\",\"codeId\":"
		    "\"00112233445566778899aabbccddeeff00112233\",\"arch\":"
		    "null}", nl());
	printf("]");
}

static void
meta(void)
{
	printf("\"meta\":{\"version\":24,\"preprocessedProfileVersion\":%d,"
	    "\"interval\":1,\"startTime\":0,\"product\":\"samplygen\","
	    "\"sampleUnits\":{\"time\":\"ms\",\"eventDelay\":\"ms\","
	    "\"threadCPUDelta\":\"\\u00b5s\"},\"categories\":[{\"name\":"
	    "\"Other\",\"color\":\"grey\",\"subcategories\":[\"Other\"]}],"
	    "\"markerSchema\":[]}", version);
}

/* The custom profile's frames: one per distinct address. */
static unsigned long long *addrs;
static int naddrs;

static int
addr_index(unsigned long long a)
{
	int i;

	for (i = 0; i < naddrs; i++)
		if (addrs[i] == a)
			return i;
	addrs = realloc(addrs, (size_t)(naddrs + 1) * sizeof(*addrs));
	if (addrs == NULL)
		exit(1);
	addrs[naddrs] = a;
	return naddrs++;
}

/* Stack table of the custom profile: a node per (prefix, frame). */
static int *cpre, *cfr, ncs;
static int *csample;	/* the stack of each -a */

static int
cnode(int pre, int fr)
{
	int i;

	for (i = 0; i < ncs; i++)
		if (cpre[i] == pre && cfr[i] == fr)
			return i;
	cpre = realloc(cpre, (size_t)(ncs + 1) * sizeof(*cpre));
	cfr = realloc(cfr, (size_t)(ncs + 1) * sizeof(*cfr));
	if (cpre == NULL || cfr == NULL)
		exit(1);
	cpre[ncs] = pre;
	cfr[ncs] = fr;
	return ncs++;
}

static unsigned long long rng = 42;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rng >> 33) % n;
}

static void
bench_build(void)
{
	int i, p;

	lname = "app";
	lpath = "/nonexistent/app";
	lcode = "";
	for (i = 0; i < 20000; i++) {
		p = i < 20 ? -1 : (int)(i / 2 + rnd((unsigned)(i / 2)));
		if (p >= i)
			p = i - 1;
		cpre = realloc(cpre, (size_t)(ncs + 1) * sizeof(*cpre));
		cfr = realloc(cfr, (size_t)(ncs + 1) * sizeof(*cfr));
		if (cpre == NULL || cfr == NULL)
			exit(1);
		cpre[ncs] = p;
		cfr[ncs++] = addr_index(0x1000 + 16ULL * rnd(4000));
	}
}

static void
deep_build(long n)
{
	long i;

	lname = "lib";
	lpath = "/nonexistent/lib";
	lcode = "";
	cpre = malloc((size_t)n * sizeof(*cpre));
	cfr = malloc((size_t)n * sizeof(*cfr));
	addrs = malloc((size_t)n * sizeof(*addrs));
	csample = malloc(sizeof(*csample));
	if (cpre == NULL || cfr == NULL || addrs == NULL || csample == NULL)
		exit(1);
	for (i = 0; i < n; i++) {
		cpre[i] = (int)i - 1;
		cfr[i] = (int)i;
		addrs[i] = 16 * (unsigned long long)(i + 1);
	}
	ncs = naddrs = (int)n;
	csample[0] = (int)n - 1;
	nstacks = 1;
}

static void
custom_build(void)
{
	int i, s;
	char *p, *q;

	csample = calloc((size_t)nstacks + 1, sizeof(*csample));
	for (i = 0; i < nstacks; i++) {
		s = -1;
		for (p = stacks[i]; *p; p = *q ? q + 1 : q) {
			s = cnode(s, addr_index(strtoull(p, &q, 0)));
			if (q == p)
				exit(2);
		}
		csample[i] = s;
	}
}

/* Frame, function, resource and stack counts of the tables written. */
static int
nframes(void)
{
	return lname != NULL ? naddrs : NF;
}

static void
strarray(void)
{
	int i, n = nframes() + 3;
	char hex[32];

	printf("\"stringArray\":[");
	for (i = 0; i < n; i++) {
		int k = (i - rot % n + n) % n;	/* string at position i */

		if (i > 0)
			printf(",");
		if (k < nframes()) {
			if (lname != NULL) {
				snprintf(hex, sizeof(hex), nbench >= 0 &&
				    addrs[k] % 3 == 0 ? "\"fn_%llx\"" :
				    "\"0x%llx\"", addrs[k]);
				printf("%s", hex);
			} else
				printf("%s", frames[k].name);
		} else if (k == nframes())
			printf("\"%s\"", lname != NULL ? lname : "app");
		else if (k == nframes() + 1)
			printf("\"%s\"", lname != NULL ? "unused" :
			    "libfoo.so");
		else
			printf("\"unused\"");
	}
	printf("]");
}

/* String index of string k in the array written with rot. */
static int
str(int k)
{
	int n = nframes() + 3;

	return (k + rot) % n;
}

static void
col_int(const char *name, int n, int (*f)(int), int comma)
{
	int i, v;

	printf("\"%s\":[", name);
	for (i = 0; i < n; i++) {
		v = f(i);
		if (i > 0)
			printf(",");
		if (v == -2)
			printf("null");
		else
			printf("%d", v);
	}
	printf("]%s", comma ? "," : "");
}

/* Tables are written with frames in reverse order when rot is odd (a
 * per-thread layout), to move their indexes. */
static int
fpos(int f)
{
	return rot & 1 ? nframes() - 1 - f : f;
}

static int
fat(int pos)
{
	return rot & 1 ? nframes() - 1 - pos : pos;
}

static int
res_of(int f)
{
	return lname != NULL ? 0 : frames[f].res;
}

static int c_sframe(int i) { return fpos(lname ? cfr[i] : sframe[i]); }
static int
c_prefix(int i)
{
	int p = lname ? cpre[i] : sprefix[i];

	if (version >= 66)
		return p < 0 ? 0 : i - p;
	return p < 0 ? -2 : p;
}
static int c_func(int pos) { return pos; }
static int c_fname(int pos) { return str(fat(pos)); }
static int
c_fres(int pos)
{
	return res_of(fat(pos));
}
static int
c_flib(int pos)
{
	return res_of(fat(pos));
}
static int c_zero(int i) { (void)i; return 0; }
static int c_null(int i) { (void)i; return -2; }
static int c_rlib(int i) { return i; }
static int c_rname(int i) { return str(nframes() + i); }
static int c_rtype(int i) { (void)i; return 1; }

static void
tables(void)
{
	int nf = nframes(), ns = lname ? ncs : NS, nr = lname ? 1 : 2, i;
	long long a;

	printf("\"stackTable\":{\"length\":%d,", ns);
	col_int(version >= 66 ? "prefixOffset" : "prefix", ns, c_prefix, 1);
	col_int("frame", ns, c_sframe, 0);
	printf("},%s\"frameTable\":{\"length\":%d,\"address\":[", nl(), nf);
	for (i = 0; i < nf; i++) {
		a = lname ? (long long)addrs[fat(i)] : frames[fat(i)].addr;
		printf("%s", i ? "," : "");
		if (a < 0)
			printf(version >= 60 ? "-1" : "null");
		else
			printf("%lld", a);
	}
	printf("],");
	col_int("inlineDepth", nf, c_zero, 1);
	col_int("category", nf, c_zero, 1);
	col_int("nativeSymbol", nf, c_null, 1);
	if (version >= 70) {
		printf("\"lib\":[");
		for (i = 0; i < nf; i++)
			printf("%s%d", i ? "," : "", c_flib(i));
		printf("],");
	}
	col_int("func", nf, c_func, 0);
	printf("},%s\"funcTable\":{\"length\":%d,", nl(), nf);
	col_int("name", nf, c_fname, 1);
	printf("\"isJS\":[");
	for (i = 0; i < nf; i++)
		printf("%sfalse", i ? "," : "");
	printf("],");
	col_int("resource", nf, c_fres, 1);
	col_int("lineNumber", nf, c_null, 0);
	printf("},%s\"resourceTable\":{\"length\":%d,", nl(), nr);
	if (version < 70)
		col_int("lib", nr, c_rlib, 1);
	col_int("name", nr, c_rname, 1);
	col_int("host", nr, c_null, 1);
	col_int("type", nr, c_rtype, 0);
	printf("},%s\"nativeSymbols\":{\"length\":0,\"address\":[],"
	    "\"libIndex\":[],\"name\":[]%s}", nl(),
	    version >= 42 ? ",\"functionSize\":[]" : "");
}

/* Stack index as the tables written number them (stacks keep order). */
static void
samples_of(const struct thread *t, int n, const int *st, const char *w,
    const char *cpu, unsigned long long seed)
{
	int i;

	printf("\"samples\":{\"length\":%d,\"weightType\":\"samples\","
	    "\"stack\":[", n);
	for (i = 0; i < n; i++) {
		if (i > 0)
			printf(",");
		if (st != NULL) {
			if (st[i] < 0)
				printf("null");
			else
				printf("%d", st[i]);
		} else {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			printf("%d", (int)((seed >> 33) % (unsigned)ncs));
		}
	}
	printf("],\"%s\":[", deltas ? "timeDeltas" : "time");
	if (deltas && st == NULL)
		for (i = 0; i < n; i++)
			printf("%s%d.%06d", i ? "," : "", i ? 1 : 75091402,
			    (int)((unsigned)i * 2654435761u % 1000000));
	else if (deltas)
		for (i = 0; i < n; i++)
			printf("%s%s", i ? "," : "", i ? "1.0125" :
			    "75091402.591791");
	else
		for (i = 0; i < n; i++)
			printf("%s%d.%03d", i ? "," : "", 1000 + i, i % 1000);
	if (st == NULL) {
		printf("],\"weight\":[");
		for (i = 0; i < n; i++)
			printf("%s1", i ? "," : "");
		printf("],\"threadCPUDelta\":");
	} else
		printf("],\"weight\":%s,\"threadCPUDelta\":", w ? w : "null");
	if (cpu != NULL)
		printf("%s", cpu);
	else {
		printf("[");
		for (i = 0; i < n; i++)
			printf("%s%d", i ? "," : "", i % 7 ? 900 + i % 97 : 0);
		printf("]");
	}
	printf("}");
	(void)t;
}

static void
ids(const struct thread *t)
{
	if (version < 47)
		printf("\"pid\":%d,\"tid\":%d,", t->pid, t->tid);
	else
		printf("\"pid\":\"%d\",\"tid\":\"%d\",", t->pid, t->tid);
}

static void
thread(int k)
{
	const struct thread *t = &threads[k];
	static struct thread one = { "prog", "prog", 4242, 4242, 0, { 0 },
	    NULL, NULL };
	char *w;
	int i;

	rot = version < 56 ? k + 1 : 0;
	printf("{\"name\":\"%s\",\"processName\":\"%s\",",
	    lname || nbench >= 0 ? "prog" : t->name,
	    lname || nbench >= 0 ? "prog" : t->proc);
	ids(lname || nbench >= 0 ? &one : t);
	printf("\"isMainThread\":true,\"processType\":\"default\","
	    "\"markers\":{\"length\":0,\"name\":[],\"data\":[]},%s", nl());
	if (version < 60) {
		tables();
		printf(",%s", nl());
	}
	if (version < 56) {
		strarray();
		printf(",");
	}
	if (nbench >= 0)
		samples_of(t, (int)nbench, NULL, NULL, NULL, 42);
	else if (lname != NULL) {
		w = malloc((size_t)nstacks * 2 + 3);
		strcpy(w, "[");
		for (i = 0; i < nstacks; i++)
			strcat(w, i ? ",1" : "1");
		strcat(w, "]");
		samples_of(&one, nstacks, csample, w, NULL, 0);
		free(w);
	} else
		samples_of(t, t->n, t->stack, t->weight, t->cpu, 0);
	printf("}");
}

static void
shared(void)
{
	printf("\"shared\":{");
	rot = 0;
	if (version >= 60) {
		tables();
		printf(",%s", nl());
	}
	strarray();
	printf("}");
}

static void
threads_all(void)
{
	int k, n = lname || nbench >= 0 ? 1 : NT;

	printf("\"threads\":[");
	for (k = 0; k < n; k++) {
		if (k > 0)
			printf(",%s", nl());
		thread(k);
	}
	printf("]");
}

int
main(int argc, char **argv)
{
	int i;
	char *p, *q;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0 && i + 1 < argc)
			version = atoi(argv[++i]);
		else if (strcmp(argv[i], "-d") == 0)
			deltas = 1;
		else if (strcmp(argv[i], "-s") == 0)
			sorted = 1;
		else if (strcmp(argv[i], "-D") == 0 && i + 1 < argc)
			deep = atol(argv[++i]);
		else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			nbench = atol(argv[++i]);
		else if (strcmp(argv[i], "-l") == 0 && i + 1 < argc) {
			p = argv[++i];
			lname = p;
			if ((q = strchr(p, ':')) == NULL)
				goto usage;
			*q++ = '\0';
			lpath = q;
			if ((q = strchr(q, ':')) == NULL)
				goto usage;
			*q++ = '\0';
			lcode = q;
		} else if (strcmp(argv[i], "-a") == 0 && i + 1 < argc) {
			stacks = realloc(stacks, (size_t)(nstacks + 1) *
			    sizeof(*stacks));
			if (stacks == NULL)
				return 1;
			stacks[nstacks++] = argv[++i];
		} else
			goto usage;
	}
	if (deep > 0)
		deep_build(deep);
	else if (nbench >= 0)
		bench_build();
	else if (lname != NULL)
		custom_build();
	else if (nstacks > 0)
		goto usage;
	printf("{");
	if (sorted) {
		libs();
		printf(",%s", nl());
		meta();
		printf(",%s", nl());
		if (version >= 56) {
			shared();
			printf(",%s", nl());
		}
		threads_all();
	} else {
		meta();
		printf(",%s", nl());
		libs();
		printf(",%s", nl());
		threads_all();
		if (version >= 56) {
			printf(",%s", nl());
			shared();
		}
	}
	printf(",\"pages\":[],\"counters\":[],\"profilerOverhead\":[]}\n");
	return ferror(stdout) ? 1 : 0;
usage:
	fprintf(stderr, "usage: samplygen [-v VERSION] [-d] [-s] [-n N] "
	    "[-D N] [-l NAME:PATH:CODEID] [-a ADDR,...]...\n");
	return 2;
}
