/**
 * Runs every service as its own process with prefixed log lines. If one exits
 * unexpectedly, the launcher says which and stops the others (no silent
 * half-running stack); Ctrl-C stops them all cleanly.
 */
const { spawn } = require('node:child_process');
const { mkdirSync } = require('node:fs');
const { join } = require('node:path');
const readline = require('node:readline');
const out = require('./console');

/** How long a stopping service may take before it is killed: a pod's terminationGracePeriodSeconds, compose's stop_grace_period. */
const STOP_GRACE_MS = 45_000;
const COLORS = ['36', '32', '35', '33', '34', '96', '92', '95'];

function formatLine(line, pretty) {
  if (!pretty) return line;
  try {
    const entry = JSON.parse(line);
    const { time, level, service, msg, ...rest } = entry;
    const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
    const tint = level === 'error' ? '31' : level === 'warn' ? '33' : '0';
    return `${time.slice(11, 23)} ${out.paint(tint, level.padEnd(5))} ${msg}${extra}`;
  } catch {
    return line;
  }
}

class ServiceGroup {
  /**
   * `envFor(service)` adds what only that service gets (its own database role and bus identity);
   * `pidFile` (pid-file.js, claimed by this launcher) records the services' pids.
   */
  constructor(root, services, env, envFor = () => ({}), pidFile = undefined) {
    this.root = root;
    this.services = services;
    this.env = env;
    this.envFor = envFor;
    this.children = new Map();
    this.stopping = false;
    this.pidFile = pidFile;
    this.width = Math.max(...services.map((s) => s.length));
  }

  start(onCrash) {
    mkdirSync(join(this.root, 'tmp'), { recursive: true });
    const pretty = process.stdout.isTTY && !process.env.LOG_FORMAT;
    this.services.forEach((service, index) => {
      const { SERVICE_NODE_FLAGS } = require(join(this.root, 'dist', 'libs', 'platform', 'src', 'app', 'node-flags.js'));
      const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, join(this.root, 'dist', 'apps', service, 'src', 'main.js')], {
        env: { ...this.env, ...this.envFor(service) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const prefix = out.paint(COLORS[index % COLORS.length], `[${service.padEnd(this.width)}]`);
      for (const stream of [child.stdout, child.stderr]) {
        readline.createInterface({ input: stream }).on('line', (line) => console.log(`${prefix} ${formatLine(line, pretty)}`));
      }
      child.on('exit', (code, signal) => {
        this.children.delete(service);
        if (!this.stopping) onCrash(service, code, signal);
      });
      this.children.set(service, child);
    });
    this.pidFile?.recordServices([...this.children.values()].map((c) => c.pid));
  }

  async stop() {
    this.stopping = true;
    const exits = [...this.children.values()].map(
      (child) =>
        new Promise((resolve) => {
          // As long as a pod or a compose service has to stop (45 s): a service's stop drains the bus for up to 20 s.
          const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    );
    await Promise.all(exits);
    this.pidFile?.release();
  }

  /** Kills every service at once, without waiting for their stop. */
  kill() {
    this.stopping = true;
    for (const child of this.children.values()) child.kill('SIGKILL');
    this.pidFile?.release();
  }
}

module.exports = { ServiceGroup };
