/* tracepoints/modules.c without LTTng, built with ST_MODULES_MAX 3 so the
 * process's objects take several passes: the full list emits every
 * loaded object once (as dl_iterate_phdr counts them), first = 1 on the
 * first only, the program under /proc/self/exe's path with its build ID
 * and span; a second call emits nothing new; after a dlopen, exactly the
 * objects it loaded. */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "modules.h"

#define MAX_SEEN 256

static struct {
	uint64_t baddr, memsz;
	char path[ST_MODULE_PATH_MAX];
	unsigned nbuild_id;
	int first;
} got[MAX_SEEN];
static int ngot;

static void emit(const struct st_module *m, int first)
{
	CHECK(ngot < MAX_SEEN);
	got[ngot].baddr = m->baddr;
	got[ngot].memsz = m->memsz;
	snprintf(got[ngot].path, sizeof(got[ngot].path), "%s", m->path);
	got[ngot].nbuild_id = m->nbuild_id;
	got[ngot].first = first;
	ngot++;
}

static int count_one(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD) {
			++*(int *)data;
			break;
		}
	return 0;
}

static int loaded(void)
{
	int n = 0;
	dl_iterate_phdr(count_one, &n);
	return n;
}

int main(void)
{
	char exe[4096];
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(k > 0);
	exe[k] = 0;
	int n = loaded();
	CHECK(n > 3); /* more than one pass of 3 */
	CHECK_EQ(st_modules_each(1, emit), n);
	CHECK_EQ(ngot, n);
	for (int i = 0; i < ngot; i++) {
		CHECK_EQ(got[i].first, i == 0);
		CHECK(got[i].path[0]);
		CHECK(got[i].memsz > 0);
		for (int j = 0; j < i; j++)
			CHECK(got[j].baddr != got[i].baddr);
	}
	CHECK(!strcmp(got[0].path, exe)); /* the program comes first */
	CHECK_EQ(got[0].nbuild_id, 20u); /* a GNU build ID: SHA-1 */
	uintptr_t self = (uintptr_t)&main;
	CHECK(self >= got[0].baddr && self < got[0].baddr + got[0].memsz);

	ngot = 0;
	CHECK_EQ(st_modules_each(0, emit), 0);
	CHECK_EQ(ngot, 0);

	void *h = dlopen("libm.so.6", RTLD_NOW); /* not linked: loaded now */
	CHECK(h != NULL);
	int added = loaded() - n;
	CHECK(added >= 1);
	CHECK_EQ(st_modules_each(0, emit), added);
	CHECK_EQ(ngot, added);
	int libm = 0;
	for (int i = 0; i < ngot; i++) {
		CHECK_EQ(got[i].first, 0);
		libm += strstr(got[i].path, "libm.so.6") != NULL;
	}
	CHECK_EQ(libm, 1);
	printf("modules_unit: %d objects in passes of 3, then %d dlopened\n", n, added);
	return 0;
}
