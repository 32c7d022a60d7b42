import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BUS_IDENTITIES } from '@pp/contracts';
import { checkStream, ledgerEventsPlace, natsConnectionOptions, passwordVariable, provisionJetStream } from '@pp/platform';
import { freePorts, waitFor } from '@pp/testing';
import { connect, type NatsConnection } from 'nats';
import { k8sDir, type Manifest, yamlDocuments } from './testing/manifests';

/*
 * The Kubernetes NATS configuration run for real: three servers, each started with
 * deploy/k8s/base/nats-cluster.conf (which includes the generated nats-server.conf) the way the
 * StatefulSet starts them (its environment too: the Secret's passwords, and the route URLs it builds with
 * the route password), on loopback. Only what cannot exist here is rewritten: the ports (one host, three
 * servers), the store directory and pid file, and the routes' host names (nats-<n>.nats-cluster →
 * 127.0.0.1). Last, one server is stopped as its pod is: the StatefulSet's preStop hook, then SIGTERM.
 */

const SERVERS = 3;
const natsBinary = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((path) => existsSync(path)) ?? 'nats-server';
const statefulSet = yamlDocuments(readFileSync(join(k8sDir, 'base', 'nats.yaml'), 'utf8')).find((doc: Manifest) => doc.kind === 'StatefulSet');

/**
 * What a peer that opens a route to `port` is told, once it has sent `connect` (the route's CONNECT
 * fields) and a PING: a server that lets the route in answers PONG, one that does not an -ERR.
 */
function routeAnswer(port: number, connect: Record<string, unknown>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp({ host: '127.0.0.1', port });
    let received = '';
    let sent = false;
    const done = () => {
      socket.destroy();
      resolve(received);
    };
    socket.setTimeout(5000, done);
    socket.on('error', reject);
    socket.on('close', done);
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      if (!sent && received.includes('\r\n')) {
        sent = true;
        socket.write(`CONNECT ${JSON.stringify(connect)}\r\nPING\r\n`);
      }
      if (/^(-ERR|PONG)/m.test(received)) done();
    });
  });
}

