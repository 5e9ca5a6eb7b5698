/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "oci/idlist.h"

#define WORD_BITS (8 * sizeof(unsigned long))

int idlist_parse(const char *list, unsigned long *mask, unsigned long *too_big)
{
	const char *p = list;

	memset(mask, 0, IDLIST_WORDS * sizeof(unsigned long));
	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p || *p < '0' || *p > '9')
			return -1;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || *p < '0' || *p > '9' || b < a)
				return -1;
		}
		if (b >= IDLIST_MAX) {
			*too_big = b;
			return -2;
		}
		for (unsigned long i = a; i <= b; i++)
			mask[i / WORD_BITS] |= 1UL << (i % WORD_BITS);
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return -1;
	}
	return *list ? 0 : -1;
}
