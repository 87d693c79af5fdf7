/* libfk.c - the shared library of the shlib fixture. */
unsigned long fk_hash(const unsigned char *p, unsigned long n);
unsigned long fk_spin(unsigned long n);

__attribute__((noinline)) unsigned long
fk_hash(const unsigned char *p, unsigned long n)
{
	unsigned long h = 14695981039346656037UL, i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211UL;
	return h;
}

__attribute__((noinline)) unsigned long
fk_spin(unsigned long n)
{
	unsigned char b[256];
	unsigned long i, s = 0;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (unsigned char)i;
	for (i = 0; i < n; i++)
		s += fk_hash(b, sizeof(b));
	return s;
}
