-- SPDX-License-Identifier: GPL-2.0
--
-- Wireshark dissector for the RPC-over-RDMA Version 1 RDMA-CM private
-- data message (RFC 8797): Format Identifier 0xf6ab0e18, Version, R,
-- Send Size and Receive Size, exchanged when an NFS/RDMA connection is
-- set up.
--
-- It runs as a postdissector: Wireshark's own dissectors decode the
-- carrier and leave their fields in the tree, and this script reads the
-- private data from those fields. Nothing of theirs is replaced, so the
-- InfiniBand CM and MPA dissection stays as it was.
--   RoCEv2/InfiniBand CM ConnectRequest and ConnectReply ("infiniband"):
--     a REQ's consumer data follows rdma_cm's IP CM header when the
--     Service ID says one is there; a REP's is its whole private data.
--   iWARP MPA request and reply ("iwarp_mpa"): the private data after
--     the MPA header, less the MPA v2 IRD/ORD header when the revision
--     is 2 and the Enhanced flag is set.
-- The search for the message follows net/sunrpc/xprtrdma/rpcrdma_pdata.c
-- exactly, so that the dissector and the kernel agree on every buffer.
--
-- Use: tshark -X lua_script:rpcrdma_cm.lua -r capture.pcap
-- or copy it into ~/.local/lib/wireshark/plugins/ (scripts/wireshark.sh).
-- Written for Lua 5.2 (Wireshark 4.0) and later: no bit library.

-- The C dissector (tools/wireshark/c, package rpcrdma-cm-wireshark)
-- decodes the same message under "rpcrdma"; when Wireshark has loaded
-- it, this script stays out of the way: one decoder, never both.
if pcall(Field.new, "rpcrdma.cm.status") then
	return
end

local rpcrdma_cm = Proto("rpcrdma_cm",
	"RPC-over-RDMA Version 1 CM Private Data (RFC 8797)")

local FORMAT_ID = "\246\171\014\024"	-- 0xf6ab0e18, network order
local MSG_LEN = 8
local VERSION = 1
local SIZE_UNIT = 1024
local MPA_HDR_LEN = 20			-- key, flags, revision, length
local MPA_FLAG_ENHANCED = 0x10
local MPA_V2_HDR_LEN = 4		-- IRD/ORD (RFC 6581)
local DEFAULTS = "the peer gets the defaults: R clear, " ..
	"Send and Receive Size 1024"

local pf = {
	carrier = ProtoField.string("rpcrdma_cm.carrier", "Carrier"),
	status = ProtoField.string("rpcrdma_cm.status", "Status",
		base.ASCII, "as rpcrdma_pdata_parse() names it"),
	length = ProtoField.uint32("rpcrdma_cm.length",
		"Private data searched (octets)"),
	mpa_v2 = ProtoField.bytes("rpcrdma_cm.mpa_ird_ord",
		"MPA v2 IRD/ORD header (skipped)"),
	offset = ProtoField.uint32("rpcrdma_cm.offset",
		"Offset of the Format Identifier"),
	format_id = ProtoField.uint32("rpcrdma_cm.format_id",
		"Format Identifier", base.HEX),
	version = ProtoField.uint8("rpcrdma_cm.version", "Version"),
	flags = ProtoField.uint8("rpcrdma_cm.flags", "Flags", base.HEX),
	reserved = ProtoField.uint8("rpcrdma_cm.reserved", "Reserved",
		base.HEX, nil, 0xfe),
	r = ProtoField.bool("rpcrdma_cm.r", "Remote Invalidation (R)", 8,
		nil, 0x01),
	send_size = ProtoField.uint32("rpcrdma_cm.send_size",
		"Send Size (octets)"),
	send_enc = ProtoField.uint8("rpcrdma_cm.send_size.encoded",
		"Send Size (encoded)"),
	recv_size = ProtoField.uint32("rpcrdma_cm.recv_size",
		"Receive Size (octets)"),
	recv_enc = ProtoField.uint8("rpcrdma_cm.recv_size.encoded",
		"Receive Size (encoded)"),
}
rpcrdma_cm.fields = {
	pf.carrier, pf.status, pf.length, pf.mpa_v2, pf.offset,
	pf.format_id, pf.version, pf.flags, pf.reserved, pf.r,
	pf.send_size, pf.send_enc, pf.recv_size, pf.recv_enc,
}

