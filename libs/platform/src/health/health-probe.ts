import { healthSubject, type ServiceHealthReply, type ServiceName } from '@pp/contracts';
import { connectNats, subjectPrefix } from '../nats/connect-nats';

/**
 * Container health check for services without HTTP: asks `health.<service>`
 * over NATS and exits 0 when it answers "up" within 2 s; with `--live`, when
 * its liveness is up (the checks a restart could mend; readiness-only ones
 * left out), for the liveness and startup probes.
 * Usage: node dist/libs/platform/src/health/health-probe.js <service> [--live]
 */
async function probe(service: ServiceName, live: boolean): Promise<boolean> {
  // The service's own identity (its container's NATS_URL or NATS_CREDS), which may ask its own health subject.
  const nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', service, process.env.NATS_CREDS || undefined);
  try {
    const subject = subjectPrefix(process.env.PP_NAMESPACE ?? '') + healthSubject(service);
    const msg = await nc.request(subject, Buffer.from('{}'), { timeout: 2000 });
    const reply = JSON.parse(Buffer.from(msg.data).toString('utf8')) as { ok: boolean; data?: ServiceHealthReply };
    // A service older than `live` answers only its status.
    return reply.ok && (live ? (reply.data?.live ?? reply.data?.status) : reply.data?.status) === 'up';
  } finally {
    await nc.close();
  }
}

if (require.main === module) {
  probe(process.argv[2] as ServiceName, process.argv[3] === '--live').then(
    (up) => process.exit(up ? 0 : 1),
    () => process.exit(1),
  );
}
