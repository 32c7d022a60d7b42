const { spawn, spawnSync } = require('node:child_process');

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

/** `run` without blocking, so two commands can run side by side; output is collected, not shown. Resolves, never rejects. */
function runInBackground(command, args, options = {}) {
  const timeoutMs = options.timeoutMs ?? 120_000;
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      stderr += `\n${command} took longer than ${timeoutMs} ms; stopped`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => (stderr += String(error.message)));
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ ok: status === 0, status, stdout, stderr });
    });
  });
}

/** True when `binary` is on PATH (or is an absolute path that exists). */
function has(binary) {
  return run('sh', ['-c', `command -v ${binary}`]).ok;
}

module.exports = { run, runInBackground, has };
