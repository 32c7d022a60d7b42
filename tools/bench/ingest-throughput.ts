import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { INGEST_RAW_EMAIL_SUBJECT } from '@pp/contracts';
import { connectNats } from '@pp/platform';
import { buildNotice, signEmail, type TestStack, waitFor } from '@pp/testing';
import { createMerchant, createSessions, gatewayApi, inParallel } from './api';
import { httpPost } from './load';
import { checkAccepted, NO_ANSWER } from './not-accepted';
import { errorText } from './path-runner';
import { CpuWindow, type PathCost, type ProcessCpu } from './process-cpu';
import type { QuietWait } from './quiet-wait';

export interface IngestResult {
  /** Hand-offs recorded in the window, whatever their disposition: what the CPU figures are divided by. */
  messages: number;
  /** Confirmed payments a second: hand-offs of another disposition are left out (success-counts.ts). */
  messages_per_second: number;
  confirmed: number;
  /** Hand-offs that ended in another disposition than confirmed (should be 0). */
  other_dispositions: Record<string, number>;
  /** Why payments went to manual review instead of confirming, by reason (should be empty). */
  review_reasons: Record<string, number>;
  /**
   * Posted notices the gateway did not accept, by its answer's status (`no answer`: the post failed or timed out);
   * never handed off, so not waited for (should be empty; always empty for JetStream, whose failures fail the path).
   * More than 1 % of them fails the path (not-accepted.ts).
   */
  not_accepted: Record<string, number>;
  elapsed_ms: number;
  /** The wait for the stack to go quiet before the way's warm-up (quiet-wait.ts), when one was asked for. */
  quiet_wait?: QuietWait;
}

/**
 * Notices sent the same way, untimed, before the measured ones. After a
 * quiet spell the ingest starts its worker threads and every service on the
 * way runs that code cold: without a warm-up, whichever way went first cost
 * a quarter to four fifths more CPU per notice than when it went second
 * (docs/PERFORMANCE.md, "The ingest paths' warm-up").
 */
const WARMUP_MESSAGES = 200;

/**
 * Notices posted, untimed, before the first way (warmIngestChain). Each
 * way's 200 warm the ingest's way in, but the first way also met the whole
 * chain cold (the worker threads, the hand-off to sessions, the ledger's
 * appends) and the second found it warm: posted first, the posted row cost
 * 3.99-4.24 ms of CPU per notice with 200, 3.25-3.31 after 1,000 more,
 * while the JetStream row did not move (docs/PERFORMANCE.md, "The ingest
 * chain's warm-up").
 */
export const CHAIN_WARMUP_MESSAGES = 1000;

/** The two ways in: the gateway's internal route, or the mail pipeline's JetStream subject. */
export type IngestWay = 'http' | 'jetstream';

/**
 * Live e-mail ingest (PRODUCT-RULES §3.1-§3.2): DKIM-signed Interac notices
 * for live sessions of one merchant, signed beforehand, posted to
 * POST /v1/internal/ingest-email `concurrency` at a time, or published to JetStream
 * `<ns>.ingest.email.raw` as a mail pipeline does (`concurrency` publishes awaiting
 * their acks at a time); timed from the first notice sent until every
 * notice's hand-off is recorded (authenticated, parsed, matched, payment
 * confirmed), after WARMUP_MESSAGES sent the same way and handed
 * off untimed. The DKIM key is the bench's own, served through
 * INGEST_DNS_OVERRIDES as in the ingest tests. CPU is counted over the same
 * window plus a second for what the hand-offs leave behind (publication,
 * projections, webhook intake), not over the sessions' creation before it,
 * which the create-session paths measure. `settle` runs between creating
 * those sessions and the warm-up (the bench waits there for the stack to go
 * quiet), so that what the creations and the path before leave behind runs
 * in neither the warm-up nor the window.
 */