local ex = {
	absent = ProtoExpert.new("rpcrdma_cm.expert.absent",
		"Not RFC 8797", expert.group.PROTOCOL, expert.severity.NOTE),
	truncated = ProtoExpert.new("rpcrdma_cm.expert.truncated",
		"RFC 8797 message truncated", expert.group.MALFORMED,
		expert.severity.ERROR),
	bad_version = ProtoExpert.new("rpcrdma_cm.expert.bad_version",
		"RFC 8797 unknown version", expert.group.PROTOCOL,
		expert.severity.WARN),
	reserved = ProtoExpert.new("rpcrdma_cm.expert.reserved",
		"RFC 8797 reserved bits set", expert.group.PROTOCOL,
		expert.severity.WARN),
	offset = ProtoExpert.new("rpcrdma_cm.expert.offset",
		"RFC 8797 message not at offset 0", expert.group.PROTOCOL,
		expert.severity.NOTE),
	mpa_short = ProtoExpert.new("rpcrdma_cm.expert.mpa_short",
		"MPA v2 private data shorter than its IRD/ORD header",
		expert.group.MALFORMED, expert.severity.ERROR),
}
rpcrdma_cm.experts = {
	ex.absent, ex.truncated, ex.bad_version, ex.reserved, ex.offset,
	ex.mpa_short,
}

-- Fields of Wireshark's own dissectors (names as in 4.0 through 4.4)
local f_req_private = Field.new("infiniband.cm.req.private")
local f_req_ipcm_private = Field.new("infiniband.cm.req.ip_cm.private")
local f_rep_private = Field.new("infiniband.cm.rep.private")
local f_mpa_req = Field.new("iwarp_mpa.key.req")
local f_mpa_rep = Field.new("iwarp_mpa.key.rep")

-- Judge the candidate whose identifier starts at 0-based @off of @s,
-- the way rpcrdma_pdata_decode_at() does.
local function judge(s, off)
	if #s - off < MSG_LEN then
		return "truncated"
	end
	if s:byte(off + 5) ~= VERSION then
		return "bad_version"
	end
	return "present"
end

-- RFC 8797 Section 5.2 as rpcrdma_pdata_parse() reads it: try every
-- offset; the first valid candidate wins, otherwise the first
-- candidate's fault is the verdict (that is where the peer's message
-- most likely began). Returns the status and the candidate's offset.
local function find_message(s)
	local first, first_off
	local pos = s:find(FORMAT_ID, 1, true)

	while pos do
		local status = judge(s, pos - 1)
		if status == "present" then
			return status, pos - 1
		end
		if not first then
			first, first_off = status, pos - 1
		end
		pos = s:find(FORMAT_ID, pos + 1, true)
	end
	if #s == 0 then
		return "no_data"
	end
	return first or "no_ident", first_off
end

local function decode_size(encoded)
	return (encoded + 1) * SIZE_UNIT
end

-- Add the fields of a valid Version 1 message at @range (8 octets);
-- return a one-line summary for the Info column.
local function add_message(tree, range)
	local flags = range(5, 1):uint()
	local r = flags % 2
	local send = decode_size(range(6, 1):uint())
	local recv = decode_size(range(7, 1):uint())

	tree:add(pf.version, range(4, 1))
	local ftree = tree:add(pf.flags, range(5, 1))
	ftree:add(pf.reserved, range(5, 1))
	ftree:add(pf.r, range(5, 1))
	if flags - r ~= 0 then
		ftree:add_proto_expert_info(ex.reserved, string.format(
			"Reserved bits set (flags 0x%02x): senders must " ..
			"send zero, receivers ignore them", flags))
	end
	tree:add(pf.send_size, range(6, 1), send)
		:add(pf.send_enc, range(6, 1))
	tree:add(pf.recv_size, range(7, 1), recv)
		:add(pf.recv_enc, range(7, 1))
	return string.format("R=%d send %d recv %d", r, send, recv)
end

-- Explain why no message is used; return the Info column summary.
local function add_fault(tree, range, status, off)
	if status == "truncated" then
		tree:add_proto_expert_info(ex.truncated, string.format(
			"Truncated: the private data ends %d octets into " ..
			"the %d-octet message at offset %d; %s",
			range:len() - off, MSG_LEN, off, DEFAULTS))
		return "truncated"
	end
	if status == "bad_version" then
		local version = range(off + 4, 1):uint()
		tree:add(pf.version, range(off + 4, 1))
		tree:add_proto_expert_info(ex.bad_version, string.format(
			"Unknown Version %d: a Version 1 receiver ignores " ..
			"the message; %s", version, DEFAULTS))
		return "unknown version " .. version
	end
	tree:add_proto_expert_info(ex.absent, string.format(
		"Not RFC 8797: %s; %s", status == "no_data" and
		"no private data" or "no Format Identifier in the private data",
		DEFAULTS))
	return "absent"
