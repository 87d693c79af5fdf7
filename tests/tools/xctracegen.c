/*
 * xctracegen - deterministic `xctrace export` XML for the benchmark and
 * the tests of stackcollapse-xctrace.
 *
 *	xctracegen ROWS [SCHEMA]
 *
 * Writes a table of ROWS rows as `xctrace export --xpath
 * '/trace-toc/[*]/data/table[@schema="SCHEMA"]'` writes it (SCHEMA:
 * time-profile, the default; cpu-profile; counters-profile), shaped like a
 * minute of a whole system: 24 processes, 240 threads, 4000 functions in
 * 40 binaries, stacks 4 to 40 frames deep under shared callers.  Every
 * element is written whole once with id= and as ref= after, as xctrace
 * does: a thread, process, core, state or weight seen before is a ref; a
 * backtrace is a ref to an earlier one 7 times in 10, else new, its
 * callers refs to frames written before and its leaf a new address (of a
 * function that may have been seen); about 300 bytes a row.  Names are
 * C, C++ (with &amp; and &lt;), and Rust as Instruments leaves them
 * (::h<hash>, $LT$).  Every 97th row has a <sentinel/> instead of a
 * backtrace.  The same arguments always give the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rs = 0x9e3779b97f4a7c15ULL;

static unsigned long long
rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

/* a skewed pick in [0, n): small values far more often */
static unsigned
skew(unsigned n)
{
	unsigned long long a = rnd() % n, b = rnd() % n;

	return (unsigned)(a * b / n);
}

#define NPROC 24
#define NTHR 240
#define NFN 4000
#define NBIN 40
#define NBT 30000
#define MAXD 40

static unsigned long long nextid = 1;
static unsigned long long procid[NPROC], pidid[NPROC], thrid[NTHR];
static unsigned long long binid[NBIN], coreid[16], stateid, wid;
static unsigned fnbin[NFN];
static char *fnname[NFN];
static struct bt {
	unsigned long long id;
	unsigned thr;
	unsigned n;
	unsigned fn[MAXD];
	unsigned long long fid[MAXD];	/* frame ids, leaf first */
} *bts;
static unsigned nbts;

static const char *words[] = {
	"parse", "render", "update", "flush", "hash", "insert", "lookup",
	"encode", "decode", "poll", "spawn", "drop", "clone", "next", "write",
	"read", "compress", "visit", "layout", "draw", "commit", "scan",
};
static const char *mods[] = {
	"core::iter", "alloc::vec", "std::io", "serde_json::de", "tokio::runtime",
	"hashbrown::raw", "regex::exec", "app::engine", "app::net", "rayon::iter",
};

static void
mknames(void)
{
	char b[512];
	unsigned i, w;

	for (i = 0; i < NFN; i++) {
		w = (unsigned)(rnd() % (sizeof(words) / sizeof(*words)));
		switch (rnd() % 4) {
		case 0:	/* C */
			snprintf(b, sizeof(b), "%s_%s_%u", words[w],
			    words[(w + 3) % 22], i);
			break;
		case 1:	/* C++ */
			snprintf(b, sizeof(b), "ns%u::Widget&lt;int&gt;::%s(std::"
			    "vector&lt;char&gt; const&amp;, unsigned long)",
			    i % 50, words[w]);
			break;
		case 2:	/* Rust, half-demangled */
			snprintf(b, sizeof(b), "%s::%s_%u::h%016llx",
			    mods[i % 10], words[w], i, rnd());
			break;
		default:	/* Rust, an impl */
			snprintf(b, sizeof(b), "_$LT$%s..Iter$LT$T$GT$$u20$as$u20$"
			    "core..iter..Iterator$GT$::%s::h%016llx",
			    mods[i % 10], words[w], rnd());
			break;
		}
		fnname[i] = strdup(b);
		fnbin[i] = i % NBIN;
	}
}

