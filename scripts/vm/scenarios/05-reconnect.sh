# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 5: every reconnection negotiates afresh.
SC_DESC="server limits change, client reconnects (sysfs, then server restart): new values both sides"
sc_run() {
	sc_pair reconnect ours "" ours "" "$SCDIR/05-reconnect.client.sh"
}
