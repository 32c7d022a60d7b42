import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './manifests';

/* Runs a script of the docs in bash against fake-kubectl.bash, which keeps the Secrets it creates as files. */

export interface StoredSecret {
  type: string;
  data: Record<string, string>;
}

export interface FakeKubectlRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Every Secret in the fake cluster after the script: those given, and what the script made of them. */
  secrets: Map<string, StoredSecret>;
}

/** Runs `script` in bash from the repository's root, with `kubectl` the fake, over the `existing` Secrets. */
export function runWithFakeKubectl(script: string, existing: Record<string, Record<string, string>> = {}): FakeKubectlRun {
  const dir = mkdtempSync(join(tmpdir(), 'fake-kubectl-'));
  try {
    const store = join(dir, 'secrets');
    mkdirSync(store);
    for (const [name, data] of Object.entries(existing)) {
      mkdirSync(join(store, name));
      writeFileSync(join(store, name, '.type'), 'Opaque');
      for (const [key, value] of Object.entries(data)) writeFileSync(join(store, name, key), value);
    }
    writeFileSync(join(dir, 'script.bash'), script);
    const result = spawnSync('bash', ['-c', 'source "$1" && source "$2"', 'bash', join(__dirname, 'fake-kubectl.bash'), join(dir, 'script.bash')], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: dir, KUBECTL_STORE: store },
      timeout: 60_000,
    });
    const secrets = new Map<string, StoredSecret>();
    for (const name of readdirSync(store)) {
      const keys = readdirSync(join(store, name)).filter((key) => key !== '.type');
      secrets.set(name, { type: readFileSync(join(store, name, '.type'), 'utf8'), data: Object.fromEntries(keys.map((key) => [key, readFileSync(join(store, name, key), 'utf8')])) });
    }
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, secrets };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first `sh` block of docs/OPERATIONS.md after the words `after`, out of any list item's indent. */
export function operationsScript(after: string): string {
  const operations = readFileSync(join(root, 'docs', 'OPERATIONS.md'), 'utf8');
  const at = operations.indexOf(after);
  const block = at < 0 ? undefined : /\n( *)```sh\n([\s\S]*?)\n *```/.exec(operations.slice(at));
  if (!block) throw new Error(`docs/OPERATIONS.md has no sh block after "${after}"`);
  return block[2].replace(new RegExp(`^ {${block[1].length}}`, 'gm'), '');
}

/** The script of First install step 3: every Secret, with fresh random values. */
export const firstInstallSecretsScript = () => operationsScript('**Namespace and Secrets**');
