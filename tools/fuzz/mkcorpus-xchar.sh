#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate the seed corpus in tools/fuzz/corpus-xchar: transport
# property messages (draft-dnoveck-nfsv4-rpcrdma-xcharext-03) laid out
# word by word. The files are committed; run this only to change them.
# Each file is one input to tools/fuzz/rpcrdma_xchar_fuzz.c, which
# reads it as a whole RDMA2_OPTIONAL message, as the rdma_optinfo of
# each ROPT message and as a propvalset, and as Version Two headers.

set -e
mkdir -p "$(dirname "$0")/corpus-xchar"
cd "$(dirname "$0")/corpus-xchar"

# put NAME WORD...: write the 32-bit words, given in hex, big-endian
put() {
	local name=$1 w
	shift
	for w in "$@"; do
		printf '%08x' "$((16#$w))"
	done | xxd -r -p >"$name"
}

# optinfo of each message type
RBSIZ_4K="1 4 1000"
REQREMINV_T="2 4 1"
BRS_INLINE="3 4 1"
CONNPROP="3 $RBSIZ_4K $REQREMINV_T $BRS_INLINE 1 6"
REQPROP="1 1 4 800"
RESPROP="1 1 1 2 1 1 4 800"
UPDPROP="1 1 4 4000"

# length of a list of words, in octets, in hex
octets() { printf '%x' $(($# * 4)); }

# opthdr XID DIR TYPE WORD...: an RDMA2_OPTIONAL message around them
opthdr() {
	local xid=$1 dir=$2 type=$3
	shift 3
	echo "$xid 2 20 5 $dir $type $(octets "$@") $*"
}

: >empty
put connprop $CONNPROP
put connprop-empty 0 0
put connprop-defaults 2 1 0 2 0 0
put connprop-unknown-between 4 ffffff01 5 61626364 65000000 1 4 2000 9 0 3 4 0 1 8
put connprop-wide-nochg 2 ffffff10 0 1 4 10000 2 0 2
put reqprop $REQPROP
put reqprop-raise 1 1 4 4000
put reqprop-mixed 3 ffffff07 4 1 1 4 800 2 4 0
put resprop $RESPROP
put resprop-overlap 1 1 1 1 0
put resprop-unasked 1 1 0 1 3 4 0
put updprop $UPDPROP
put set-dup 2 1 4 1000 1 4 2000
put set-bad-bool 1 2 4 2
put set-bad-brs 1 3 4 3
put set-short 1 3 2 10000
put set-past-end 1 1 8 1000
put set-count-huge ffffffff 1 4 1000
put set-len-huge 1 77 ffffffff 0
put subset-two-words 2 80000001 4
# shellcheck disable=SC2046 # word splitting is the point
{
put msg-connprop $(opthdr 1 0 1 $CONNPROP)
put msg-reqprop $(opthdr 2 0 2 $REQPROP)
put msg-resprop $(opthdr 2 1 3 $RESPROP)
put msg-updprop $(opthdr 3 0 4 $UPDPROP)
put msg-unknown-opttype $(opthdr 4 0 63 $UPDPROP)
put msg-optdir-2 $(opthdr 5 2 1 $CONNPROP)
put msg-v1-rdma-msg 1 1 20 0 0 0 0
put msg-v2-rdma-msg 1 2 20 0 0 0 0 0 0
}
# RDMA2_MSG/NOMSG and RDMA2_ERROR of version-two-01 and of the working
# copy of 2016-11-10 (which adds rdma_inv_handle and renumbers errors)
put hdr-msg-01 9 2 20 0 0 0 0 0
put hdr-msg-wc 9 2 20 0 1 1234 0 0 0
put hdr-nomsg-01 a 2 3 1 0 1 0 11111111 200 1 2000 0 0 1 1 22222222 1000 0 8000
put hdr-lists-01 b 2 3 0 0 1 28 33 8 0 0 1 0 44 10 0 100 0 1 1 55 4 0 0 1 0 0 1 0
put hdr-err-inval-01 5 2 3 4 3
put hdr-err-inval-wc 5 2 3 4 5
put hdr-err-vers 1 2 3 4 1 2 2
put hdr-err-resource-wc 8 2 3 4 3 1 1770
