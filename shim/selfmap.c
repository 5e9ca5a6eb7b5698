/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "shim/selfmap.h"

/* more than any linker writes; the loaded ones are compared with these */
#define MAX_PHDRS 32

struct image {
	const ElfW(Phdr) *ph;	/* the loaded program headers */
	size_t n;
	uintptr_t bias;		/* load address minus link address (0 unless PIE) */
	uintptr_t page;
};

bool selfmap_allowed(void)
{
	/* fd -1 is refused only after the capability check: EBADF, not EPERM */
	return prctl(PR_SET_MM, PR_SET_MM_EXE_FILE, (unsigned long)-1, 0, 0) < 0 && errno == EBADF;
}

/* The running program's headers, and proof that fd holds its bytes. */
static int image_find(int fd, struct image *im, struct shim_error *err)
{
	ElfW(Phdr) file_ph[MAX_PHDRS];
	ElfW(Ehdr) eh;
	size_t size;

	im->ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	im->n = getauxval(AT_PHNUM);
	im->page = (uintptr_t)sysconf(_SC_PAGESIZE);
	if (!im->ph || im->n == 0 || im->n > MAX_PHDRS || getauxval(AT_PHENT) != sizeof(ElfW(Phdr)))
		return shim_fail(err, 0, "the program's headers are not in its auxiliary vector");
	size = im->n * sizeof(ElfW(Phdr));
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_phnum != im->n ||
	    eh.e_phentsize != sizeof(ElfW(Phdr)) ||
	    pread(fd, file_ph, size, (off_t)eh.e_phoff) != (ssize_t)size ||
	    memcmp(file_ph, im->ph, size) != 0)
		return shim_fail(err, 0, "the file is not the running program (program headers differ)");
	for (size_t i = 0; i < im->n; i++) {
		const ElfW(Phdr) *p = &im->ph[i];

		if (p->p_type == PT_LOAD && p->p_offset <= eh.e_phoff &&
		    eh.e_phoff - p->p_offset < p->p_filesz) {
			im->bias = (uintptr_t)im->ph - (p->p_vaddr + (eh.e_phoff - p->p_offset));
			return 0;
		}
	}
	return shim_fail(err, 0, "the program headers are in no loaded segment");
}

/* The loaded address of vaddr (an address of the ELF file's view),
 * rounded down to its page. */
static uintptr_t page_down(const struct image *im, uintptr_t vaddr)
{
	return (im->bias + vaddr) & ~(im->page - 1);
}

static int prot_of(const ElfW(Phdr) *p)
{
	return ((p->p_flags & PF_R) ? PROT_READ : 0) | ((p->p_flags & PF_W) ? PROT_WRITE : 0) |
	       ((p->p_flags & PF_X) ? PROT_EXEC : 0);
}

/* Written pages: copied to anonymous memory that then takes their place.
 * Nothing may write to [start, start + len) between the copy and the
 * move: only memcpy and mremap run there, and neither writes there. */
static int replace_by_copy(uintptr_t start, size_t len, struct shim_error *err)
{
	void *copy = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (copy == MAP_FAILED)
		return shim_fail_errno(err, "mmap of %zu bytes for the writable segment", len);
	memcpy(copy, (void *)start, len);
	if (mremap(copy, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)start) == MAP_FAILED) {
		shim_fail_errno(err, "mremap of the writable segment's copy");
		munmap(copy, len);
		return -1;
	}
	return 0;
}

/* The first page of the loaded segment after segment i, or 0. */
static uintptr_t next_segment_start(const struct image *im, size_t i)
{
	for (size_t j = i + 1; j < im->n; j++)
		if (im->ph[j].p_type == PT_LOAD && im->ph[j].p_filesz > 0)
			return page_down(im, im->ph[j].p_vaddr);
	return 0;
}

/* Each loaded segment's file-backed pages, rounded as the kernel maps
 * them (the zero-filled rest of a writable segment is anonymous already).
 * The kernel maps the segments in order, so a page two of them share
 * belongs to the later one: it is left out of the earlier one here, or
 * mapping it again from the file would undo what the program wrote. */
static int map_segments(int fd, const struct image *im, struct shim_error *err)
{
	for (size_t i = 0; i < im->n; i++) {
		const ElfW(Phdr) *p = &im->ph[i];
		uintptr_t start, end, next;

		if (p->p_type != PT_LOAD || p->p_filesz == 0)
			continue;
		start = page_down(im, p->p_vaddr);
		end = page_down(im, p->p_vaddr + p->p_filesz + im->page - 1);
		next = next_segment_start(im, i);
		if (next > start && next < end)
			end = next;
		if (p->p_flags & PF_W) {
			if (replace_by_copy(start, end - start, err) < 0)
				return -1;
		} else if (mmap((void *)start, end - start, prot_of(p), MAP_PRIVATE | MAP_FIXED, fd,
				(off_t)(p->p_offset & ~(im->page - 1))) == MAP_FAILED) {
			return shim_fail_errno(err, "mmap of segment %zu again", i);
		}
	}
	return 0;
}

/* The copy is writable throughout: the loader had made RELRO read-only. */
static int protect_relro(const struct image *im, struct shim_error *err)
{
	for (size_t i = 0; i < im->n; i++) {
		const ElfW(Phdr) *p = &im->ph[i];
		uintptr_t start, end;

		if (p->p_type != PT_GNU_RELRO)
			continue;
		start = page_down(im, p->p_vaddr);
		end = page_down(im, p->p_vaddr + p->p_memsz);
		if (end > start && mprotect((void *)start, end - start, PROT_READ) < 0)
			return shim_fail_errno(err, "mprotect of RELRO");
	}
	return 0;
}

int selfmap_adopt(int fd, struct shim_error *err)
{
	struct image im;

	if (image_find(fd, &im, err) < 0 || map_segments(fd, &im, err) < 0 ||
	    protect_relro(&im, err) < 0)
		return -1;
	if (prctl(PR_SET_MM, PR_SET_MM_EXE_FILE, (unsigned long)fd, 0, 0) < 0)
		return shim_fail_errno(err, "prctl PR_SET_MM_EXE_FILE");
	return 0;
}
