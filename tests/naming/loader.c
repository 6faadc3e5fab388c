/* dlopen the plugin given as argv[1] (plugin.c) and run it. */
#include <dlfcn.h>
#include <stdio.h>

#include "check.h"

int main(int argc, char **argv)
{
	CHECK(argc == 2);
	void *h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "loader: %s\n", dlerror());
		return 1;
	}
	void (*run)(void) = (void (*)(void))dlsym(h, "plugin_run");
	CHECK(run);
	run();
	CHECK_EQ(dlclose(h), 0);
	return 0;
}
