import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './manifests';

/* Runs a script of deploy/k8s/scripts in bash with fake-kubectl/kubectl first on PATH, which keeps Secrets as files. */

/** The namespace the scripts make their Secrets in. */
export const NAMESPACE = 'interac-checkout';

export interface StoredSecret {
  type: string;
  data: Record<string, string>;
}

export interface FakeKubectlRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Every Secret of NAMESPACE after the script: those given, and what the script made of them. */
  secrets: Map<string, StoredSecret>;
  /** Namespaces other than NAMESPACE that hold a Secret after the script (none, for a script that names its namespace). */
  otherNamespaces: string[];
}

/**
 * Runs `bash deploy/k8s/scripts/<script>` from the repository's root over the `existing` Secrets of NAMESPACE, with
 * `commands` (a folder of stand-ins for other commands) on PATH before the fake kubectl.
 */
export function runWithFakeKubectl(script: string, existing: Record<string, Record<string, string>> = {}, commands?: string): FakeKubectlRun {
  const dir = mkdtempSync(join(tmpdir(), 'fake-kubectl-'));
  try {
    const store = join(dir, 'secrets');
    for (const [name, data] of Object.entries(existing)) {
      mkdirSync(join(store, NAMESPACE, name), { recursive: true });
      writeFileSync(join(store, NAMESPACE, name, '.type'), 'Opaque');
      for (const [key, value] of Object.entries(data)) writeFileSync(join(store, NAMESPACE, name, key), value);
    }
    const result = spawnSync('bash', [join(root, 'deploy', 'k8s', 'scripts', script)], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: [...(commands ? [commands] : []), join(__dirname, 'fake-kubectl'), process.env.PATH].join(':'), HOME: dir, KUBECTL_STORE: store },
      timeout: 60_000,
    });
    const secretsIn = (namespace: string) => {
      const secrets = new Map<string, StoredSecret>();
      const folder = join(store, namespace);
      for (const name of existsSync(folder) ? readdirSync(folder) : []) {
        const keys = readdirSync(join(folder, name)).filter((key) => key !== '.type');
        secrets.set(name, { type: readFileSync(join(folder, name, '.type'), 'utf8'), data: Object.fromEntries(keys.map((key) => [key, readFileSync(join(folder, name, key), 'utf8')])) });
      }
      return secrets;
    };
    const otherNamespaces = (existsSync(store) ? readdirSync(store) : []).filter((namespace) => namespace !== NAMESPACE && secretsIn(namespace).size > 0);
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, secrets: secretsIn(NAMESPACE), otherNamespaces };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
