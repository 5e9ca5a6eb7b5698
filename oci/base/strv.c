/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "oci/base/strv.h"

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

int strv_env_set(char ***env, const char *entry)
{
	const char *eq = strchr(entry, '=');
	size_t key = eq ? (size_t)(eq - entry) + 1 : strlen(entry), n = strv_len(*env), k = 0;
	char *copy = strdup(entry), **v = copy ? realloc(*env, (n + 2) * sizeof(char *)) : NULL;

	if (!v) {
		free(copy);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (strncmp(v[i], entry, key) == 0)
			free(v[i]);
		else
			v[k++] = v[i];
	}
	v[k++] = copy;
	v[k] = NULL;
	*env = v;
	return 0;
}
