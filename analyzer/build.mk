# SPDX-License-Identifier: GPL-2.0
# Minimal analyzer/build.mk (input half only); the metrics half's build.mk
# replaces this file and keeps the include below.
include analyzer/input.mk
