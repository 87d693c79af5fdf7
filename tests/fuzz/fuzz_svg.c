/* fuzz_svg - the XML escaper, then whole flame graphs from the input as
 * folded lines; both outputs must be well-formed XML. */
#include "fuzz.h"
#include "folded/folded.h"
#include "flame/flame.h"

#define main xmlcheck_main
#define exit(x) abort()
#include "../tools/xmlcheck.c"
#undef exit
#undef main

/* Run xmlcheck over what fd 1 holds (it reads stdin). */
static void
check_xml(void)
{
	if (lseek(1, 0, SEEK_SET) != 0 || dup2(1, 0) < 0)
		abort();
	clearerr(stdin);
	rewind(stdin);
	n = i = 0;
	xmlcheck_main();
	free(s);
	s = NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_flame_opts o;
	struct fold_flame *f;
	struct fold_sample smp;
	const char *line;
	size_t len;
	int frac = 0, diff = 0;
	fold_num t = { 0, 0 }, to = { 0, 0 };

	if (size == 0)
		return 0;
	/* The escaper alone, inside an element and an attribute. */
	fuzz_stdout();
	fo_puts("<svg><text a=\"");
	fo_xml((const char *)data + 1, size - 1, 0, data[0] & 1 ? data[0] : 0);
	fo_puts("\">");
	fo_xml((const char *)data + 1, size - 1, 0, 0);
	fo_puts("</text></svg>\n");
	fo_flush();
	check_xml();

	/* A whole flame graph; the title from the input too. */
	fuzz_stdout();
	fold_flame_opts_init(&o);
	o.reverse = data[0] & 1;
	o.inverted = (data[0] >> 1) & 1;
	o.flamechart = (data[0] >> 2) & 1;
	o.negate = (data[0] >> 3) & 1;
	o.colormode = (data[0] >> 4) & 1 ? FOLD_COLOR_HASH : FOLD_COLOR_SEED;
	o.minwidth = 0;
	o.title = size > 8 ? (const char *)data + size - 8 : NULL;
	{
		char title[9];

		if (o.title != NULL) {
			memcpy(title, o.title, 8);
			title[8] = '\0';
			o.title = title;
		}
		f = fold_flame_new(&o);
		FOR_EACH_LINE(data + 1, size - 1, line, len) {
			/* as the folded reader does: no sum past 2^64 - 1 */
			if (fold_parse_line(line, len, &smp) != FOLD_OK ||
			    fold_num_add(&t, smp.count) < 0 ||
			    fold_num_add(&to, smp.old) < 0)
				continue;
			frac |= smp.frac;
			diff |= smp.diff;
			fold_flame_add(f, &smp);
		}
		(void)fold_flame_write(f, frac, diff);
		fo_flush();
		fold_flame_free(f);
	}
	check_xml();
	return 0;
}
