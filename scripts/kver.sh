#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the default target kernel for the Makefile without reading
# Debian's archive: the release of the installed headers (kver_default
# in lib.sh), else the short name of the host's Debian release, which the
# scripts resolve to today's release when they run.
unset KVER
. "$(dirname "$0")/lib.sh"
kver_default_name
