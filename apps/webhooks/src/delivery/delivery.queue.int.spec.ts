import { randomUUID } from 'node:crypto';
import { bullWorkerConnection, JsonLogger, queuePrefix, requestContext, ServiceMetrics } from '@pp/platform';
import { testInfra, waitFor } from '@pp/testing';
import { DelayedError, Worker } from 'bullmq';
import { WebhooksConfig } from '../webhooks.config';
import { type DeliveryJob, DeliveryQueue, WebhookQueue } from './delivery.queue';

/*
 * The sweeper's requeue against real Redis (no worker here, so queued jobs
 * stay where they are put): which overdue deliveries get a job again.
 */
describe('DeliveryQueue.requeue (real Redis)', () => {
  let queue: DeliveryQueue;
  let config: WebhooksConfig;

  beforeAll(() => {
    config = Object.assign(new WebhooksConfig(), { REDIS_URL: testInfra.redisUrl, PP_NAMESPACE: `requeue${randomUUID().slice(0, 8)}` });
    queue = new DeliveryQueue(config, new ServiceMetrics('webhooks', { processMetrics: false }), new JsonLogger('webhooks', 'error', () => undefined));
  });
  afterAll(async () => {
    await queue.queue.obliterate({ force: true });
    await queue.onApplicationShutdown();
  });

  const overdue = (id: string, attempt: number) => ({ id, attempt, next_attempt_at: new Date(Date.now() - 10_000), endpoint_id: 'we_queue' });
  const jobsOf = async (id: string) =>
    (await queue.queue.getJobs(['waiting', 'delayed'])).filter((job) => job.data.delivery_id === id).map((job) => ({ id: job.id, delay: job.opts.delay }));

  it('given an overdue delivery whose job is waiting, when swept, then it is left alone', async () => {
    const id = randomUUID();
    await queue.enqueue([{ id, attempt: 2, next_attempt_at: new Date(), endpoint_id: 'we_queue' }]);
    expect(await queue.requeue([overdue(id, 2)])).toBe(0);
    expect(await jobsOf(id)).toEqual([{ id: `${id}.2`, delay: 0 }]);
  });

  it('given an overdue delivery whose job is delayed past its due time (a resend whose own job was lost), when swept, then it is queued now', async () => {
    const id = randomUUID();
    await queue.enqueue([{ id, attempt: 2, next_attempt_at: new Date(Date.now() + 3_600_000), endpoint_id: 'we_queue' }]);
    expect(await queue.requeue([overdue(id, 2)])).toBe(1);
    const jobs = await jobsOf(id);
    expect(jobs).toHaveLength(2);
    expect(jobs).toEqual(expect.arrayContaining([expect.objectContaining({ id: expect.stringMatching(new RegExp(`^${id}\\.2\\.swept-\\d+$`)), delay: 0 })]));
  });

  it('given an overdue delivery whose delayed job was due by then (every worker busy), when swept, then it is left alone', async () => {
    const id = randomUUID();
    const due = new Date(Date.now() + 60_000);
    await queue.enqueue([{ id, attempt: 3, next_attempt_at: due, endpoint_id: 'we_queue' }]);
    expect(await queue.requeue([{ id, attempt: 3, next_attempt_at: due, endpoint_id: 'we_queue' }])).toBe(0);
    expect(await jobsOf(id)).toHaveLength(1);
  });

  it('given a job a worker put back for later (held back for a slow endpoint), when its delivery is swept, then it is left alone and holds its endpoint', async () => {
    const id = randomUUID();
    await queue.enqueue([{ id, attempt: 1, next_attempt_at: new Date(), endpoint_id: 'we_slow' }]);
    let seen: DeliveryJob | undefined;
    const worker = new Worker<DeliveryJob>(
      WebhookQueue.Delivery,
      async (job, token) => {
        if (job.data.delivery_id === id) seen = job.data; // the earlier tests' jobs are put back too, as they were
        await job.moveToDelayed(Date.now() + 60_000, token);
        throw new DelayedError();
      },
      { connection: bullWorkerConnection(config.REDIS_URL), prefix: queuePrefix(config.PP_NAMESPACE) },
    );
    try {
      await waitFor('the worker to put the job back', async () => (await queue.queue.getJob(`${id}.1`))?.processedOn !== undefined && (await queue.queue.getJobState(`${id}.1`)) === 'delayed');
    } finally {
      await worker.close();
    }
    expect(seen).toMatchObject({ delivery_id: id, attempt: 1, endpoint_id: 'we_slow' });
    expect(await queue.requeue([overdue(id, 1)])).toBe(0);
  });

  it('given attempts queued under a request, and by the sweeper under none, then each job carries the request id, or none', async () => {
    const [mine, swept] = [randomUUID(), randomUUID()];
    await requestContext.run({ requestId: 'req_queued-by-spec' }, () => queue.enqueue([{ id: mine, attempt: 2, next_attempt_at: new Date(), endpoint_id: 'we_queue' }]));
    await queue.requeue([overdue(swept, 1)]);
    const dataOf = async (id: string) => (await queue.queue.getJobs(['waiting', 'delayed'])).find((job) => job.data.delivery_id === id)?.data;
    expect(await dataOf(mine)).toMatchObject({ request_id: 'req_queued-by-spec' });
    expect(await dataOf(swept)).not.toHaveProperty('request_id');
  });

  it('given an overdue delivery this replica swept once already, its job still waiting (every worker busy), when swept again, then no second copy is queued', async () => {
    const id = randomUUID();
    expect(await queue.requeue([overdue(id, 1)])).toBe(1);
    expect(await queue.requeue([overdue(id, 1)])).toBe(0);
    expect(await jobsOf(id)).toHaveLength(1);
  });

  it('given an overdue delivery resent here, its resend job still waiting, when swept, then it is left alone', async () => {
    const id = randomUUID();
    await queue.enqueue([{ id, attempt: 4, next_attempt_at: new Date(), endpoint_id: 'we_queue' }], 'resend-1');
    expect(await queue.requeue([overdue(id, 4)])).toBe(0);
    expect(await jobsOf(id)).toEqual([{ id: `${id}.4.resend-1`, delay: 0 }]);
  });

  it('given an overdue delivery with no job at all (Redis lost it), when swept, then it is queued now', async () => {
    const id = randomUUID();
    expect(await queue.requeue([overdue(id, 1)])).toBe(1);
    expect(await jobsOf(id)).toEqual([{ id: expect.stringMatching(new RegExp(`^${id}\\.1\\.swept-\\d+$`)), delay: 0 }]);
  });
});
