import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/*
 * The launcher's decisions about Postgres and docker compose (infrastructure.js, postgres-roles.js), in a
 * scratch checkout (its own .dev/, the real dist/), with the side effects injected: docker compose is a
 * stand-in for run-command's run, Postgres a stand-in for opening a set-up session. No Docker engine,
 * no server's password changes.
 */

type RunResult = { ok: boolean; status: number | null; stdout: string; stderr: string };
type Run = (command: string, args: string[], options?: { env?: Record<string, string> }) => RunResult;
type Component = { name: string; url: URL; defaultPort: number };
type FakeClient = { query: (text: string, values?: unknown[]) => Promise<{ rowCount: number }>; end: () => Promise<void> };
/* eslint-disable @typescript-eslint/no-require-imports -- the launcher is plain CommonJS */
const { checkPostgres, composeServicesFor, startComposeInfrastructure } = require('./infrastructure') as {
  checkPostgres: (root: string, databaseUrl: string, installedNow: boolean, callerEnv: Record<string, string>, connect: (url: string) => Promise<FakeClient>) => Promise<string>;
  composeServicesFor: (down: Component[]) => string[];
  startComposeInfrastructure: (root: string, env: Record<string, string>, callerEnv: Record<string, string>, services: string[], runCommand: Run) => boolean;
};
const { preparePostgres, projectDatabaseUrl } = require('./postgres-roles') as {
  preparePostgres: (root: string, adminUrl: string, migrateNatsUrl: string) => Promise<unknown>;
  projectDatabaseUrl: (url: string) => string;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const root = join(__dirname, '..', '..');
const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/pp';
let dir: string;
let messages: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'launcher-infra-'));
  messages = '';
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void (messages += `${args.join(' ')}\n`));
  jest.spyOn(process, 'exit').mockImplementation((code?: string | number | null) => {
    throw new Error(`process.exit(${code})`);
  });
});

