import { workerData } from 'node:worker_threads';
import { serveJobs } from '../worker/worker-pool';
import { readNotice } from './notice-parser';

/*
 * Worker thread entry (NoticeReader): reads raw messages one at a time off
 * the service's event loop. Runs from dist/ as compiled JavaScript.
 */
serveJobs(workerData, readNotice);
