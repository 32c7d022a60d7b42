import { healthSubject, type ServiceHealthReply, type ServiceName } from '@pp/contracts';
import { connectNats, subjectPrefix } from '../nats/connect-nats';

/**
 * Compose's health check for services without HTTP: asks `health.<service>`
 * over NATS and exits 0 when it answers "up" within 2 s. Any replica may
 * answer; Kubernetes probes each pod on its metrics port instead (/livez,
 * /readyz).
 * Usage: node dist/libs/platform/src/health/health-probe.js <service>
 */
async function probe(service: ServiceName): Promise<boolean> {
  // The service's own identity (its container's NATS_URL or NATS_CREDS), which may ask its own health subject.
  const nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', service, process.env.NATS_CREDS || undefined);
  try {
    const subject = subjectPrefix(process.env.PP_NAMESPACE ?? '') + healthSubject(service);
    const msg = await nc.request(subject, Buffer.from('{}'), { timeout: 2000 });
    const reply = JSON.parse(Buffer.from(msg.data).toString('utf8')) as { ok: boolean; data?: ServiceHealthReply };
    return reply.ok && reply.data?.status === 'up';
  } finally {
    await nc.close();
  }
}

if (require.main === module) {
  probe(process.argv[2] as ServiceName).then(
    (up) => process.exit(up ? 0 : 1),
    () => process.exit(1),
  );
}
