import crypto from 'node:crypto';
import { workerData } from 'node:worker_threads';
import { serveJobs } from '../worker/worker-pool';
import { answerAuthentication } from './authentication-answer';
import { authenticationPolicy, type AuthenticationSettings } from './authentication-policy';
import { rememberParsedPublicKeys } from './remembered-public-keys';

/*
 * Worker thread entry (NoticeAuthentication): verifies raw messages one at a
 * time off the service's event loop, with its own resolver built from the
 * settings in workerData. Runs from dist/ as compiled JavaScript. This
 * thread's node:crypto remembers the keys it parses (remembered-public-keys.ts).
 */
rememberParsedPublicKeys(crypto);
const policy = authenticationPolicy((workerData as { settings: AuthenticationSettings }).settings);
serveJobs(workerData, (raw: Uint8Array) => answerAuthentication(raw, policy));
