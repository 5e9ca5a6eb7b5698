/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci/base/strv.h: NULL-terminated vectors of malloc'd strings (args, env). */
#ifndef OCI_STRV_H
#define OCI_STRV_H

#include <stddef.h>

/* Free each string, then the vector; NULL is fine. */
void strv_free(char **v);

/* The number of strings before the NULL; 0 for NULL. */
size_t strv_len(char *const *v);

/* A deep copy (each string duplicated), NULL-terminated; NULL when out of
 * memory. NULL copies to an empty vector. */
char **strv_copy(char *const *v);

/* Set "KEY=VALUE" in the environment *env (NULL is fine): what *env says
 * of KEY goes, a copy of entry is appended. -1 when out of memory (*env
 * then as it was). */
int strv_env_set(char ***env, const char *entry);

#endif
