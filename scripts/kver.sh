#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the default target kernel release (see kver_default in lib.sh).
. "$(dirname "$0")/lib.sh"
kver_default
