import { workerData } from 'node:worker_threads';
import { WORKER_READY, workerPort } from '../worker/worker-pool';
import { readNotice } from './notice-parser';

/*
 * Worker thread entry (NoticeReader): reads one raw message at a time off the
 * service's event loop. Runs from dist/ as compiled JavaScript.
 */
const port = workerPort(workerData);
port.on('message', async ({ input }: { input: Uint8Array }) => port.postMessage({ output: await readNotice(input) }));
port.postMessage(WORKER_READY);
