const { spawnSync } = require('node:child_process');

/** Runs a command to completion; returns { ok, status, stdout, stderr }. Never throws for a missing binary. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: options.timeoutMs ?? 120_000, ...options });
  return {
    ok: result.status === 0,
    status: result.status,
    stdout: result.stdout ?? '',
    stderr: (result.stderr ?? '') + (result.error ? String(result.error.message) : ''),
  };
}

/** True when `binary` is on PATH (or is an absolute path that exists). */
function has(binary) {
  return run('sh', ['-c', `command -v ${binary}`]).ok;
}

module.exports = { run, has };