afterEach(() => {
  jest.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** A stand-in Postgres whose superuser logs in with `password` only; records each URL it was asked for. */
function postgresWithPassword(password: string | undefined, databases = ['postgres', 'pp']) {
  const asked: string[] = [];
  const queries: unknown[][] = [];
  const connect = async (url: string): Promise<FakeClient> => {
    asked.push(url);
    const given = decodeURIComponent(new URL(url).password) || undefined;
    if (given !== password) throw new Error(`password authentication failed for user "postgres"`);
    return {
      query: async (text, values = []) => {
        queries.push([text, ...values]);
        return { rowCount: text.startsWith('SELECT') && databases.includes(String(values[0])) ? 1 : 0 };
      },
      end: async () => undefined,
    };
  };
  return { connect, asked, queries };
}

const keepComposeSecrets = (secrets: Record<string, string>) => {
  mkdirSync(join(dir, '.dev'), { recursive: true });
  writeFileSync(join(dir, '.dev', 'compose-secrets.json'), JSON.stringify(secrets));
};

describe('checkPostgres, after an earlier run started compose’s Postgres', () => {
  it('given no DATABASE_URL from the caller and compose’s Postgres still answering, then it logs in with the password compose was given', async () => {
    keepComposeSecrets({ POSTGRES_PASSWORD: 'compose-pw' });
    const postgres = postgresWithPassword('compose-pw');

    const url = await checkPostgres(dir, DEFAULT_URL, false, {}, postgres.connect);

    expect(url).toBe('postgres://postgres:compose-pw@127.0.0.1:5432/pp');
    expect(postgres.asked).toEqual(['postgres://postgres@127.0.0.1:5432/postgres', 'postgres://postgres:compose-pw@127.0.0.1:5432/postgres']);
    expect(messages).toContain('logged in as postgres with the password in .dev/compose-secrets.json');
  });

  it('given POSTGRES_PASSWORD in the environment, then it tries that one first, as compose got it', async () => {
    keepComposeSecrets({ POSTGRES_PASSWORD: 'kept-pw' });
    const postgres = postgresWithPassword('env-pw');

    expect(await checkPostgres(dir, DEFAULT_URL, false, { POSTGRES_PASSWORD: 'env-pw' }, postgres.connect)).toBe('postgres://postgres:env-pw@127.0.0.1:5432/pp');
  });

  it('given a DATABASE_URL from the caller, then compose’s password is not tried and it says to put the password in DATABASE_URL', async () => {
    keepComposeSecrets({ POSTGRES_PASSWORD: 'compose-pw' });
    const postgres = postgresWithPassword('compose-pw');

    await expect(checkPostgres(dir, DEFAULT_URL, false, { DATABASE_URL: DEFAULT_URL }, postgres.connect)).rejects.toThrow('process.exit(1)');
    expect(postgres.asked).toHaveLength(1);
    expect(messages).toContain('put the password in DATABASE_URL');
  });

  it('given a fresh clone and a local cluster whose password an earlier checkout set, then it stops and says where that password is kept, or how to set one', async () => {
    const postgres = postgresWithPassword('set-by-an-earlier-checkout');

    await expect(checkPostgres(dir, DEFAULT_URL, false, {}, postgres.connect)).rejects.toThrow('process.exit(1)');
    expect(messages).toContain("its .dev/postgres-superuser.json (or .dev/compose-secrets.json) holds it: copy that file into this checkout's .dev/");
    expect(messages).toContain(`sudo -u postgres psql -c "ALTER ROLE postgres PASSWORD '<new password>'"`);
  });

  it('given compose’s password refused too, then it stops, naming what it tried', async () => {
    keepComposeSecrets({ POSTGRES_PASSWORD: 'compose-pw' });
    const postgres = postgresWithPassword('another');

    await expect(checkPostgres(dir, DEFAULT_URL, false, {}, postgres.connect)).rejects.toThrow('process.exit(1)');
    expect(messages).toContain('(and with the password in .dev/compose-secrets.json)');
    expect(messages).not.toContain('compose-pw');
  });
});

describe('the database DATABASE_URL names', () => {
  it.each(['postgres://postgres@127.0.0.1:5432', 'postgres://postgres@127.0.0.1:5432/'])('given %s, naming none, then the project’s pp is created and named', async (given) => {
    const postgres = postgresWithPassword(undefined, ['postgres']);

    expect(await checkPostgres(dir, given, false, {}, postgres.connect)).toBe('postgres://postgres@127.0.0.1:5432/pp');
    expect(postgres.queries).toEqual([
      ['SELECT 1 FROM pg_database WHERE datname = $1', 'pp'],
      ['CREATE DATABASE "pp"'],
    ]);
    expect(projectDatabaseUrl('postgres://u:p@db.example:6543')).toBe('postgres://u:p@db.example:6543/pp');
  });

  it.each(['42P04', '23505'])('given another launcher creates the database first (two first runs at once: %s), then it goes on as if it had found it', async (code) => {
    const postgres = postgresWithPassword(undefined, ['postgres']);
    const racing = async (url: string) => {
      const client = await postgres.connect(url);
      return {
        ...client,
        query: async (text: string, values?: unknown[]) => {
          if (!text.startsWith('CREATE DATABASE')) return client.query(text, values);
          throw Object.assign(new Error('database "pp" already exists'), { code });
        },
      };
    };

    expect(await checkPostgres(dir, DEFAULT_URL, false, {}, racing)).toBe(DEFAULT_URL);
  });

  it.each(['postgres', 'template0', 'template1'])('given Postgres’s own database %s, then the migrate step refuses before it hands anything over', async (name) => {
    // `npm test` and the bench use only the server: they may name one.
    const postgres = postgresWithPassword(undefined, [name]);
    expect(await checkPostgres(dir, `postgres://postgres@127.0.0.1:5432/${name}`, false, {}, postgres.connect)).toBe(`postgres://postgres@127.0.0.1:5432/${name}`);

    // It would connect to port 1 first, and fail on that, if it did not refuse before anything else.
    await expect(preparePostgres(dir, `postgres://postgres@127.0.0.1:1/${name}`, 'nats://127.0.0.1:1')).rejects.toThrow(
      `DATABASE_URL names the database ${name}, one of Postgres's own (postgres, template0, template1): the set-up would hand it to the owner role pp_owner`,
    );
    expect(existsSync(join(dir, '.dev'))).toBe(false);
  });
});

describe('docker compose for the components that are down', () => {
  const component = (name: string, url: string, defaultPort: number): Component => ({ name, url: new URL(url), defaultPort });
  const postgres = component('Postgres', DEFAULT_URL, 5432);
  const redis = component('Redis', 'redis://127.0.0.1:6379', 6379);

  it('starts only the services down where compose publishes them', () => {
    expect(composeServicesFor([postgres, redis])).toEqual(['postgres', 'redis']);
    expect(composeServicesFor([redis])).toEqual(['redis']);
    expect(composeServicesFor([postgres])).toEqual(['postgres']);
    expect(composeServicesFor([component('Postgres', 'postgres://postgres@db.example:5432/pp', 5432), component('Redis', 'redis://localhost:6380', 6379)])).toEqual([]);
    expect(composeServicesFor([component('NATS', 'nats://127.0.0.1:4222', 4222)])).toEqual([]);
  });

  describe('startComposeInfrastructure', () => {
    const calls: { args: string[]; env: Record<string, string> }[] = [];
    const compose =
      (result: Partial<RunResult>): Run =>
      (command, args, options = {}) => {
        expect(command).toBe('docker');
        calls.push({ args, env: options.env ?? {} });
        return { ok: true, status: 0, stdout: '', stderr: '', ...result };
      };

    beforeEach(() => {
      calls.splice(0);
      symlinkSync(join(root, 'dist'), join(dir, 'dist'));
      writeFileSync(join(dir, 'docker-compose.yml'), 'services:\n  postgres:\n    environment:\n      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}\n');
    });

    const composePassword = () => (JSON.parse(readFileSync(join(dir, '.dev', 'compose-secrets.json'), 'utf8')) as { POSTGRES_PASSWORD: string }).POSTGRES_PASSWORD;

    it('given only Redis down, then compose starts Redis alone and DATABASE_URL stays the one that answers', () => {
      const env = { DATABASE_URL: DEFAULT_URL };

      expect(startComposeInfrastructure(dir, env, {}, ['redis'], compose({}))).toBe(true);
      expect(calls.map((call) => call.args.slice(-4))).toEqual([['up', '-d', '--wait', 'redis']]);
      // Its own project, never the deployed stack's (named after the checkout's folder), whose containers it would recreate.
      expect(calls[0].args.slice(0, 3)).toEqual(['compose', '-p', `${basename(dir).toLowerCase().replace(/[^a-z0-9_-]/g, '')}-dev`]);
      expect(env.DATABASE_URL).toBe(DEFAULT_URL);
    });

    it('given Postgres down and compose starting it, then DATABASE_URL gets compose’s superuser password', () => {
      const env = { DATABASE_URL: DEFAULT_URL };

      expect(startComposeInfrastructure(dir, env, {}, ['postgres', 'redis'], compose({}))).toBe(true);
      expect(calls.map((call) => call.args.slice(-5))).toEqual([['up', '-d', '--wait', 'postgres', 'redis']]);
      expect(calls[0].env.POSTGRES_PASSWORD).toBe(composePassword());
      expect(env.DATABASE_URL).toBe(`postgres://postgres:${composePassword()}@127.0.0.1:5432/pp`);
    });

    it('given the caller’s own POSTGRES_PASSWORD with URL characters in it, then DATABASE_URL carries it encoded, to the right host', () => {
      const env = { DATABASE_URL: DEFAULT_URL };
      const password = 'p@ss/x#1%?:';
      const before = process.env.POSTGRES_PASSWORD;
      process.env.POSTGRES_PASSWORD = password;
      try {
        expect(startComposeInfrastructure(dir, env, {}, ['postgres'], compose({}))).toBe(true);
      } finally {
        if (before === undefined) delete process.env.POSTGRES_PASSWORD;
        else process.env.POSTGRES_PASSWORD = before;
      }
      expect(calls[0].env.POSTGRES_PASSWORD).toBe(password);
      const url = new URL(env.DATABASE_URL);
      expect([url.hostname, url.port, url.pathname, url.username, decodeURIComponent(url.password)]).toEqual(['127.0.0.1', '5432', '/pp', 'postgres', password]);
    });

    it('given compose failing, then DATABASE_URL is left alone for the next ways to start Postgres', () => {
      const env = { DATABASE_URL: DEFAULT_URL };

      expect(startComposeInfrastructure(dir, env, {}, ['postgres'], compose({ ok: false, status: 1 }))).toBe(false);
      expect(env.DATABASE_URL).toBe(DEFAULT_URL);
      expect(messages).toContain('docker compose up failed (exit code 1); trying the servers installed on this machine');
    });

    it('given a DATABASE_URL from the caller, then it is kept', () => {
      const mine = 'postgres://postgres:mine@127.0.0.1:5432/pp';
      const env = { DATABASE_URL: mine };

      startComposeInfrastructure(dir, env, { DATABASE_URL: mine }, ['postgres'], compose({}));
      expect(env.DATABASE_URL).toBe(mine);
    });
  });
});
