/**
 * The 17 endpoints (plus ping, credits and the extras the official clients call) as pure
 * functions from a parsed request to a reply, one file per endpoint family. No sockets
 * here: `../server.ts` does transport, auth, faults and logging.
 */
export * from './common';
export * from './schemas';
export * from './hosts';
export * from './domains';
export * from './storage';
export * from './catalogues';
