/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim-unpack LAYOUT[:NAME] BUNDLE: what `shim unpack` runs (see
 * shim/cmd/unpack.c); prints the error and picks the exit status, as
 * main.c does for the other commands.
 */
#include "shim/images/image.h"
#include "shim/log.h"

int main(int argc, char **argv)
{
	struct shim_error err = { 0 };
	char text[2048];

	if (log_setup(NULL, "text", false, &err) == 0) {
		if (argc != 3)
			shim_fail(&err, 0, "usage: shim unpack LAYOUT[:NAME] BUNDLE");
		else if (image_unpack(argv[1], argv[2], &err) == 0)
			return 0;
	}
	log_error(shim_error_text(&err, text, sizeof(text)));
	return 1;
}
