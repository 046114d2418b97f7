// The worker thread of parallel.ts: reads the chunks it is sent with its own Tally (so a value
// it has seen is sent once) and answers each with the tally's typed arrays, transferred.
// Loads in plain Node: no `vscode`, no settings, nothing but the chunk texts.
import { parentPort } from 'node:worker_threads';
import type { ChunkReply, ChunkRequest } from './parallel';
import { Tally } from './tally';

const tally = new Tally();
parentPort?.on('message', ({ seq, text, opts }: ChunkRequest) => {
  const t = tally.count(text, opts);
  const reply: ChunkReply = { seq, ...t };
  parentPort?.postMessage(reply, [t.rows.buffer, t.freshKinds.buffer]);
});
