/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rpcrdma-cm's additions to Wireshark's packet-iwarp-mpa.c, in that
 * file's style (tabs): the MPA v2 IRD/ORD header of RFC 6581, and a
 * heuristic table "iwarp_mpa.private" that offers the consumer's private
 * data of an MPA request or reply to the ULP's dissector (RPC-over-RDMA,
 * RFC 8797), as packet-infiniband.c's "infiniband.mad.cm.private" does
 * for the IB CM. Not compiled here: scripts/wireshark-upstream.sh cuts
 * it at the "@@ name @@" lines and places each piece at its anchor in the
 * fetched source (@INT@ and @INIT@ become that file's own hf type and
 * initializer).
 */
@@ decls @@

/* RFC 6581 (Enhanced MPA): the flag in the request and reply, and the
 * IRD/ORD header that then opens the private data */
#define MPA_RFC6581_ENHANCED_FLAG 0x10
#define MPA_RFC6581_IRD_ORD_LEN 4

static @INT@ hf_mpa_ird_ord@INIT@;
static @INT@ hf_mpa_ird_p2p@INIT@;
static @INT@ hf_mpa_ird_zero_rtr@INIT@;
static @INT@ hf_mpa_ird@INIT@;
static @INT@ hf_mpa_ord_write_rtr@INIT@;
static @INT@ hf_mpa_ord_read_rtr@INIT@;
static @INT@ hf_mpa_ord@INIT@;
static @INT@ ett_mpa_ird_ord@INIT@;
static expert_field ei_mpa_ird_ord_short = EI_INIT;

/* heuristic subdissectors of the private data after the MPA header */
static heur_dissector_list_t mpa_private_heur_subdissectors;
@@ function @@

/*
 * The private data of an MPA request or reply (@pd_length octets from
 * @offset): RFC 6581's IRD/ORD header first when the revision is 2 and
 * the Enhanced flag set, then the ULP's data, offered to the
 * "iwarp_mpa.private" heuristic subdissectors with the message type
 * (MPA_REQUEST_FRAME or MPA_REPLY_FRAME) as their data.
 */
static void
dissect_mpa_private_data(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
		proto_tree *mpa_header_tree, uint32_t offset, uint16_t pd_length,
		int message_type)
{
	heur_dtbl_entry_t *hdtbl_entry;
	proto_tree *ird_ord_tree;
	proto_item *ird_ord_item;
	tvbuff_t *next_tvb;
	uint8_t flags, rev;

	flags = tvb_get_uint8(tvb, MPA_REQ_REP_KEY_LEN);
	rev = tvb_get_uint8(tvb, MPA_REQ_REP_KEY_LEN + MPA_REQ_REP_FLAG_LEN);
	if (rev == 2 && (flags & MPA_RFC6581_ENHANCED_FLAG)) {
		if (pd_length < MPA_RFC6581_IRD_ORD_LEN) {
			proto_tree_add_expert(mpa_header_tree, pinfo,
					&ei_mpa_ird_ord_short, tvb, offset, pd_length);
			return;
		}
		ird_ord_item = proto_tree_add_item(mpa_header_tree,
				hf_mpa_ird_ord, tvb, offset,
				MPA_RFC6581_IRD_ORD_LEN, ENC_NA);
		ird_ord_tree = proto_item_add_subtree(ird_ord_item,
				ett_mpa_ird_ord);
		proto_tree_add_item(ird_ord_tree, hf_mpa_ird_p2p, tvb,
				offset, 2, ENC_BIG_ENDIAN);
		proto_tree_add_item(ird_ord_tree, hf_mpa_ird_zero_rtr, tvb,
				offset, 2, ENC_BIG_ENDIAN);
		proto_tree_add_item(ird_ord_tree, hf_mpa_ird, tvb,
				offset, 2, ENC_BIG_ENDIAN);
		proto_tree_add_item(ird_ord_tree, hf_mpa_ord_write_rtr, tvb,
				offset + 2, 2, ENC_BIG_ENDIAN);
		proto_tree_add_item(ird_ord_tree, hf_mpa_ord_read_rtr, tvb,
				offset + 2, 2, ENC_BIG_ENDIAN);
		proto_tree_add_item(ird_ord_tree, hf_mpa_ord, tvb,
				offset + 2, 2, ENC_BIG_ENDIAN);
		offset += MPA_RFC6581_IRD_ORD_LEN;
		pd_length -= MPA_RFC6581_IRD_ORD_LEN;
	}
	next_tvb = tvb_new_subset_length(tvb, offset, pd_length);
	dissector_try_heuristic(mpa_private_heur_subdissectors, next_tvb,
			pinfo, tree, &hdtbl_entry, &message_type);
}
@@ call @@
			dissect_mpa_private_data(tvb, pinfo, tree,
					mpa_header_tree, offset, pd_length,
					message_type);
@@ hf @@
			{ &hf_mpa_ird_ord, {
					"IRD/ORD (RFC 6581)", "iwarp_mpa.ird_ord",
					FT_BYTES, BASE_NONE, NULL, 0x0,
					"Enhanced MPA header ahead of the ULP's private data", HFILL } },
			{ &hf_mpa_ird_p2p, {
					"Peer-to-Peer", "iwarp_mpa.ird_ord.p2p",
					FT_BOOLEAN, 16, NULL, 0x8000,
					NULL, HFILL } },
			{ &hf_mpa_ird_zero_rtr, {
					"Zero-length RTR", "iwarp_mpa.ird_ord.zero_rtr",
					FT_BOOLEAN, 16, NULL, 0x4000,
					NULL, HFILL } },
			{ &hf_mpa_ird, {
					"IRD", "iwarp_mpa.ird_ord.ird",
					FT_UINT16, BASE_DEC, NULL, 0x3fff,
					"Inbound RDMA Read Queue Depth", HFILL } },
			{ &hf_mpa_ord_write_rtr, {
					"RDMA Write RTR", "iwarp_mpa.ird_ord.write_rtr",
					FT_BOOLEAN, 16, NULL, 0x8000,
					NULL, HFILL } },
			{ &hf_mpa_ord_read_rtr, {
					"RDMA Read RTR", "iwarp_mpa.ird_ord.read_rtr",
					FT_BOOLEAN, 16, NULL, 0x4000,
					NULL, HFILL } },
			{ &hf_mpa_ord, {
					"ORD", "iwarp_mpa.ird_ord.ord",
					FT_UINT16, BASE_DEC, NULL, 0x3fff,
					"Outbound RDMA Read Queue Depth", HFILL } },
@@ ett @@
			&ett_mpa_ird_ord,
@@ ei @@
		{ &ei_mpa_ird_ord_short, { "iwarp_mpa.ird_ord.short", PI_MALFORMED, PI_ERROR, "Enhanced MPA private data shorter than its IRD/ORD header", EXPFILL }},
@@ register @@
	mpa_private_heur_subdissectors = register_heur_dissector_list(
			"iwarp_mpa.private", proto_iwarp_mpa);
