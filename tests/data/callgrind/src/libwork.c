/* libwork.c - the shared library of prog.c. */
long
lib_sum(const int *v, int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += v[i];
	return s;
}
