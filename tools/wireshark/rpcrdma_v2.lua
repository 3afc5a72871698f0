-- SPDX-License-Identifier: GPL-2.0
--
-- Wireshark dissector for experimental RPC-over-RDMA Version Two
-- messages with transport properties: the Version Two headers of
-- draft-cel-nfsv4-rpcrdma-version-two-01, the revision xcharext-03 cites
-- (or, by the preference rpcrdma_v2.base, of the authors' working copy
-- of 2016-11-10: rdma_inv_handle in the chunk lists, other error
-- codes), RDMA2_MSG/NOMSG chunk lists, RDMA2_ERROR, RDMA2_OPTIONAL, and
-- the four messages of draft-dnoveck-nfsv4-rpcrdma-xcharext-03:
-- ROPT_CONNPROP, ROPT_REQPROP, ROPT_RESPROP and ROPT_UPDPROP, with every
-- propval, its property's value and the propvalsubsets.
--
-- It is a heuristic dissector of RDMA Send payloads, RoCE/InfiniBand
-- ("infiniband.payload") and iWARP ("iwarp_ddp_rdmap"), and claims only
-- messages whose rdma_vers is 2, so Wireshark's own RPC-over-RDMA
-- (Version One) dissector keeps everything else. What it reports follows
-- net/sunrpc/xprtrdma/rpcrdma_xchar.c, the codec rpcrdma-cm-probe --v2
-- uses: the same status names, the draft's XDR errors as expert info
-- (pv_data past the message, a known property too short or invalid),
-- unknown propids skipped, a known property named again noted and
-- skipped (its first value counts).
--
-- Use: tshark -X lua_script:rpcrdma_v2.lua -r capture.pcap
-- Written for Lua 5.2 (Wireshark 4.0) and later: no bit library.

-- The C plugin (tools/wireshark/c, package rpcrdma-cm-wireshark)
-- decodes the same messages under "rpcrdma.v2"; when Wireshark has
-- loaded it, this script stays out of the way: one decoder, never both.
if pcall(Field.new, "rpcrdma.v2.status") then
	return
end

local v2 = Proto("rpcrdma_v2",
	"RPC-over-RDMA Version Two, transport properties (experimental)")

local PROCS = { [0] = "RDMA2_MSG", [1] = "RDMA2_NOMSG",
	[4] = "RDMA2_ERROR", [5] = "RDMA2_OPTIONAL" }
local OPTS = { [1] = "ROPT_CONNPROP", [2] = "ROPT_REQPROP",
	[3] = "ROPT_RESPROP", [4] = "ROPT_UPDPROP" }
local PROPS = { [1] = "PROP_RBSIZ", [2] = "PROP_REQREMINV",
	[3] = "PROP_BRS" }
local BKREQSUP = { [0] = "BKREQSUP_NONE", [1] = "BKREQSUP_INLINE",
	[2] = "BKREQSUP_GENL" }
-- rpcrdma2_errcode of each base: -01 has three codes, the working copy
-- six, and INVAL_OPTION is 3 in one and 5 in the other
local BASE_01, BASE_WC = 0, 1
local ERRS = {
	[BASE_01] = { [1] = "RDMA2_ERR_VERS", [2] = "RDMA2_ERR_BAD_HEADER",
		[3] = "RDMA2_ERR_INVAL_OPTION" },
	[BASE_WC] = { [1] = "RDMA2_ERR_VERS", [2] = "RDMA2_ERR_BAD_XDR",
		[3] = "RDMA2_ERR_REPLY_RESOURCE", [4] = "RDMA2_ERR_INVAL_PROC",
		[5] = "RDMA2_ERR_INVAL_OPTION", [6] = "RDMA2_ERR_SYSTEM" },
}
local WC_ERR_REPLY_RESOURCE = 3
local DIRS = { [0] = "CALL", [1] = "REPLY" }
-- Table 1 defaults, what a zero-length pv_data stands for
local DEFAULTS = { [1] = 4096, [2] = 0, [3] = 1 }
local LIMITS = { [1] = 0xffffffff, [2] = 1, [3] = 2 }
local EXPERIMENTAL = 0xffffff00

