/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "oci/strv.h"

void strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

size_t strv_len(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

char **strv_copy(char *const *v)
{
	size_t n = strv_len(v);
	char **out = calloc(n + 1, sizeof(char *));

	for (size_t i = 0; out && i < n; i++)
		if (!(out[i] = strdup(v[i]))) {
			strv_free(out);
			return NULL;
		}
	return out;
}
