// SPDX-License-Identifier: GPL-2.0
/* RFC 8797 Section 5.2: the message may start at any offset of the
 * private data, after what another layer put in front of it.
 */
static const struct rpcrdma_connect_private *
rpcrdma_find_connect_private(const struct rdma_conn_param *param,
			     struct rpcrdma_connect_private *msg)
{
	const u8 *data = param->private_data;
	unsigned int i;

	for (i = 0; data && i + sizeof(*msg) <= param->private_data_len; i++) {
		memcpy(msg, data + i, sizeof(*msg));
		if (msg->cp_magic == rpcrdma_cmp_magic &&
		    msg->cp_version == RPCRDMA_CMP_VERSION)
			return msg;
	}
	return NULL;
}