end

-- Decode the consumer's private data @range, nil when there is none.
-- @anchor is the carrier's item the tree hangs from in that case;
-- @skipped, the MPA v2 IRD/ORD header ahead of @range, if any.
local function dissect_pdata(tree, pinfo, carrier, anchor, range, skipped)
	local s = range and range:raw() or ""
	local status, off = find_message(s)
	local root = tree:add(rpcrdma_cm, range or anchor)
	local summary

	root:add(pf.carrier, carrier):set_generated()
	root:add(pf.status, status):set_generated()
	if skipped then
		root:add(pf.mpa_v2, skipped)
	end
	root:add(pf.length, #s):set_generated()
	if off then
		local at = range(off, math.min(MSG_LEN, #s - off))
		root:add(pf.offset, at, off):set_generated()
		root:add(pf.format_id, at(0, 4))
	end
	if status == "present" then
		if off ~= 0 then
			root:add_proto_expert_info(ex.offset, string.format(
				"Format Identifier at offset %d, not at the " ..
				"start of the private data", off))
		end
		summary = add_message(root, range(off, MSG_LEN))
	else
		summary = add_fault(root, range, status, off)
	end
	root:append_text(string.format(", %s: %s", carrier, summary))
	pinfo.cols.info:append(" [RFC 8797 " .. summary .. "]")
end

-- rdma_cm puts its IP CM header ahead of a REQ's consumer data when the
-- Service ID is in the IP CM range; Wireshark then shows that data as
-- infiniband.cm.req.ip_cm.private, which the kernel hands to NFS/RDMA.
local function dissect_ib(tree, pinfo)
	local reqs = { f_req_ipcm_private() }

	if #reqs == 0 then
		reqs = { f_req_private() }
	end
	for _, fi in ipairs(reqs) do
		dissect_pdata(tree, pinfo, "IB CM REQ", fi.range, fi.range)
	end
	for _, fi in ipairs({ f_rep_private() }) do
		dissect_pdata(tree, pinfo, "IB CM REP", fi.range, fi.range)
	end
end

-- @key is the 16-octet MPA key; flags, revision and the private data
-- length follow it. The private data is bounded by what was captured.
local function dissect_mpa_frame(tree, pinfo, carrier, key)
	local tvb, hdr = key.source, key.offset + 16
	if tvb:len() < hdr + 4 then
		return
	end
	local header = tvb(key.offset, MPA_HDR_LEN)
	local flags, rev = tvb(hdr, 1):uint(), tvb(hdr + 1, 1):uint()
	local start = hdr + 4
	local len = math.min(tvb(hdr + 2, 2):uint(), tvb:len() - start)
	local skipped

	-- RFC 6581: Enhanced MPA puts IRD/ORD first; the kernel (siw)
	-- strips it before rdma_cm hands the rest to NFS/RDMA.
	if rev == 2 and math.floor(flags / MPA_FLAG_ENHANCED) % 2 == 1 then
		if len < MPA_V2_HDR_LEN then
			local root = tree:add(rpcrdma_cm, header)
			root:add(pf.carrier, carrier):set_generated()
			root:add_proto_expert_info(ex.mpa_short, string.format(
				"MPA v2 private data is %d octets, shorter " ..
				"than its %d-octet IRD/ORD header", len,
				MPA_V2_HDR_LEN))
			return
		end
		skipped = tvb(start, MPA_V2_HDR_LEN)
		start, len = start + MPA_V2_HDR_LEN, len - MPA_V2_HDR_LEN
	end
	dissect_pdata(tree, pinfo, carrier, header,
		len > 0 and tvb(start, len) or nil, skipped)
end

local function dissect_mpa(tree, pinfo)
	for _, fi in ipairs({ f_mpa_req() }) do
		dissect_mpa_frame(tree, pinfo, "MPA request", fi)
	end
	for _, fi in ipairs({ f_mpa_rep() }) do
		dissect_mpa_frame(tree, pinfo, "MPA reply", fi)
	end
end

function rpcrdma_cm.dissector(tvb, pinfo, tree)
	dissect_ib(tree, pinfo)
	dissect_mpa(tree, pinfo)
end

register_postdissector(rpcrdma_cm)