local pf = {
	status = ProtoField.string("rpcrdma_v2.status", "Status"),
	xid = ProtoField.uint32("rpcrdma_v2.xid", "XID", base.HEX),
	vers = ProtoField.uint32("rpcrdma_v2.vers", "Version"),
	credit = ProtoField.uint32("rpcrdma_v2.credit", "Credits"),
	proc = ProtoField.uint32("rpcrdma_v2.proc", "Procedure", base.DEC,
		PROCS),
	optdir = ProtoField.uint32("rpcrdma_v2.optdir", "Direction",
		base.DEC, DIRS),
	opttype = ProtoField.uint32("rpcrdma_v2.opttype", "Optional type",
		base.DEC, OPTS),
	infolen = ProtoField.uint32("rpcrdma_v2.optinfo_len",
		"rdma_optinfo length"),
	err = ProtoField.uint32("rpcrdma_v2.err", "Error"),
	err_name = ProtoField.string("rpcrdma_v2.err_name", "Error name"),
	vers_low = ProtoField.uint32("rpcrdma_v2.vers_low", "Lowest version"),
	vers_high = ProtoField.uint32("rpcrdma_v2.vers_high",
		"Highest version"),
	seg_index = ProtoField.uint32("rpcrdma_v2.segment_index",
		"Segment index"),
	len_needed = ProtoField.uint32("rpcrdma_v2.length_needed",
		"Length needed"),
	direction = ProtoField.uint32("rpcrdma_v2.direction", "Direction",
		base.DEC, DIRS),
	inv_handle = ProtoField.uint32("rpcrdma_v2.inv_handle",
		"rdma_inv_handle", base.HEX),
	reads = ProtoField.uint32("rpcrdma_v2.reads", "Read segments"),
	writes = ProtoField.uint32("rpcrdma_v2.writes", "Write chunks"),
	reply = ProtoField.uint32("rpcrdma_v2.reply_segments",
		"Reply chunk segments"),
	hdrlen = ProtoField.uint32("rpcrdma_v2.hdrlen",
		"Transport header length"),
	set = ProtoField.string("rpcrdma_v2.propset", "propvalset"),
	count = ProtoField.uint32("rpcrdma_v2.propset.count", "propvals"),
	which = ProtoField.uint32("rpcrdma_v2.prop.which", "pv_which",
		base.DEC, PROPS),
	pos = ProtoField.uint32("rpcrdma_v2.prop.position", "Position"),
	dlen = ProtoField.uint32("rpcrdma_v2.prop.len", "pv_data length"),
	rbsiz = ProtoField.uint32("rpcrdma_v2.prop.rbsiz",
		"Receive Buffer Size"),
	reqreminv = ProtoField.uint32("rpcrdma_v2.prop.reqreminv",
		"Requester Remote Invalidation", base.DEC,
		{ [0] = "FALSE", [1] = "TRUE" }),
	brs = ProtoField.uint32("rpcrdma_v2.prop.brs",
		"Backward Request Support", base.DEC, BKREQSUP),
	dflt = ProtoField.bool("rpcrdma_v2.prop.default",
		"Default (zero-length pv_data)"),
	data = ProtoField.bytes("rpcrdma_v2.prop.data", "pv_data"),
	subset = ProtoField.string("rpcrdma_v2.subset", "propvalsubset"),
	words = ProtoField.uint32("rpcrdma_v2.subset.words", "Words"),
	members = ProtoField.string("rpcrdma_v2.subset.positions",
		"Positions"),
}
v2.fields = pf

v2.prefs.base = Pref.enum("Version Two text", BASE_01,
	"The Version Two text headers and error codes follow: "
	.. "version-two-01, which xcharext-03 cites, or the authors' "
	.. "working copy of 2016-11-10",
	{ { 1, "01", BASE_01 }, { 2, "2016-11-10", BASE_WC } }, false)