/* a whole frame of function f, new id, or its ref */
static unsigned long long
frame(unsigned f)
{
	unsigned long long id = nextid++;
	unsigned b = fnbin[f];

	printf("<frame id=\"%llu\" name=\"%s\" addr=\"0x%llx\">", id,
	    fnname[f], 0x100000000ULL + f * 4096ULL + rnd() % 4000);
	if (binid[b])
		printf("<binary ref=\"%llu\"/>", binid[b]);
	else {
		binid[b] = nextid++;
		printf("<binary id=\"%llu\" name=\"lib%u.dylib\" UUID=\"8A1B%04u"
		    "-0000-4000-8000-00000000%04u\" arch=\"arm64e\" load-addr=\""
		    "0x%llx\" path=\"/usr/lib/lib%u.dylib\"/>", binid[b], b, b,
		    b, 0x100000000ULL + b * 0x1000000ULL, b);
	}
	printf("</frame>");
	return id;
}

static void
newbt(struct bt *t, unsigned thr)
{
	const char *tag = "backtrace";
	struct bt *o;
	unsigned i, k;

	t->thr = thr;
	if (nbts > 0 && rnd() % 8 != 0) {
		/* a caller chain seen before, a new leaf */
		o = &bts[rnd() % nbts];
		*t = *o;
		t->thr = thr;
		if (t->n > 2 && rnd() % 2)
			t->n--;
		t->fn[0] = (t->fn[0] + skew(8)) % NFN;
		t->fid[0] = 0;
	} else {
		t->n = 4 + (unsigned)(rnd() % 24);
		for (i = 0; i < t->n; i++) {
			k = t->n - 1 - i;	/* from the root */
			t->fn[k] = k < 3 ? skew(NFN) : (unsigned)(rnd() % NFN);
			t->fid[k] = 0;
		}
		/* callers shared with an older chain at the root */
		if (nbts > 0) {
			o = &bts[rnd() % nbts];
			for (i = 0; i < 3 && i < o->n && i < t->n; i++) {
				t->fn[t->n - 1 - i] = o->fn[o->n - 1 - i];
				t->fid[t->n - 1 - i] = o->fid[o->n - 1 - i];
			}
		}
	}
	t->id = nextid++;
	printf("<%s id=\"%llu\">", tag, t->id);
	for (i = 0; i < t->n; i++) {
		if (t->fid[i])
			printf("<frame ref=\"%llu\"/>", t->fid[i]);
		else
			t->fid[i] = frame(t->fn[i]);
	}
	printf("</%s>", tag);
}

