/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci/descriptors.h: descriptors.json, which `checkpoint` writes beside
 * CRIU's images as runc does: what the init's fds 0, 1 and 2 were, as
 * /proc names them ("pipe:[123]", "/dev/null"), so that `restore` can hand
 * a pipe over to its new end.
 */
#ifndef OCI_DESCRIPTORS_H
#define OCI_DESCRIPTORS_H

#include <stddef.h>

#include "oci/base/error.h"

#define OCI_DESCRIPTORS_FILE "descriptors.json"

/* The JSON array of the three names. NULL with err. */
char *oci_descriptors_to_json(const char *const names[3], struct shim_error *err);

/* names[0..2] (malloc'd, NULL where the entry is missing or no string)
 * from the file's text; -1 with err naming the file when it is no JSON
 * array. Free with oci_descriptors_free. */
int oci_descriptors_parse(const char *text, size_t len, char *names[3], struct shim_error *err);
void oci_descriptors_free(char *names[3]);

#endif
