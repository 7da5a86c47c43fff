// Runs a worker thread's TypeScript entry when the server itself runs from sources (tests, the
// benchmark): worker threads do not inherit tsx's loader, so it is registered here first.
// The built app never uses this file; electron-vite builds each worker's .js instead (worker-script.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.tsEntry);
