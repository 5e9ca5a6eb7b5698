/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim/filesystem/mountinfo.h: lines of /proc/self/mountinfo (read through the
 * runtime's procfs handle).
 */
#ifndef SHIM_MOUNTINFO_H
#define SHIM_MOUNTINFO_H

/* The mount point of a mountinfo line whose filesystem type is fstype,
 * unescaped in place (the line is changed); NULL for another type. */
char *mountinfo_point(char *line, const char *fstype);

/* Undo mountinfo's escapes (\ooo for space, tab, newline, backslash) in
 * place. */
void mountinfo_unescape(char *s);

#endif
