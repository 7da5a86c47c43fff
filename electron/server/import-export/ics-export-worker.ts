/**
 * The thread that writes VEVENT text for a large export (see ics-export-threaded.ts): it is given
 * events as JSON texts and what they link to, and answers each batch with its text.
 */
import { workerData } from 'node:worker_threads';
import { parseExportRow } from '../store/event-export-row';
import { createIcsEventMaker } from './ics-rows';
import { veventsText } from './ics-export';
import type { ExportWorkerData, ExportWorkerInput, ExportWorkerOutput } from './ics-export-threaded';

const input = workerData as ExportWorkerData;
const maker = createIcsEventMaker(input.ctx);
const opts = { uidHost: input.uidHost, uidOf: (e: { ics_uid: string | null }) => e.ics_uid };
const utf8 = new TextEncoder();

input.port.on('message', (m: ExportWorkerInput) => {
  try {
    for (const linked of m.linked) maker.add(linked);
    const { texts, links } = m.rows;
    const text = veventsText(texts.map((row, i) => maker.make(parseExportRow(row, links[i]))), opts);
    // Encoded here and moved, not copied, to the server's thread (it has memory of its own).
    const bytes = utf8.encode(text);
    input.port.postMessage({ type: 'text', seq: m.seq, utf8: bytes } satisfies ExportWorkerOutput, [bytes.buffer]);
  } catch (err) {
    input.port.postMessage({ type: 'crashed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies ExportWorkerOutput);
    input.port.close();
  }
});
