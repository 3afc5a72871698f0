# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Scenario 6: short replies (issue 6). Our server with short_replies=1
# answers Calls that offered a Reply chunk inline when the Reply fits
# the negotiated server-to-client threshold; both this project's client
# and Debian's stock client must take those replies (data exact,
# metadata consistent), and the server's counters must show Reply
# chunks no longer written; with short_replies=0 they all are again.
SC_DESC="short_replies=1 on our server: our client and stock client, data exact, Reply chunks skipped"
sc_run() {
	sc_pair short-ours ours "short_replies=1" ours "" \
		"$SCDIR/06-short-replies.client.sh" C:SHORT_CLIENT=ours
	sc_pair short-stock ours "short_replies=1" stock "" \
		"$SCDIR/06-short-replies.client.sh" C:SHORT_CLIENT=stock
}
