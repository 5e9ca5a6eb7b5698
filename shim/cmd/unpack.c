/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unpack LAYOUT[:NAME] BUNDLE: an OCI image layout into a new bundle. */
#include "shim/cmd/cmd.h"
#include "shim/image.h"

int cmd_unpack(const struct global_opts *g, int argc, char **argv, struct shim_error *err)
{
	if (argc != 3 || argv[1][0] == '-' || argv[2][0] == '-')
		return shim_fail(err, 0, "usage: shim unpack LAYOUT[:NAME] BUNDLE");
	return image_unpack(argv[1], argv[2], err) < 0 ? -1 : 0;
}
