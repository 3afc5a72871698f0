/* SPDX-License-Identifier: GPL-2.0-or-later */
/* packet-rpcrdma-v2.h
 * Registration of packet-rpcrdma-v2.c, called by plugin.c.
 */

#ifndef PACKET_RPCRDMA_V2_H
#define PACKET_RPCRDMA_V2_H

void rpcrdma_v2_register(void);
void rpcrdma_v2_handoff(void);

#endif /* PACKET_RPCRDMA_V2_H */
