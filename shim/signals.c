/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "shim/signals.h"

static const struct {
	const char *name;
	int sig;
} names[] = {
	{ "HUP", SIGHUP },   { "INT", SIGINT },     { "QUIT", SIGQUIT },   { "ILL", SIGILL },
	{ "TRAP", SIGTRAP }, { "ABRT", SIGABRT },   { "IOT", SIGIOT },     { "BUS", SIGBUS },
	{ "FPE", SIGFPE },   { "KILL", SIGKILL },   { "USR1", SIGUSR1 },   { "SEGV", SIGSEGV },
	{ "USR2", SIGUSR2 }, { "PIPE", SIGPIPE },   { "ALRM", SIGALRM },   { "TERM", SIGTERM },
	{ "STKFLT", SIGSTKFLT }, { "CHLD", SIGCHLD }, { "CONT", SIGCONT }, { "STOP", SIGSTOP },
	{ "TSTP", SIGTSTP }, { "TTIN", SIGTTIN },   { "TTOU", SIGTTOU },   { "URG", SIGURG },
	{ "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ },   { "VTALRM", SIGVTALRM }, { "PROF", SIGPROF },
	{ "WINCH", SIGWINCH }, { "IO", SIGIO },     { "POLL", SIGPOLL },   { "PWR", SIGPWR },
	{ "SYS", SIGSYS },
};

int signal_parse(const char *text)
{
	char *end;
	long n;

	if (!text || !*text)
		return -1;
	n = strtol(text, &end, 10);
	if (!*end)
		return n >= 0 && n < NSIG ? (int)n : -1;
	if (strncasecmp(text, "SIG", 3) == 0)
		text += 3;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(names[i].name, text) == 0)
			return names[i].sig;
	return -1;
}

void signals_forwarded(sigset_t *set)
{
	static const int forwarded[] = {
		SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH,
	};

	sigemptyset(set);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaddset(set, forwarded[i]);
}

int signals_status_mask(const char *status, const char *field, uint64_t *mask)
{
	size_t len = strlen(field);
	const char *line = status, *value;

	while (strncmp(line, field, len) != 0 || line[len] != ':') {
		line = strchr(line, '\n');
		if (!line)
			return -1;
		line++;
	}
	value = line + len + 1;
	while (*value == '\t' || *value == ' ')
		value++;
	for (int i = 0; i < 16; i++)
		if (!isxdigit((unsigned char)value[i]))
			return -1;
	if (value[16] != '\n' && value[16] != '\0')
		return -1;
	*mask = strtoull(value, NULL, 16);
	return 0;
}
