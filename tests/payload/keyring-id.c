/* SPDX-License-Identifier: GPL-2.0-or-later */
/* keyring-id: print the ID of this process's session keyring (0 if none). */
#include <stdio.h>

#include "shim/syscalls.h"

int main(void)
{
	long id = sys_keyctl(SHIM_KEYCTL_GET_KEYRING_ID, (unsigned long)SHIM_KEY_SPEC_SESSION_KEYRING,
			     0, 0, 0);

	if (id < 0) {
		perror("keyring-id: keyctl");
		return 1;
	}
	printf("%ld\n", id);
	return 0;
}
