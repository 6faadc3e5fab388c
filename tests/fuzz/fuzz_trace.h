/* The trace fuzzer's input format (fuzz_trace.c writes it out as a CTF
 * trace; pack.c makes it from a recorded one). The metadata is fixed (the
 * checked-in `metadata`, an LTTng-UST 2.13 per-UID trace of synctrace): the
 * input describes the stream files, packet by packet, so that mutations
 * reach the events instead of dying on a packet header's magic.
 *
 *   input := chunk*
 *   chunk := ctl:u8 len:u16le body
 *   ctl == SA_FZ_META:  body = off:u16le bytes[len]: written over the
 *                       metadata text at off (mod its size); the rare way
 *                       the metadata itself is fuzzed
 *   ctl & SA_FZ_RAW:    body = bytes[len], appended verbatim to the stream
 *                       file (a packet header and all, or garbage)
 *   else (a packet):    body = ts_begin:u64le ts_end:u64le discarded:u8
 *                       events[len]; the harness writes the packet header
 *                       and context (magic, the metadata's uuid, sizes,
 *                       sequence number, cumulative discarded count)
 *   ctl bits 1-2: which stream file (SA_FZ_STREAM "_0" … "_3", one CPU each)
 *   SA_FZ_PAD:     the packet is 64 bytes longer than its content
 *   SA_FZ_BADSID:  stream id 1 (the metadata has only 0)
 *   SA_FZ_SEQGAP:  the sequence number skips one (a discarded packet)
 * A length beyond the input's end is cut to what is left. */
#ifndef SA_FUZZ_TRACE_H
#define SA_FUZZ_TRACE_H

#define SA_FZ_META   0xff
#define SA_FZ_RAW    0x01
#define SA_FZ_FILE(c) (((c) >> 1) & 3)
#define SA_FZ_PAD    0x08
#define SA_FZ_BADSID 0x10
#define SA_FZ_SEQGAP 0x20
#define SA_FZ_NFILES 4
#define SA_FZ_STREAM "synctrace" /* stream files: synctrace_0 … synctrace_3 */

/* LTTng-UST's packet header and context (metadata: trace.packet.header,
 * struct packet_context), little endian, 84 bytes. */
#define SA_FZ_MAGIC 0xc1fc1fc1u
enum {
	SA_FZ_OFF_MAGIC = 0,      /* u32 */
	SA_FZ_OFF_UUID = 4,       /* u8[16] */
	SA_FZ_OFF_SID = 20,       /* u32 stream_id */
	SA_FZ_OFF_SIID = 24,      /* u64 stream_instance_id */
	SA_FZ_OFF_TSB = 32,       /* u64 timestamp_begin */
	SA_FZ_OFF_TSE = 40,       /* u64 timestamp_end */
	SA_FZ_OFF_CONTENT = 48,   /* u64 content_size, bits */
	SA_FZ_OFF_PACKET = 56,    /* u64 packet_size, bits */
	SA_FZ_OFF_SEQ = 64,       /* u64 packet_seq_num */
	SA_FZ_OFF_DISC = 72,      /* u64 events_discarded (cumulative) */
	SA_FZ_OFF_CPU = 80,       /* u32 cpu_id */
	SA_FZ_HEADER = 84,
};
#define SA_FZ_BODY 17 /* ts_begin, ts_end, discarded before the events */

#endif