local ex = {
	overrun = ProtoExpert.new("rpcrdma_v2.expert.xdr_overrun",
		"XDR error: runs past the end of the message",
		expert.group.MALFORMED, expert.severity.ERROR),
	propval = ProtoExpert.new("rpcrdma_v2.expert.bad_propval",
		"XDR error: known property too short or invalid",
		expert.group.MALFORMED, expert.severity.ERROR),
	dup = ProtoExpert.new("rpcrdma_v2.expert.duplicate_prop",
		"Property named again in one propvalset, skipped",
		expert.group.PROTOCOL, expert.severity.WARN),
	unknown = ProtoExpert.new("rpcrdma_v2.expert.unknown_prop",
		"Unknown property, skipped", expert.group.PROTOCOL,
		expert.severity.NOTE),
	opttype = ProtoExpert.new("rpcrdma_v2.expert.unknown_opttype",
		"Unknown rdma_opttype (RDMA2_ERR_INVAL_OPTION)",
		expert.group.PROTOCOL, expert.severity.WARN),
}
v2.experts = { ex.overrun, ex.propval, ex.dup, ex.unknown, ex.opttype }

-- A bounds-checked XDR reader over @tvb from @off to @stop
local function reader(tvb, off, stop)
	local r = { tvb = tvb, off = off, stop = stop, bad = false }
	function r.u32()
		if r.bad or r.stop - r.off < 4 then
			r.bad = true
			return nil
		end
		local v = r.tvb(r.off, 4):uint()
		r.off = r.off + 4
		return v
	end
	function r.range(n)
		return r.tvb(r.off, n)
	end
	return r
end

-- One propval at position @i; returns an error status or nil
local function propval(r, tree, i, seen)
	local at = r.off
	local which, len = r.u32(), r.u32()
	if not len then
		tree:add_proto_expert_info(ex.overrun, string.format(
			"propval %d: header past the message", i))
		return "xdr_overrun"
	end
	local room = math.floor((len + 3) / 4) * 4
	if room > r.stop - r.off then
		local t = tree:add(pf.which, r.tvb(at, 4), which)
		t:add_proto_expert_info(ex.overrun, string.format(
			"propval %d: pv_data of %d octets past the message",
			i, len))
		return "xdr_overrun"
	end
	local t = tree:add(pf.which, r.tvb(at, 8 + room), which)
	t:add(pf.pos, i):set_generated()
	t:add(pf.dlen, r.tvb(at + 4, 4))
	local data = len > 0 and r.range(len) or nil
	r.off = r.off + room
	if not PROPS[which] then
		if data then
			t:add(pf.data, data)
		end
		t:add_proto_expert_info(ex.unknown, string.format(
			"%s propid %u, skipped",
			which >= EXPERIMENTAL and "experimental" or "unknown",
			which))
		return nil
	end
	local v = DEFAULTS[which]
	if len == 0 then
		t:add(pf.dflt, true):set_generated()
	elseif len < 4 then
		t:add_proto_expert_info(ex.propval, string.format(
			"%s: %d octets, shorter than its type", PROPS[which],
			len))
		return "bad_propval"
	else
		v = data(0, 4):uint()
		if v > LIMITS[which] then
			t:add_proto_expert_info(ex.propval, string.format(
				"%s: %u is no value of its type", PROPS[which], v))
			return "bad_propval"
		end
	end
	-- named again: its value is shown as data, the first one counts
	if seen[which] then
		if data then
			t:add(pf.data, data)
		end
		t:add_proto_expert_info(ex.dup, string.format(
			"%s again, skipped: position %d counts", PROPS[which],
			seen[which]))
		return nil
	end
	seen[which] = i
	local field = which == 1 and pf.rbsiz or which == 2 and pf.reqreminv
		or pf.brs
	if data then
		t:add(field, data(0, 4))
	else
		t:add(field, v):set_generated()
	end
	return nil