export async function measureIngestThroughput(
  stack: TestStack,
  cpu: ProcessCpu,
  messages: number,
  way: IngestWay,
  concurrency: number,
  { timeoutMs = 120_000, settle }: { timeoutMs?: number; settle?: () => Promise<QuietWait> } = {},
): Promise<{ result: IngestResult } & PathCost> {
  const { merchantId, notices } = await noticesForLiveSessions(stack, way, way === 'http' ? 'H' : 'J', WARMUP_MESSAGES + messages);
  const quietWait = await settle?.();
  const db = await stack.sql();
  const counts = handOffCounts(db);
  const sender = way === 'http' ? httpSender(stack.url('gateway'), stack.env.INGEST_TOKEN, concurrency) : await jetStreamSender(stack);
  let earlier: Record<string, number>;
  let window: CpuWindow;
  let started: number;
  let notAccepted: Record<string, number>;
  try {
    await sendAndAwaitHandOffs(notices.slice(0, WARMUP_MESSAGES), sender, concurrency, counts, 'the warm-up notices to be handed off', timeoutMs);
    earlier = await counts.handoffs();
    window = await CpuWindow.open(cpu);
    started = performance.now();
    await inParallel(notices.slice(WARMUP_MESSAGES), concurrency, sender.send);
    notAccepted = sender.takeNotAccepted();
  } finally {
    await sender.close();
  }
  // Beyond a stray few, refusals are not the ingest's figures: the path fails, naming their statuses.
  checkAccepted(notAccepted, messages, 'the timed notices');
  // A notice the gateway did not accept is never handed off.
  const expected = messages - counts.sum(notAccepted);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const handedOff = await counts.handedOffSince(earlier);
    const total = counts.sum(handedOff);
    if (total >= expected || Date.now() > deadline) {
      const elapsed = performance.now() - started;
      window.endTiming();
      const { confirmed = 0, ...other } = handedOff;
      const reasons = await db.query<{ reason: string; count: string }>(
        `SELECT reason, count(*) FROM ledger.payments, unnest(review_reasons) AS reason WHERE merchant_id = $1 GROUP BY reason`,
        [merchantId],
      );
      const cost = await window.close(total);
      return {
        result: {
          messages: total,
          messages_per_second: Math.round((confirmed / elapsed) * 1000),
          confirmed,
          other_dispositions: other,
          review_reasons: Object.fromEntries(reasons.rows.map((row) => [row.reason, Number(row.count)])),
          not_accepted: notAccepted,
          elapsed_ms: Math.round(elapsed),
          ...(quietWait ? { quiet_wait: quietWait } : {}),
        },
        ...cost,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Posts `messages` notices untimed (CHAIN_WARMUP_MESSAGES) and waits for
 * their hand-offs, so that the first way timed meets the chain as warm as
 * the second does.
 */
export async function warmIngestChain(stack: TestStack, messages: number, concurrency: number, timeoutMs = 120_000): Promise<void> {
  const { notices } = await noticesForLiveSessions(stack, 'warmup', 'W', messages);
  const sender = httpSender(stack.url('gateway'), stack.env.INGEST_TOKEN, concurrency);
  try {
    await sendAndAwaitHandOffs(notices, sender, concurrency, handOffCounts(await stack.sql()), 'the chain warm-up notices to be handed off', timeoutMs);
  } finally {
    await sender.close();
  }
}

/**
 * Sends `notices`, `concurrency` at a time, and waits until as many more hand-offs are recorded as were accepted (a
 * way's run before may have left some); says on stderr how many were not accepted, and fails when more than a
 * stray few were (checkAccepted: a warm-up that mostly failed warmed nothing).
 */
async function sendAndAwaitHandOffs(notices: string[], sender: NoticeSender, concurrency: number, counts: HandOffCounts, what: string, timeoutMs: number): Promise<void> {
  const before = await counts.handoffs();
  await inParallel(notices, concurrency, sender.send);
  const notAccepted = sender.takeNotAccepted();
  checkAccepted(notAccepted, notices.length, 'the untimed warm-up notices');
  const refused = counts.sum(notAccepted);
  if (refused > 0) process.stderr.write(`bench: warning: ${refused} untimed warm-up notices not accepted (${JSON.stringify(notAccepted)})\n`);
  await waitFor(what, async () => counts.sum(await counts.handedOffSince(before)) >= notices.length - refused, { timeoutMs });
}

/**
 * A merchant of its own whose deposit address is `label`'s, `count` live
 * sessions of it and one DKIM-signed notice paying each. `letter` keeps the
 * Interac reference numbers of each call apart (a repeated one would be a
 * duplicate, never handed off).
 */
async function noticesForLiveSessions(stack: TestStack, label: string, letter: string, count: number): Promise<{ merchantId: string; notices: string[] }> {
  const gatewayUrl = stack.url('gateway');
  const merchant = await createMerchant(gatewayUrl, stack.env.ADMIN_TOKEN, `Bench Ingest ${label}`);
  const address = `deposits-${label}-${stack.namespace}@shop.example`;
  await gatewayApi(gatewayUrl, stack.env.ADMIN_TOKEN)(`/v1/admin/merchants/${merchant.merchant_id}`, { etransfer_email: address }, 'PATCH');
  const live = gatewayApi(gatewayUrl, merchant.keys.live_secret);
  const sessions = await createSessions(live, count, 'bench-ingest');
  const notices = await Promise.all(
    sessions.map((session, i) =>
      signEmail(
        buildNotice({
          to: address,
          messageId: `<bench${i}.${label}.${stack.namespace}@payments.interac.ca>`,
          // C and 7 to 11 letters or digits, as Interac writes them: a longer one would send every notice to review.
          reference: `C${stack.namespace.slice(-5)}${letter}${String(i).padStart(5, '0')}`,
          message: session.memo,
          amount: `$${((1000 + i) / 100).toFixed(2)}`,
        }),
      ),
    ),
  );
  return { merchantId: merchant.merchant_id, notices };
}

type HandOffCounts = ReturnType<typeof handOffCounts>;

/** Hand-offs recorded so far, by disposition, and since an earlier reading. */
function handOffCounts(db: Pool) {
  const handoffs = async (): Promise<Record<string, number>> => {
    const { rows } = await db.query<{ disposition: string; count: string }>('SELECT disposition, count(*) FROM ingest.notice_handoffs GROUP BY disposition');
    return Object.fromEntries(rows.map((row) => [row.disposition, Number(row.count)]));
  };
  const handedOffSince = async (earlier: Record<string, number>): Promise<Record<string, number>> =>
    Object.fromEntries(Object.entries(await handoffs()).map(([disposition, n]) => [disposition, n - (earlier[disposition] ?? 0)]));
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((total, n) => total + n, 0);
  return { handoffs, handedOffSince, sum };
}

interface NoticeSender {
  send(raw: string): Promise<void>;
  /** The notices not accepted since the last call, by status (IngestResult.not_accepted). */
  takeNotAccepted(): Record<string, number>;
  close(): Promise<void>;
}

/**
 * Posts each notice to the gateway's internal route, as a mail pipeline that
 * cannot publish to JetStream does, over `concurrency` kept-alive
 * connections (httpPost: its CPU per notice was 0.15-0.19 ms where fetch
 * took 0.37-0.53). An answer other than 202, or none (a failed or timed-out
 * post), is counted by its status, the first of each status's bodies printed;
 * the caller fails the path when more than a stray few were (checkAccepted).
 */
function httpSender(gatewayUrl: string, ingestToken: string, concurrency: number): NoticeSender {
  const target = new URL('/v1/internal/ingest-email', gatewayUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const headers = { authorization: `Bearer ${ingestToken}`, 'content-type': 'message/rfc822' };
  let notAccepted: Record<string, number> = {};
  const count = (status: string, why: string) => {
    if (notAccepted[status] === undefined) process.stderr.write(`bench: ingest-email: ${status === NO_ANSWER ? why : `answered ${status}: ${why}`}\n`);
    notAccepted[status] = (notAccepted[status] ?? 0) + 1;
  };
  return {
    async send(raw) {
      try {
        const answer = await httpPost(agent, target, headers, raw);
        if (answer.status !== 202) count(String(answer.status), answer.body.toString('utf8').slice(0, 500));
      } catch (error) {
        count(NO_ANSWER, errorText(error));
      }
    },
    takeNotAccepted() {
      const taken = notAccepted;
      notAccepted = {};
      return taken;
    },
    close: async () => agent.destroy(),
  };
}

/** Publishes each notice's raw bytes to JetStream and waits for the stream's ack, as the mail pipeline does. */
async function jetStreamSender(stack: TestStack): Promise<NoticeSender> {
  const nc = await connectNats(stack.env.NATS_URL, 'bench-mail-pipeline');
  const js = nc.jetstream();
  const subject = `${stack.namespace}.${INGEST_RAW_EMAIL_SUBJECT}`;
  return {
    send: async (raw) => void (await js.publish(subject, Buffer.from(raw))),
    takeNotAccepted: () => ({}),
    close: () => nc.drain(),
  };
}
