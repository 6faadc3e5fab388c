/* dlopen the plugin (plugin.c; its path built in as NAMING_PLUGIN) and
 * run it. */
#include <dlfcn.h>
#include <stdio.h>

#include "check.h"

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	st_check_interposed("pthread_mutex_lock");
	void *h = dlopen(NAMING_PLUGIN, RTLD_NOW);
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
