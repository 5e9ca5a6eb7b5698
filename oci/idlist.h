/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/idlist.h: "0-3,7" lists of CPU or NUMA node numbers, as taskset,
 * the cpuset files and execCPUAffinity / memoryPolicy.nodes write them.
 */
#ifndef OCI_IDLIST_H
#define OCI_IDLIST_H

#include <stddef.h>

#define IDLIST_MAX 1024		/* numbers 0 .. 1023 */
#define IDLIST_WORDS (IDLIST_MAX / (8 * sizeof(unsigned long)))

/* Set the listed bits in mask (IDLIST_WORDS longs, cleared first).
 * Returns 0, -1 for text that is not such a list, or the first number
 * past IDLIST_MAX - 1 (> 0) in *too_big with -2. */
int idlist_parse(const char *list, unsigned long *mask, unsigned long *too_big);

#endif
