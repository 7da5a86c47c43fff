/**
 * The thread that writes VEVENT text for a large export (see export-threaded.ts): it is given
 * events as JSON texts and what they link to, and answers each batch with its text.
 */
import { workerData } from 'node:worker_threads';
import { createBatchWriter } from './export-rows';
import type { ExportWorkerData, ExportWorkerInput, ExportWorkerOutput } from './export-threaded';

const input = workerData as ExportWorkerData;
const writer = createBatchWriter(input.ctx, input.uidHost);
const utf8 = new TextEncoder();

input.port.on('message', (m: ExportWorkerInput) => {
  try {
    for (const linked of m.linked) writer.add(linked);
    const text = writer.write(m.rows);
    // Encoded here and moved, not copied, to the server's thread (it has memory of its own).
    const bytes = utf8.encode(text);
    input.port.postMessage({ type: 'text', seq: m.seq, utf8: bytes } satisfies ExportWorkerOutput, [bytes.buffer]);
  } catch (err) {
    input.port.postMessage({ type: 'crashed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies ExportWorkerOutput);
    input.port.close();
  }
});
