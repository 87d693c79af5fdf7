/* pb.c - the protobuf wire format, read from memory, bounded. */
#include "fold.h"
#include "pprof/pprof.h"

int
fold_pb_varint_slow(const unsigned char **p, const unsigned char *end,
    uint64_t *v)
{
	const unsigned char *q = *p;
	uint64_t x = 0;
	unsigned k;

	for (k = 0; k < 10; k++) {
		if (q >= end)
			return 0;
		x |= (uint64_t)(*q & 0x7f) << (7 * k);
		if (*q++ < 0x80) {
			/* the tenth byte holds bit 63 only */
			if (k == 9 && q[-1] > 1)
				return 0;
			*v = x;
			*p = q;
			return 1;
		}
	}
	return 0;
}

int
fold_pb_next(struct fold_pb *b, struct fold_pb_field *f, const char **why)
{
	const unsigned char *q = b->p;
	uint64_t key, v;

	if (q >= b->end)
		return 0;
	if (!fold_pb_varint(&q, b->end, &key)) {
		*why = b->end - q >= 10 ? "varint too long" : "cut short";
		return -1;
	}
	if (key >> 3 == 0 || key >> 3 > 0x1fffffff) {
		*why = "bad field number";
		return -1;
	}
	f->num = (uint32_t)(key >> 3);
	f->type = (int)(key & 7);
	switch (f->type) {
	case FOLD_PB_VARINT:
		if (!fold_pb_varint(&q, b->end, &f->v)) {
			*why = b->end - q >= 10 ? "varint too long" :
			    "cut short";
			return -1;
		}
		break;
	case FOLD_PB_I64:
		if (b->end - q < 8) {
			*why = "cut short";
			return -1;
		}
		f->v = fold_getu(q, 8, 0);
		q += 8;
		break;
	case FOLD_PB_I32:
		if (b->end - q < 4) {
			*why = "cut short";
			return -1;
		}
		f->v = fold_getu(q, 4, 0);
		q += 4;
		break;
	case FOLD_PB_LEN:
		if (!fold_pb_varint(&q, b->end, &v)) {
			*why = b->end - q >= 10 ? "varint too long" :
			    "cut short";
			return -1;
		}
		if (v > (uint64_t)(b->end - q)) {
			*why = "cut short (a length past the end)";
			return -1;
		}
		f->p = q;
		f->len = (size_t)v;
		q += v;
		break;
	default:
		*why = "unsupported wire type (a group)";
		return -1;
	}
	b->p = q;
	return 1;
}
