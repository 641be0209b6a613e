// SPDX-License-Identifier: GPL-2.0
#include "dlbench/exitcode.h"

const char *dlb_exit_str(int code)
{
	switch (code) {
#define X(name, value, text) case value: return text;
	DLB_EXIT_CODES(X)
#undef X
	}
	return "unknown exit code";
}
