/*
 * flame.h - flame graphs as SVG (lib/flame/): XML text (svg.c), the tree,
 * its layout and colours, and the SVG written (flame.c), the script and
 * styles embedded in it (flamejs.c).  Uses folded and base.
 *
 *  - Memory grows with the distinct (parent, frame) pairs; the graph may
 *    keep pointing at a sample's stack bytes when they are stable (see
 *    fold_flame_add()).
 *  - The SVG written is valid XML whatever the names hold.
 */
#ifndef FOLD_FLAME_H
#define FOLD_FLAME_H

#include "fold.h"
#include "folded/folded.h"

/* ---- svg.c, flame.c, flamejs.c: flame graphs as SVG -------------------- */

/*
 * Write s as XML 1.0 text that is also safe inside a quoted attribute
 * value: & < > " ' as entities, tab/newline/CR as character references,
 * other control characters, U+FFFE/U+FFFF and invalid UTF-8 as U+FFFD.
 * With raw8, bytes >= 0x80 are written as they are (for a declared
 * single-byte encoding).  With maxchars > 0, at most maxchars characters
 * are written, the last two replaced by ".." when s is longer.
 */
void fo_xml(const char *s, size_t len, int raw8, size_t maxchars);
/* Characters in s, as fo_xml() counts them. */
size_t fold_xml_chars(const char *s, size_t len, int raw8);

/* The colour palettes of flamegraph.pl, plus rust and python. */
enum {
	FOLD_PAL_HOT, FOLD_PAL_MEM, FOLD_PAL_IO, FOLD_PAL_WAKEUP,
	FOLD_PAL_CHAIN, FOLD_PAL_JAVA, FOLD_PAL_JS, FOLD_PAL_PERL,
	FOLD_PAL_RUST, FOLD_PAL_PYTHON, FOLD_PAL_RED, FOLD_PAL_GREEN,
	FOLD_PAL_BLUE, FOLD_PAL_AQUA, FOLD_PAL_YELLOW, FOLD_PAL_PURPLE,
	FOLD_PAL_ORANGE
};
/* Palette name to FOLD_PAL_*, or -1. */
int fold_palette_parse(const char *s);
/* How the three values behind a colour are drawn from a name. */
enum { FOLD_COLOR_SEED, FOLD_COLOR_HASH, FOLD_COLOR_RANDOM };
/* The fill of a frame name as flamegraph.pl picks it: rgb packed as
 * 0xRRGGBB.  For FOLD_COLOR_RANDOM, *rs is the generator state. */
uint32_t fold_flame_color(int palette, int mode, const char *name,
    size_t len, uint64_t *rs);
/* flamegraph.pl's namehash(): 0..1 from the first characters of a name. */
double fold_namehash(const char *name, size_t len, int reversed);
/* drand48's first draw after srand48(seed), computed here. */
double fold_drand48_first(uint32_t seed);

struct fold_flame_opts {
	const char *title;	/* NULL: by mode */
	const char *subtitle, *notes;	/* NULL or "": none */
	const char *nametype, *countname, *fonttype;
	const char *encoding;	/* NULL: UTF-8, not declared */
	const char *bg1, *bg2;	/* background gradient; NULL: by palette */
	const char *nameattr;	/* --nameattr file or NULL */
	const char *palmap;	/* --cp: palette.map path, or NULL */
	double width, frameheight, fontsize, fontwidth;
	double minwidth;	/* px, or percent with minpct */
	int minpct;
	double factor;
	double total;		/* --total, 0: none */
	int palette, colormode;
	int reverse, inverted, flamechart, negate;
};
void fold_flame_opts_init(struct fold_flame_opts *o);

/*
 * A flame graph: samples merged frame by frame into a tree (siblings
 * ordered by name; with flamechart, in input order and merged only with
 * the box just before), then laid out and written as an interactive SVG.
 * Memory grows with the distinct (parent, frame) pairs only.
 */
struct fold_flame;
struct fold_flame *fold_flame_new(const struct fold_flame_opts *o);
/* Add one sample (the stack as it comes, reversed here if asked).  Returns
 * 1 if the graph keeps pointing at the sample's stack bytes (s->stable: a
 * mapped line; the caller then calls fold_in_keep()), else 0. */
int fold_flame_add(struct fold_flame *f, const struct fold_sample *s);
/*
 * Write the SVG with the fo_*() writer.  frac: some count had decimals;
 * diff: differential input.  With no samples at all, write a small SVG
 * saying so and return 1 (the caller prints the error); else 0, or 1 if
 * --nameattr or --cp files could not be used.
 */
int fold_flame_write(struct fold_flame *f, int frac, int diff);
void fold_flame_free(struct fold_flame *f);

/* The script and styles embedded in every flame graph (flamejs.c). */
extern const char *const fold_flame_script[];	/* lines, NULL-ended */
extern const char fold_flame_style[];

#endif
