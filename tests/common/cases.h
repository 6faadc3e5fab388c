/* One behaviour per process: a test file lists its cases with ST_CASE and
 * ends with ST_MAIN. `test_x NAME` runs case NAME alone; `test_x` with no
 * argument runs every case in turn (bench soak, tests/faults and
 * tests/tsan run the binaries so). st_test in tests/CMakeLists.txt reads
 * the ST_CASE lines of the sources and registers NAME/CASE.MODE for each,
 * so a case is named once, here.
 *
 * ST_MAIN(setup): setup (may be empty) runs first in every process: the
 * interposition checks and layout asserts common to the file's cases. */
#ifndef ST_CASES_H
#define ST_CASES_H

#include <stdio.h>
#include <string.h>

struct st_case {
	const char *name;
	void (*fn)(void);
};

/* One per line, "ST_CASE(name)," at the start of a line: st_test greps
 * for it. */
#define ST_CASE(fn) { #fn, fn }

static inline int st_run_cases(int argc, char **argv, const struct st_case *cases, unsigned n)
{
	if (argc < 2) {
		for (unsigned i = 0; i < n; i++)
			cases[i].fn();
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(argv[1], cases[i].name)) {
			cases[i].fn();
			return 0;
		}
	fprintf(stderr, "%s: no case %s; the cases:", argv[0], argv[1]);
	for (unsigned i = 0; i < n; i++)
		fprintf(stderr, " %s", cases[i].name);
	fprintf(stderr, "\n");
	return 2;
}

#define ST_MAIN(setup)                                                              \
	int main(int argc, char **argv)                                             \
	{                                                                           \
		setup;                                                              \
		return st_run_cases(argc, argv, st_cases,                           \
				    sizeof(st_cases) / sizeof(st_cases[0]));        \
	}

#endif