end

local function propset(r, tree, name)
	local t = tree:add(pf.set, r.tvb(r.off, math.max(0, r.stop - r.off)),
		name)
	local n = r.u32()
	if not n then
		t:add_proto_expert_info(ex.overrun, name .. ": no count")
		return "xdr_overrun"
	end
	t:add(pf.count, r.tvb(r.off - 4, 4))
	local seen = {}
	for i = 0, n - 1 do
		local st = propval(r, t, i, seen)
		if st then
			return st
		end
	end
	return nil
end

local function subset(r, tree, name)
	local n = r.u32()
	if not n or n > (r.stop - r.off) / 4 then
		tree:add_proto_expert_info(ex.overrun, name ..
			": words past the message")
		r.bad = true
		return "xdr_overrun"
	end
	local t = tree:add(pf.subset, r.tvb(r.off - 4, 4 + 4 * n), name)
	t:add(pf.words, r.tvb(r.off - 4, 4))
	local list = {}
	for w = 0, n - 1 do
		local v = r.u32()
		for b = 0, 31 do
			if math.floor(v / 2 ^ b) % 2 == 1 then
				list[#list + 1] = tostring(32 * w + b)
			end
		end
	end
	t:add(pf.members, table.concat(list, ",")):set_generated()
	return nil
end

local function optinfo(r, tree, opttype)
	if opttype == 1 then
		return propset(r, tree, "opticonnpr_start") or
			subset(r, tree, "opticonnpr_nochg")
	elseif opttype == 2 then
		return propset(r, tree, "optreqpr_want")
	elseif opttype == 3 then
		return subset(r, tree, "optrespr_done") or
			subset(r, tree, "optrespr_rej") or
			propset(r, tree, "optrespr_other")
	elseif opttype == 4 then
		return propset(r, tree, "optupdpr_now")
	end
	tree:add_proto_expert_info(ex.opttype, string.format(
		"rdma_opttype %u", opttype))
	return "unknown_opttype"
end

local function optional(r, tree, pinfo)
	local dir, opttype, len = r.u32(), r.u32(), r.u32()
	if not len or dir > 1 then
		tree:add_proto_expert_info(ex.overrun, "RDMA2_OPTIONAL header")
		return "xdr_overrun"
	end
	tree:add(pf.optdir, r.tvb(r.off - 12, 4))
	tree:add(pf.opttype, r.tvb(r.off - 8, 4))
	tree:add(pf.infolen, r.tvb(r.off - 4, 4))
	pinfo.cols.info:append(" " .. (OPTS[opttype] or
		string.format("opttype %u", opttype)))
	local room = math.floor((len + 3) / 4) * 4
	if room > r.stop - r.off then
		tree:add_proto_expert_info(ex.overrun, string.format(
			"rdma_optinfo of %d octets past the message", len))
		return "xdr_overrun"
	end
	return optinfo(reader(r.tvb, r.off, r.off + len), tree, opttype)
end

-- XDR optional-data: a bool; anything but 0 or 1 is an XDR error
local function present(r)
	local v = r.u32()
	if not v or v > 1 then
		r.bad = true
		return nil
	end
	return v == 1
end

-- A rpcrdma2_write_chunk: its segment count, nil past the message
local function chunk(r)
	local n = r.u32()
	if not n or n > (r.stop - r.off) / 16 then
		r.bad = true
		return nil
	end
	r.off = r.off + 16 * n
	return n
end

-- rpcrdma2_read_list, _write_list and the Reply chunk: their counts
local function lists(r)
	local reads, writes = 0, 0
	local more = present(r)
	while more do
		-- rdma_position and an rpcrdma2_segment
		if r.stop - r.off < 20 then
			return nil
		end
		r.off = r.off + 20
		reads = reads + 1
		more = present(r)
	end
	if more == nil then
		return nil
	end
	more = present(r)
	while more do
		if not chunk(r) then
			return nil
		end
		writes = writes + 1
		more = present(r)
	end
	if more == nil then
		return nil
	end
	more = present(r)
	if more == nil then
		return nil
	end
	if not more then
		return reads, writes, nil
	end
	local nreply = chunk(r)
	if not nreply then
		return nil
	end
	return reads, writes, nreply
end

-- RDMA2_MSG and RDMA2_NOMSG: rpcrdma2_chunk_lists as the base lays it
-- out (the working copy adds rdma_inv_handle after the direction)
local function msghdr(r, tree, base)
	local dir = r.u32()
	if not dir or dir > 1 then
		tree:add_proto_expert_info(ex.overrun, "rdma_direction")
		return "xdr_overrun"
	end
	tree:add(pf.direction, r.tvb(r.off - 4, 4))
	if base == BASE_WC then
		if not r.u32() then
			tree:add_proto_expert_info(ex.overrun, "rdma_inv_handle")
			return "xdr_overrun"
		end
		tree:add(pf.inv_handle, r.tvb(r.off - 4, 4))
	end
	local reads, writes, nreply = lists(r)
	if not reads then
		tree:add_proto_expert_info(ex.overrun,
			"chunk lists past the message or malformed")
		return "xdr_overrun"
	end
	tree:add(pf.reads, reads):set_generated()
	tree:add(pf.writes, writes):set_generated()
	if nreply then
		tree:add(pf.reply, nreply):set_generated()
	end
	tree:add(pf.hdrlen, r.off):set_generated()
	return nil
end

-- RDMA2_ERROR: rdma_err, named by the base, and its arguments
local function errhdr(r, tree, pinfo, base)
	local err = r.u32()
	if not err then
		tree:add_proto_expert_info(ex.overrun, "no rdma_err")
		return "xdr_overrun"
	end
	local name = ERRS[base][err] or "unknown"
	tree:add(pf.err, r.tvb(r.off - 4, 4)):append_text(" (" .. name .. ")")
	tree:add(pf.err_name, name):set_generated()
	pinfo.cols.info:append(" " .. name)
	local f1, f2
	if err == 1 then
		f1, f2 = pf.vers_low, pf.vers_high
	elseif base == BASE_WC and err == WC_ERR_REPLY_RESOURCE then
		f1, f2 = pf.seg_index, pf.len_needed
	else
		return nil
	end
	if r.stop - r.off < 8 then
		tree:add_proto_expert_info(ex.overrun, name .. ": arguments")
		return "xdr_overrun"
	end
	tree:add(f1, r.tvb(r.off, 4))
	tree:add(f2, r.tvb(r.off + 4, 4))
	r.off = r.off + 8
	return nil
end

local function heuristic(tvb, pinfo, tree)
	if tvb:len() < 16 or tvb(4, 4):uint() ~= 2 then
		return false
	end
	local proc = tvb(12, 4):uint()
	if not PROCS[proc] then
		return false
	end
	pinfo.cols.protocol:set("RPCoRDMAv2")
	pinfo.cols.info:set(string.format("%s XID 0x%08x", PROCS[proc],
		tvb(0, 4):uint()))
	local root = tree:add(v2, tvb())
	root:add(pf.xid, tvb(0, 4))
	root:add(pf.vers, tvb(4, 4))
	root:add(pf.credit, tvb(8, 4))
	root:add(pf.proc, tvb(12, 4))
	local r = reader(tvb, 16, tvb:len())
	local base = v2.prefs.base
	local status
	if proc == 5 then
		status = optional(r, root, pinfo)
	elseif proc == 4 then
		status = errhdr(r, root, pinfo, base)
	else
		status = msghdr(r, root, base)
	end
	root:add(pf.status, status or "ok"):set_generated()
	if status then
		pinfo.cols.info:append(" [" .. status .. "]")
	end
	return true
end

v2:register_heuristic("infiniband.payload", heuristic)
v2:register_heuristic("iwarp_ddp_rdmap", heuristic)
