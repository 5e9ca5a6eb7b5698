/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shim/version.h: what `--version` and `features` report. */
#ifndef SHIM_VERSION_H
#define SHIM_VERSION_H

#define SHIM_VERSION "0.1.0"
#define SHIM_SPEC_VERSION "1.3.0"

#endif
