/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/selfmap.c: the running program moved onto another file with its
 * bytes, without an exec. Each test works in a child, on a copy of this
 * test binary (a dynamic PIE: a load bias and a RELRO of its own). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shim/selfmap.h"
#include "tests/unit/tap.h"

static char copy_path[] = "/tmp/shim-selfmap-XXXXXX";
static int counter = 41;		/* .data: must keep its value */
static const char *(*strerror_ptr)(int);	/* .bss, set at run time */

/* A copy of this program's file; flip, if >= 0, changes that byte. */
static int make_copy(long flip)
{
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), out;
	struct stat st;
	off_t off = 0;

	strcpy(copy_path, "/tmp/shim-selfmap-XXXXXX");
	out = mkstemp(copy_path);
	if (in < 0 || out < 0 || fstat(in, &st) < 0)
		return -1;
	while (off < st.st_size)
		if (sendfile(out, in, &off, (size_t)(st.st_size - off)) <= 0)
			return -1;
	if (flip >= 0 && pwrite(out, "\x7e", 1, flip) != 1)
		return -1;
	close(in);
	close(out);
	return 0;
}

/* No line of /proc/self/maps names path. */
static bool unmapped(const char *path)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	bool none = true;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, path))
			none = false;
	fclose(f);
	return none;
}

/* In a child: adopt the copy, then show that the program still runs
 * (libc, .data, .bss, a call through a pointer) and where its exe is.
 * Exit 0 if adopted with exe = copy; 3 if refused only by the missing
 * capability, everything else mapped from the copy; 1 otherwise. */
static int adopt_in_child(void)
{
	struct shim_error err = { 0 };
	char self[4096], exe[4096], text[512];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int fd = open(copy_path, O_RDONLY | O_CLOEXEC), r;

	if (n < 0 || fd < 0)
		return 1;
	self[n] = '\0';
	strerror_ptr = (const char *(*)(int))strerror;
	r = selfmap_adopt(fd, &err);
	close(fd);
	if (counter++ != 41 || strcmp(strerror_ptr(ENOENT), strerror(ENOENT)) != 0 ||
	    !unmapped(self))
		return 1;
	if (r < 0) {
		shim_error_text(&err, text, sizeof(text));
		return !selfmap_allowed() && strstr(text, "PR_SET_MM_EXE_FILE") ? 3 : 1;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return 1;
	exe[n] = '\0';
	return strcmp(exe, copy_path) == 0 ? 0 : 1;
}

static int child_status(int (*fn)(void))
{
	int status;
	pid_t pid;

	fflush(NULL);	/* the child must not write the parent's buffered lines */
	pid = fork();

	if (pid == 0)
		_exit(fn());
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* valgrind runs the program's code from its own translations and keeps
 * its own map of the address space: moving the mappings under it is not
 * what these tests are about. */
static bool under_valgrind(void)
{
	const char *preload = getenv("LD_PRELOAD");

	return preload && strstr(preload, "vgpreload");
}

TEST(adopting_a_copy_of_the_file_moves_every_mapping_and_the_exe)
{
	int status;

	if (under_valgrind())
		SKIP("valgrind keeps its own map of the program");
	CHECK(make_copy(-1) == 0);
	status = child_status(adopt_in_child);
	unlink(copy_path);
	if (status == 3)
		SKIP("no CAP_SYS_RESOURCE: mappings moved, exe left (checked)");
	CHECK(status == 0);
	return 0;
}

static int refuse_in_child(void)
{
	struct shim_error err = { 0 };
	char self[4096], text[512];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int fd = open(copy_path, O_RDONLY | O_CLOEXEC);

	if (n < 0 || fd < 0)
		return 1;
	self[n] = '\0';
	if (selfmap_adopt(fd, &err) == 0)
		return 1;
	shim_error_text(&err, text, sizeof(text));
	/* refused before any mapping moved: all of them still name self */
	return strstr(text, "not the running program") && !unmapped(self) ? 0 : 1;
}

TEST(a_file_whose_program_headers_differ_is_refused_before_any_mapping)
{
	int status;

	/* a byte of the first program header's flags */
	CHECK(make_copy(64 + 4) == 0);
	status = child_status(refuse_in_child);
	unlink(copy_path);
	CHECK(status == 0);
	return 0;
}

TEST(a_file_that_is_no_elf_is_refused)
{
	int status;

	CHECK(make_copy(0) == 0);
	status = child_status(refuse_in_child);
	unlink(copy_path);
	CHECK(status == 0);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(adopting_a_copy_of_the_file_moves_every_mapping_and_the_exe);
	RUN(a_file_whose_program_headers_differ_is_refused_before_any_mapping);
	RUN(a_file_that_is_no_elf_is_refused);
	TAP_DONE();
}
