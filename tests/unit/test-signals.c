/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/signals.c: signal names, and the signal sets of a proc status file. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "shim/signals.h"
#include "tests/unit/tap.h"

/* The lines around the signal sets, as the kernel writes them. */
static const char status[] = "Name:\tshim\n"
			     "Umask:\t0022\n"
			     "SigQ:\t0/15441\n"
			     "SigPnd:\t0000000000000000\n"
			     "ShdPnd:\t0000000000000000\n"
			     "SigBlk:\t0000000000010000\n"
			     "SigIgn:\t0000000000001001\n"
			     "SigCgt:\t0000000180000000\n"
			     "CapInh:\t0000000000000000\n";

TEST(signals_by_name_and_number)
{
	CHECK(signal_parse("KILL") == SIGKILL);
	CHECK(signal_parse("SIGTERM") == SIGTERM);
	CHECK(signal_parse("usr1") == SIGUSR1);
	CHECK(signal_parse("9") == 9);
	CHECK(signal_parse("0") == 0);	/* a liveness probe, as with runc */
	CHECK(signal_parse("-1") == -1);
	CHECK(signal_parse("999") == -1);
	CHECK(signal_parse("SIGBOGUS") == -1);
	CHECK(signal_parse("") == -1);
	return 0;
}

TEST(status_sets_read_as_bit_n_minus_1_for_signal_n)
{
	uint64_t mask = 0;

	CHECK(signals_status_mask(status, "SigIgn", &mask) == 0);
	CHECK(mask == ((1ULL << (SIGHUP - 1)) | (1ULL << (SIGPIPE - 1))));
	CHECK(signals_status_mask(status, "SigCgt", &mask) == 0);
	CHECK(mask == 0x180000000ULL);
	CHECK(signals_status_mask(status, "SigBlk", &mask) == 0);
	CHECK(mask == 1ULL << (SIGCHLD - 1));
	return 0;
}

TEST(a_field_is_matched_whole_at_a_line_start)
{
	uint64_t mask = 7;

	CHECK(signals_status_mask(status, "Sig", &mask) == -1);
	CHECK(signals_status_mask(status, "Ign", &mask) == -1);
	CHECK(signals_status_mask(status, "SigPnd", &mask) == 0);
	CHECK(mask == 0);
	return 0;
}

TEST(missing_or_malformed_sets_are_refused)
{
	uint64_t mask = 7;

	CHECK(signals_status_mask("Name:\tshim\n", "SigIgn", &mask) == -1);
	CHECK(signals_status_mask("", "SigIgn", &mask) == -1);
	CHECK(signals_status_mask("SigIgn:\t00000000000010\n", "SigIgn", &mask) == -1);
	CHECK(signals_status_mask("SigIgn:\t000000000000100x\n", "SigIgn", &mask) == -1);
	CHECK(signals_status_mask("SigIgn:\t00000000000010000\n", "SigIgn", &mask) == -1);
	CHECK(mask == 7);
	CHECK(signals_status_mask("SigIgn:\t0000000000000002", "SigIgn", &mask) == 0);
	CHECK(mask == 2);
	return 0;
}

int main(void)
{
	TAP_START();
	RUN(signals_by_name_and_number);
	RUN(status_sets_read_as_bit_n_minus_1_for_signal_n);
	RUN(a_field_is_matched_whole_at_a_line_start);
	RUN(missing_or_malformed_sets_are_refused);
	TAP_DONE();
}