int
main(int argc, char **argv)
{
	const char *schema = argc > 2 ? argv[2] : "time-profile";
	const char *wtag = "weight", *wtype = "weight";
	unsigned long long rows, r, t = 1000000;
	unsigned thr, p, c, i;
	int counters;

	if (argc < 2 || (rows = strtoull(argv[1], NULL, 10)) == 0) {
		fprintf(stderr, "usage: xctracegen ROWS [time-profile|cpu-profile|"
		    "counters-profile]\n");
		return 2;
	}
	counters = strcmp(schema, "counters-profile") == 0;
	if (strcmp(schema, "cpu-profile") == 0)
		wtag = wtype = "cycle-weight";
	else if (counters)
		wtag = "pmc-event", wtype = "any";
	else if (strcmp(schema, "time-profile") != 0) {
		fprintf(stderr, "xctracegen: unknown schema %s\n", schema);
		return 2;
	}
	bts = calloc(NBT, sizeof(*bts));
	if (bts == NULL)
		return 1;
	mknames();
	printf("<?xml version=\"1.0\"?>\n<trace-query-result>\n<node xpath="
	    "'//trace-toc[1]/run[1]/data[1]/table[11]'><schema name=\"%s\">",
	    schema);
	printf("<col><mnemonic>time</mnemonic><name>Sample Time</name>"
	    "<engineering-type>sample-time</engineering-type></col>"
	    "<col><mnemonic>thread</mnemonic><name>Thread</name>"
	    "<engineering-type>thread</engineering-type></col>"
	    "<col><mnemonic>process</mnemonic><name>Process</name>"
	    "<engineering-type>process</engineering-type></col>"
	    "<col><mnemonic>core</mnemonic><name>Core</name>"
	    "<engineering-type>core</engineering-type></col>"
	    "<col><mnemonic>thread-state</mnemonic><name>State</name>"
	    "<engineering-type>thread-state</engineering-type></col>");
	if (counters)
		printf("<col><mnemonic>stack</mnemonic><name>Backtrace</name>"
		    "<engineering-type>backtrace</engineering-type></col>");
	printf("<col><mnemonic>weight</mnemonic><name>Weight</name>"
	    "<engineering-type>%s</engineering-type></col>", wtype);
	if (!counters)
		printf("<col><mnemonic>stack</mnemonic><name>Backtrace</name>"
		    "<engineering-type>backtrace</engineering-type></col>");
	printf("</schema>\n");
	for (r = 0; r < rows; r++) {
		thr = skew(NTHR);
		p = thr % NPROC;
		c = (unsigned)(rnd() % 16);
		t += 1000000 + rnd() % 5000;
		printf("<row><sample-time id=\"%llu\" fmt=\"%02llu:%02llu.%03llu."
		    "%03llu\">%llu</sample-time>", nextid++, t / 60000000000ULL,
		    t / 1000000000 % 60, t / 1000000 % 1000, t / 1000 % 1000, t);
		if (thrid[thr])
			printf("<thread ref=\"%llu\"/>", thrid[thr]);
		else {
			thrid[thr] = nextid++;
			printf("<thread id=\"%llu\" fmt=\"worker-%u  0x%x (proc%u, "
			    "pid: %u)\"><tid id=\"%llu\" fmt=\"0x%x\">%u</tid>",
			    thrid[thr], thr, 0x8000 + thr, p, 400 + p, nextid++,
			    0x8000 + thr, 0x8000 + thr);
			if (procid[p])
				printf("<process ref=\"%llu\"/>", procid[p]);
			else {
				procid[p] = nextid++;
				pidid[p] = nextid++;
				printf("<process id=\"%llu\" fmt=\"proc%u (%u)\">"
				    "<pid id=\"%llu\" fmt=\"%u\">%u</pid>"
				    "<device-session id=\"%llu\" fmt=\"TODO\">TODO"
				    "</device-session></process>", procid[p], p,
				    400 + p, pidid[p], 400 + p, 400 + p,
				    nextid++);
			}
			printf("</thread>");
		}
		printf("<process ref=\"%llu\"/>", procid[p]);
		if (coreid[c])
			printf("<core ref=\"%llu\"/>", coreid[c]);
		else {
			coreid[c] = nextid++;
			printf("<core id=\"%llu\" fmt=\"CPU %u (P Core)\">%u</core>",
			    coreid[c], c, c);
		}
		if (stateid)
			printf("<thread-state ref=\"%llu\"/>", stateid);
		else {
			stateid = nextid++;
			printf("<thread-state id=\"%llu\" fmt=\"Running\">Running"
			    "</thread-state>", stateid);
		}
		if (!counters) {
			if (strcmp(wtag, "weight") == 0 && wid)
				printf("<weight ref=\"%llu\"/>", wid);
			else if (strcmp(wtag, "weight") == 0) {
				wid = nextid++;
				printf("<weight id=\"%llu\" fmt=\"1.00 ms\">1000000"
				    "</weight>", wid);
			} else {
				i = 100000 + (unsigned)(rnd() % 900000);
				printf("<%s id=\"%llu\" fmt=\"%u.%02u Kc\">%u</%s>",
				    wtag, nextid++, i / 1000, i % 1000 / 10, i,
				    wtag);
			}
		}
		if (r % 97 == 96)
			printf("<sentinel/>");
		else if (nbts > 0 && rnd() % 10 < 7) {
			i = (unsigned)(nbts - 1 - skew(nbts));
			printf("<backtrace ref=\"%llu\"/>", bts[i].id);
		} else {
			i = nbts < NBT ? nbts : (unsigned)(rnd() % NBT);
			newbt(&bts[i], thr);
			if (i == nbts)
				nbts++;
		}
		if (counters) {
			if (wid)
				printf("<pmc-event ref=\"%llu\"/>", wid);
			else {
				wid = nextid++;
				printf("<pmc-event id=\"%llu\" fmt=\"1.00 M\">1000000"
				    "</pmc-event>", wid);
			}
		}
		printf("</row>\n");
	}
	printf("</node></trace-query-result>\n");
	return ferror(stdout) || fflush(stdout) != 0;
}
