/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "oci/base/cleanup.h"
#include "shim/log.h"
#include "shim/selfexe.h"
#include "shim/selfmap.h"
#include "shim/syscalls.h"

#define SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

extern char **environ;

static bool sealed(int fd)
{
	int seals = fcntl(fd, F_GET_SEALS);

	return seals >= 0 && (seals & SEALS) == SEALS;
}

/* On a read-only mount: no open for writing gets through the path
 * /proc/PID/exe names. Asked of the mount through an O_PATH fd, which
 * opens nothing on the binary's file system (where that is a network or
 * 9p one, each open and close is a round trip to the server). */
static bool on_readonly_mount(int exe_path)
{
	struct statfs sfs;

	return fstatfs(exe_path, &sfs) == 0 && (sfs.f_flags & ST_RDONLY);
}

/* The binary itself (exe_path: an O_PATH fd of it), through a detached
 * clone of its mount made read-only (and nosuid, nodev): nothing to copy,
 * and nobody can reach that mount to make it writable again. Needs
 * CAP_SYS_ADMIN; -1 without. */
static int readonly_bind(int exe_path)
{
	struct shim_mount_attr attr = {
		.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
	};
	int tree = exe_path < 0 ? -1 : sys_open_tree(exe_path, "", OPEN_TREE_CLONE |
								   OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);

	if (tree < 0)
		return -1;
	if (sys_mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0) {
		close(tree);
		return -1;
	}
	return tree;
}

/* The bytes the kernel maps: up to the end of the last segment, and the
 * program headers; what follows (debug sections, section headers) is not
 * needed to run. The whole file when it is not the ELF we expect. */
static off_t runnable_size(int fd, const struct stat *st)
{
	Elf64_Ehdr eh;
	off_t end;

	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr))
		return st->st_size;
	end = (off_t)(eh.e_phoff + (Elf64_Off)eh.e_phnum * sizeof(Elf64_Phdr));
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) != (ssize_t)sizeof(ph))
			return st->st_size;
		if ((off_t)(ph.p_offset + ph.p_filesz) > end)
			end = (off_t)(ph.p_offset + ph.p_filesz);
	}
	return end <= st->st_size ? end : st->st_size;
}

/* The copy has no section headers: say so in its ELF header. */
static int drop_section_headers(int fd, off_t size)
{
	Elf64_Ehdr eh;

	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || eh.e_shoff < (Elf64_Off)size)
		return 0;
	eh.e_shoff = 0;
	eh.e_shnum = 0;
	eh.e_shstrndx = SHN_UNDEF;
	return pwrite(fd, &eh, sizeof(eh), 0) == (ssize_t)sizeof(eh) ? 0 : -1;
}

/* The bind's file made this process's image and exe in place, which an
 * exec through it would have done (shim/selfmap.h); false where the
 * kernel does not let us (no CAP_SYS_RESOURCE in the host's user
 * namespace), and the exec follows. */
static bool moved_onto_bind(int tree)
{
	struct shim_error err = { 0 };
	char path[32], text[512];
	_cleanup_close_ int fd = -1;

	if (!selfmap_allowed()) {
		log_debug("no CAP_SYS_RESOURCE to set the runtime's exe: it execs itself");
		return false;
	}
	/* a readable fd for mmap and prctl (the tree's is O_PATH) */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", tree);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		log_debug("opening the read-only bind of the runtime binary: %s", strerror(errno));
		return false;
	}
	if (selfmap_adopt(fd, &err) < 0) {
		log_debug("mapping the runtime again from its read-only bind: %s; it execs itself",
			  shim_error_text(&err, text, sizeof(text)));
		return false;
	}
	return true;
}

static int sealed_copy(int exe, struct shim_error *err)
{
	struct stat st;
	off_t size, off = 0;
	int fd;

	if (fstat(exe, &st) < 0)
		return shim_fail_errno(err, "stat /proc/self/exe");
	fd = sys_memfd_create("shim", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
	if (fd < 0 && errno == EINVAL)	/* before 6.3: no MFD_EXEC, none needed */
		fd = sys_memfd_create("shim", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return shim_fail_errno(err, "memfd_create");
	size = runnable_size(exe, &st);
	while (off < size) {
		ssize_t n = sendfile(fd, exe, &off, (size_t)(size - off));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			shim_fail_errno(err, "copying /proc/self/exe to a memfd");
			close(fd);
			return -1;
		}
	}
	if (drop_section_headers(fd, size) < 0 || fchmod(fd, 0555) < 0 ||
	    fcntl(fd, F_ADD_SEALS, SEALS) < 0) {
		shim_fail_errno(err, "sealing the memfd copy of the runtime");
		close(fd);
		return -1;
	}
	return fd;
}

int selfexe_ensure_sealed(char **argv, struct shim_error *err)
{
	_cleanup_close_ int exe_path = open("/proc/self/exe", O_PATH | O_CLOEXEC);
	_cleanup_close_ int exe = -1, copy = -1;

	if (exe_path >= 0 && on_readonly_mount(exe_path))
		return 0;
	copy = readonly_bind(exe_path);
	if (copy >= 0 && moved_onto_bind(copy)) {
		log_debug("running from a read-only bind of the runtime binary, mapped in place");
		return 0;
	}
	if (copy >= 0) {
		log_debug("re-executing through a read-only bind of the runtime binary");
	} else {
		exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
		if (exe < 0)
			return shim_fail_errno(err, "open /proc/self/exe (is /proc mounted?)");
		if (sealed(exe))
			return 0;
		copy = sealed_copy(exe, err);
		if (copy < 0)
			return shim_error_wrap(err, "protecting the runtime binary");
		log_debug("re-executing from a sealed memfd copy of the runtime binary");
		exe = safe_close(exe);
	}
	sys_execveat(copy, "", argv, environ, AT_EMPTY_PATH);
	return shim_fail_errno(err, "protecting the runtime binary: exec of its protected copy");
}
