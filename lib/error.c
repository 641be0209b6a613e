// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dlbench/error.h"
#include "dlbench/exitcode.h"

int dlb_err_set(struct dlb_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->code = code;
	err->errnum = 0;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int dlb_err_prefix(struct dlb_err *err, const char *fmt, ...)
{
	char pre[DLB_ERR_MAX], old[DLB_ERR_MAX];
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s: %s", pre, old);
	return -1;
}

void dlb_err_clear(struct dlb_err *err)
{
	if (!err)
		return;
	err->code = DLB_EXIT_OK;
	err->errnum = 0;
	err->msg[0] = '\0';
}
