import { workerData } from 'node:worker_threads';
import { serveJobs } from '../worker/worker-pool';
import { ByteBlob } from './byte-blob';
import { readNotice } from './notice-parser';

/*
 * Worker thread entry (NoticeReader): reads raw messages one at a time off
 * the service's event loop. Runs from dist/ as compiled JavaScript. This
 * thread's Blob, which postal-mime joins decoded lines with, keeps its bytes
 * in the heap (byte-blob.ts).
 */
ByteBlob.install();
serveJobs(workerData, readNotice);
