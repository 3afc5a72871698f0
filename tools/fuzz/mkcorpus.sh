#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate the seed corpus in tools/fuzz/corpus: hand-made private
# data buffers around the RFC 8797 message. The files are committed;
# run this only to change them. Each file is raw private data, as the
# CM would deliver it.

set -e
cd "$(dirname "$0")/corpus"

# put NAME HEX... : write the octets given in hex to NAME
put() {
	local name=$1 hex
	shift
	hex=$(echo "$*" | tr -d ' ')
	printf '%s' "$hex" | xxd -r -p >"$name"
}
zeros() { printf '%*s' $(($1 * 2)) '' | tr ' ' 0; }

ID=f6ab0e18
MSG="$ID 01 01 03 03"		# R set, 4096/4096: what Linux sends

: >empty
put valid-r-4k-4k $MSG
put valid-nor-1k-256k $ID 01 00 00 ff
put valid-reserved-bits-set $ID 01 ff 0f 1f
put valid-sizes-255-0 $ID 01 01 ff 00
put valid-offset-1 aa $MSG
put valid-offset-3 00 01 02 $MSG
put valid-offset-7 01 02 03 04 05 06 07 $MSG
put valid-then-extension $MSG 00 11 22 33 44 55 66 77
put valid-then-second $MSG $ID 01 00 ff ff
for n in 1 2 3 4 5 6 7; do
	put "truncated-$n" "$(echo $MSG | tr -d ' ' | cut -c1-$((n * 2)))"
done
put truncated-at-offset-5 00 00 00 00 00 $ID 01 01 03
put version-0 $ID 00 01 03 03
put version-2 $ID 02 01 03 03
put version-255 $ID ff 01 03 03
put bad-version-then-valid $ID 02 01 03 03 $MSG
put overlapping-ident $ID $ID 01 01 07 07
put ident-prefix-at-end 00 11 f6 ab 0e
put garbage-no-ident 00 ff 18 0e ab f6 de ad be ef 01 01 03 03
put byte-swapped-ident 180eabf6 01 01 03 03
put cm-req-56-padded $MSG "$(zeros 48)"
put cm-rep-196-padded $ID 01 00 1f 1f "$(zeros 188)"
put cm-req-56-ident-at-48 "$(zeros 48)" $MSG
put cm-req-56-truncated-at-50 "$(zeros 50)" $ID 01 01
put cm-rep-196-truncated-at-end "$(zeros 190)" $ID 01 01
put mpa-v2-ird-ord-prefix 80 00 80 00 $MSG