describe('the Kubernetes NATS cluster configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pp-nats-cluster-'));
  const passwords = Object.fromEntries(BUS_IDENTITIES.map((identity) => [identity, `p${randomBytes(24).toString('hex')}`]));
  /** The Secret nats-server-passwords, as the servers' envFrom reads it. */
  const serverSecret = {
    ...Object.fromEntries(BUS_IDENTITIES.map((identity) => [passwordVariable(identity), passwords[identity]])),
    NATS_ROUTE_PASSWORD: `p${randomBytes(24).toString('hex')}`,
  };
  const servers: ChildProcess[] = [];
  let clientPorts: number[] = [];
  let monitorPorts: number[] = [];
  let routePorts: number[] = [];
  let ledger: NatsConnection | undefined;
  let migrate: NatsConnection | undefined;
  /** Where the pod's server writes its pid file (nats-cluster.conf), and where each server here does. */
  let podPidFile = '';
  const pidFileOf = (ordinal: number) => join(dir, `nats-${ordinal}`, 'nats-server.pid');

  beforeAll(async () => {
    const ports = await freePorts(3 * SERVERS);
    clientPorts = ports.slice(0, SERVERS);
    monitorPorts = ports.slice(SERVERS, 2 * SERVERS);
    routePorts = ports.slice(2 * SERVERS);
    const generated = readFileSync(join(k8sDir, 'base', 'nats-server.conf'), 'utf8');
    const cluster = readFileSync(join(k8sDir, 'base', 'nats-cluster.conf'), 'utf8');
    for (let ordinal = 0; ordinal < SERVERS; ordinal += 1) {
      const home = join(dir, `nats-${ordinal}`);
      mkdirSync(home);
      const local = (text: string, from: string, to: string) => {
        if (!text.includes(from)) throw new Error(`the config no longer contains ${from}: update this spec`);
        return text.replace(from, to);
      };
      let server = local(generated, 'listen: "0.0.0.0:4222"', `listen: "127.0.0.1:${clientPorts[ordinal]}"`);
      server = local(server, 'http: 8222', `http: "127.0.0.1:${monitorPorts[ordinal]}"`);
      server = local(server, 'store_dir: "/data"', `store_dir: "${join(home, 'data')}"`);
      podPidFile = /^pid_file: "([^"]+)"$/m.exec(cluster)?.[1] ?? '';
      let routes = local(cluster, 'listen: "0.0.0.0:6222"', `listen: "127.0.0.1:${routePorts[ordinal]}"`);
      routes = local(routes, `pid_file: "${podPidFile}"`, `pid_file: "${pidFileOf(ordinal)}"`);
      writeFileSync(join(home, 'nats-server.conf'), server);
      writeFileSync(join(home, 'nats-cluster.conf'), routes);
      // The pod's environment: the Secret (envFrom), then the StatefulSet's env, each $(VAR) expanded as the kubelet does.
      const env: Record<string, string> = { PATH: process.env.PATH ?? '', ...serverSecret };
      for (const entry of statefulSet?.spec.template.spec.containers[0].env as { name: string; value?: string; valueFrom?: { fieldRef: { fieldPath: string } } }[]) {
        if (entry.valueFrom) {
          if (entry.valueFrom.fieldRef.fieldPath !== 'metadata.name') throw new Error(`${entry.name}: only metadata.name is read by this spec`);
          env[entry.name] = `nats-${ordinal}`;
          continue;
        }
        env[entry.name] = String(entry.value)
          .replace(/\$\((\w+)\)/g, (whole, variable: string) => env[variable] ?? whole)
          .replace(/@nats-(\d)\.nats-cluster:6222$/, (_match, peer: string) => `@127.0.0.1:${routePorts[Number(peer)]}`);
      }
      const routeUrls = Object.entries(env).filter(([name]) => name.startsWith('NATS_ROUTE_') && name !== 'NATS_ROUTE_PASSWORD');
      if (routeUrls.length !== SERVERS || routeUrls.some(([, url]) => !url.startsWith(`nats-route://route:${serverSecret.NATS_ROUTE_PASSWORD}@127.0.0.1:`))) {
        throw new Error(`the StatefulSet's route URLs are no longer nats-route://route:$(NATS_ROUTE_PASSWORD)@nats-<n>.nats-cluster:6222: update this spec`);
      }
      // The StatefulSet's arguments (deploy/k8s/base/nats.yaml).
      servers.push(spawn(natsBinary, ['-js', '-c', join(home, 'nats-cluster.conf')], { env, stdio: 'ignore' }));
    }
  });

  afterAll(async () => {
    await Promise.all([ledger?.close(), migrate?.close()]);
    for (const server of servers) server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('forms one JetStream cluster of three named servers that elects a leader', async () => {
    type Meta = { name: string; leader?: string; cluster_size?: number };
    const metaOf = async (port: number) => ((await (await fetch(`http://127.0.0.1:${port}/jsz`)).json()) as { meta_cluster?: Meta }).meta_cluster;
    // Every server sees a cluster of three and names the same leader.
    const metas = await waitFor(
      'all three servers to agree on a JetStream meta leader',
      async () => {
        const seen = await Promise.all(monitorPorts.map(metaOf));
        const agreed = seen.every((meta) => meta?.leader && meta.leader === seen[0]?.leader && meta.cluster_size === SERVERS);
        return agreed ? (seen as Meta[]) : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    expect(metas.map((meta) => meta.name)).toEqual(['pp', 'pp', 'pp']);
    expect(['nats-0', 'nats-1', 'nats-2']).toContain(metas[0].leader);
    const varz = (await (await fetch(`http://127.0.0.1:${monitorPorts[1]}/varz`)).json()) as { server_name: string };
    expect(varz.server_name).toBe('nats-1');
  });

  it('lets in a route only from a server that gives the route password', async () => {
    const peer = { verbose: false, pedantic: false, tls_required: false, name: 'NOTAPEER', cluster: 'pp' };
    // Without a password, with an identity's, and with a wrong one: refused before any message could flow.
    for (const credentials of [{}, { user: 'route', pass: passwords.ledger }, { user: 'route', pass: `${serverSecret.NATS_ROUTE_PASSWORD}x` }, { user: 'ledger', pass: passwords.ledger }]) {
      const answer = await routeAnswer(routePorts[0], { ...peer, ...credentials });
      expect({ credentials, refused: /-ERR 'Authorization Violation'/.test(answer), pong: /^PONG/m.test(answer) }).toEqual({ credentials, refused: true, pong: false });
    }
  });

  it('keeps the generated identities: the migrate Job lays the streams out with three replicas, the ledger finds its own, and nobody connects without a password', async () => {
    // As the migrate Job connects (its own user and inbox prefix), with the base ConfigMap's JETSTREAM_REPLICAS.
    migrate = await connect(natsConnectionOptions(`nats://migrate:${passwords.migrate}@127.0.0.1:${clientPorts[0]}`, 'migrate'));
    const settings = { namespace: '', replicas: 3, ingestStreamMaxBytes: 8 * 1024 ** 2, ingestBucketMaxBytes: 8 * 1024 ** 2 };
    await waitFor('the three-replica streams', () => provisionJetStream(migrate!, settings).catch(() => undefined), { timeoutMs: 30_000, intervalMs: 500 });
    // As the ledger connects, to the server that is not the first: it finds the stream as made, and may not create one.
    ledger = await connect(natsConnectionOptions(`nats://ledger:${passwords.ledger}@127.0.0.1:${clientPorts[2]}`, 'ledger'));
    const jsm = await checkStream(ledger, ledgerEventsPlace(''));
    await expect(jsm.streams.add({ name: 'LEDGER_EVENTS_2', subjects: ['ledger.elsewhere.>'] })).rejects.toThrow();
    const stream = await jsm.streams.info('LEDGER_EVENTS');
    expect(stream.config.num_replicas).toBe(3);
    expect(stream.cluster?.replicas).toHaveLength(SERVERS - 1);
    await expect(connect({ servers: `127.0.0.1:${clientPorts[0]}`, reconnect: false })).rejects.toThrow(/Authorization/i);
    await expect(connect({ servers: `127.0.0.1:${clientPorts[1]}`, user: 'ledger', pass: 'wrong', reconnect: false })).rejects.toThrow(/Authorization/i);
  });

  it('stops a server as its pod stops: lame duck mode from the preStop hook, not cut short by the SIGTERM after it, its clients moved to the other two', async () => {
    // The ledger's server (the test above connected it to the third).
    const stopping = 2;
    const exited = new Promise<number | null>((resolve) => servers[stopping].once('exit', (code) => resolve(code)));
    // The StatefulSet's preStop command, run as the kubelet runs it (this server's pid file for the pod's).
    const [shell, flag, script] = statefulSet?.spec.template.spec.containers[0].lifecycle.preStop.exec.command as string[];
    expect([shell, flag]).toEqual(['sh', '-c']);
    expect(script).toContain(`nats-server --signal ldm=${podPidFile}`);
    const hook = spawnSync(shell, [flag, script.replace(podPidFile, pidFileOf(stopping))], {
      encoding: 'utf8',
      env: { PATH: `${dirname(natsBinary)}:${process.env.PATH ?? ''}` },
    });
    expect({ status: hook.status, stderr: hook.stderr }).toEqual({ status: 0, stderr: '' });
    // Then SIGTERM, as the kubelet sends once the hook returns: the server goes on with its lame duck stop.
    servers[stopping].kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(servers[stopping].exitCode).toBeNull();
    // It closes its clients after the grace period (10 s) and exits, long before the pod's 60 s.
    expect(await exited).toBe(0);
    // The ledger's connection moved to another server, and the three-replica stream answers from the other two, led by one of them.
    const leader = await waitFor(
      'the stream led by a running server, through the ledger connection moved to another',
      () =>
        checkStream(ledger!, ledgerEventsPlace(''))
          .then((jsm) => jsm.streams.info('LEDGER_EVENTS'))
          .then((info) => info.cluster?.leader || undefined)
          .catch(() => undefined),
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(['nats-0', 'nats-1']).toContain(leader);
  });
});
