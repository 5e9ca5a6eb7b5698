/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "shim/filesystem/mountinfo.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
void mountinfo_unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

char *mountinfo_point(char *line, const char *fstype)
{
	char *mountpoint = NULL, *sep = strstr(line, " - "), *save = NULL, *field;
	size_t n = strlen(fstype);
	int i = 0;

	if (!sep || strncmp(sep + 3, fstype, n) != 0 || sep[3 + n] != ' ')
		return NULL;
	*sep = '\0';
	for (field = strtok_r(line, " ", &save); field; field = strtok_r(NULL, " ", &save))
		if (++i == 5)
			mountpoint = field;
	if (mountpoint)
		mountinfo_unescape(mountpoint);
	return mountpoint;
}
