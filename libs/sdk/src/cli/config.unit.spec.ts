import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from './args';
import { envApiBase, readConfig, refuseKeyInClear, resolveCredentials, writeConfig } from './config';

describe('the CLI config file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pp-cli-config-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('given a config file an earlier tool left readable by others, when the key is written, then the file holding it is the owner’s alone', () => {
    const path = join(dir, 'config.json');
    writeFileSync(path, '{}\n');
    chmodSync(path, 0o644);
    const env = { PP_CONFIG_FILE: path };

    expect(writeConfig(env, { api_key: 'pp_live_test_secret', api_base: 'http://localhost:3000' })).toBe(path);

    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readConfig(env)).toEqual({ api_key: 'pp_live_test_secret', api_base: 'http://localhost:3000' });
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
  });

  it('given no config directory yet, when the key is written, then the directory is created for the owner only', () => {
    const path = join(dir, 'nested', 'pp-checkout', 'config.json');
    writeConfig({ PP_CONFIG_FILE: path }, { api_key: 'pp_live_test_secret' });
    expect(statSync(join(dir, 'nested', 'pp-checkout')).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  describe('given the key login saved with its gateway', () => {
    const noArgs = { positionals: [], options: new Map<string, string | true>() };
    const saved = (config: object) => {
      const env = { PP_CONFIG_FILE: join(dir, 'config.json') };
      writeConfig(env, { api_key: 'pp_live_saved', ...config });
      return env;
    };
    let warnings: string[];
    const warn = (line: string) => void warnings.push(line);
    beforeEach(() => (warnings = []));

    it('when PP_API_BASE names another gateway, then it is refused, naming both without a password; --api-base, given on purpose, or a key from PP_API_KEY may go there', () => {
      const env = saved({ api_base: 'https://gateway.example' });
      expect(() => resolveCredentials(noArgs, { ...env, PP_API_BASE: 'https://u:secret@other.example' }, warn)).toThrow(
        /^The key `login` saved is for https:\/\/gateway\.example, and PP_API_BASE names https:\/\/…@other\.example: pass --api-base/,
      );
      expect(() => resolveCredentials(noArgs, { ...env, PP_API_BASE: 'https://other.example' }, warn)).toThrow(UsageError);
      expect(resolveCredentials(noArgs, env, warn)).toMatchObject({ apiKey: 'pp_live_saved', apiBase: 'https://gateway.example' });
      expect(resolveCredentials(noArgs, { ...env, PP_API_BASE: 'https://gateway.example/' }, warn).apiBase).toBe('https://gateway.example');
      const apiBase = { positionals: [], options: new Map<string, string | true>([['api-base', 'https://other.example']]) };
      expect(resolveCredentials(apiBase, { ...env, PP_API_BASE: 'https://third.example' }, warn).apiBase).toBe('https://other.example');
      expect(resolveCredentials(noArgs, { ...env, PP_API_KEY: 'pp_live_env', PP_API_BASE: 'https://other.example' }, warn)).toMatchObject({ apiKey: 'pp_live_env', apiBase: 'https://other.example' });
      expect(warnings).toEqual([]);
    });

    it.each(['https://GATEWAY.example', 'https://gateway.example:443', 'HTTPS://Gateway.Example:443//', 'https://gateway.example/v1/..'])(
      'when PP_API_BASE writes the same gateway another way (%s), then the key goes to it',
      (named) => {
        const env = saved({ api_base: 'https://gateway.example' });
        expect(resolveCredentials(noArgs, { ...env, PP_API_BASE: named }, warn).apiBase).toBe('https://gateway.example');
        expect(warnings).toEqual([]);
      },
    );

    it.each(['https://gateway.example:8443', 'http://gateway.example', 'https://gateway.example.evil', 'https://gateway.example/other'])(
      'when PP_API_BASE names another port, scheme, host or path (%s), then it is refused',
      (named) => {
        const env = saved({ api_base: 'https://gateway.example' });
        expect(() => resolveCredentials(noArgs, { ...env, PP_API_BASE: named, PP_ALLOW_HTTP: 'true' }, warn)).toThrow(/^The key `login` saved is for/);
      },
    );

    it('when it saved no gateway (an older CLI’s file), then a test key goes to PP_API_BASE as before, with a one-line warning to log in again that carries no password; without PP_API_BASE, the default, silently', () => {
      const env = saved({ api_key: 'pp_live_test_saved' });
      expect(resolveCredentials(noArgs, env, warn).apiBase).toBe('http://localhost:3000');
      expect(resolveCredentials(noArgs, { ...env, PP_API_BASE: 'http://localhost:3000/' }, warn).apiBase).toBe('http://localhost:3000/');
      expect(warnings).toEqual([]);
      expect(resolveCredentials(noArgs, { ...env, PP_API_BASE: 'https://other.example' }, warn)).toMatchObject({ apiKey: 'pp_live_test_saved', apiBase: 'https://other.example' });
      expect(warnings).toEqual([expect.stringMatching(/^warning: the key `login` saved names no gateway .* PP_API_BASE https:\/\/other\.example .*run `login` again/)]);
      expect(warnings[0]).not.toContain('\n');
      // A base with a password is refused as ever (keyInClearRefusal); the warning before it does not repeat it.
      expect(() => resolveCredentials(noArgs, { ...env, PP_API_BASE: 'https://u:secret@third.example' }, warn)).toThrow(/holds a user name or password/);
      expect(warnings[1]).toContain('https://…@third.example');
      expect(warnings.join('')).not.toContain('secret');
    });

    it('when it saved no gateway and its key is live, then PP_API_BASE naming another gateway is refused until --api-base names it or login saves it', () => {
      const env = saved({});
      expect(() => resolveCredentials(noArgs, { ...env, PP_API_BASE: 'https://other.example' }, warn)).toThrow(/^The live key `login` saved names no gateway .*https:\/\/other\.example.*--api-base/);
      expect(warnings).toEqual([]);
      expect(resolveCredentials(noArgs, env, warn)).toMatchObject({ apiKey: 'pp_live_saved', apiBase: 'http://localhost:3000' });
    });
  });

  it('given PP_API_KEY set but empty (`PP_API_KEY=`), when the key is resolved, then it is taken as unset: the key `login` saved is used, with its gateway', () => {
    const args = { positionals: [], options: new Map<string, string | true>() };
    const env = { PP_CONFIG_FILE: join(dir, 'config.json'), PP_API_KEY: '' };
    writeConfig(env, { api_key: 'pp_live_saved', api_base: 'https://gateway.example' });
    expect(resolveCredentials(args, env, () => undefined)).toMatchObject({ apiKey: 'pp_live_saved', apiBase: 'https://gateway.example' });
  });

  it('given a key from PP_API_KEY or --api-key and a gateway `login` saved for its own key, then the given key never goes to the saved gateway: a test key to PP_API_BASE or the default, a live one only to a gateway named', () => {
    const env = { PP_CONFIG_FILE: join(dir, 'config.json') };
    writeConfig(env, { api_key: 'pp_live_test_saved', api_base: 'https://staging.example' });
    const noArgs = { positionals: [], options: new Map<string, string | true>() };
    expect(resolveCredentials(noArgs, { ...env, PP_API_KEY: 'pp_live_test_other' }, () => undefined)).toMatchObject({ apiKey: 'pp_live_test_other', apiBase: 'http://localhost:3000' });
    expect(() => resolveCredentials(noArgs, { ...env, PP_API_KEY: 'pp_live_production' }, () => undefined)).toThrow(/^A live or restricted key goes only to a gateway named on purpose/);
    const keyArg = { positionals: [], options: new Map<string, string | true>([['api-key', 'pp_live_production']]) };
    expect(() => resolveCredentials(keyArg, env, () => undefined)).toThrow(UsageError);
    expect(resolveCredentials(keyArg, { ...env, PP_API_BASE: 'https://gateway.example' }, () => undefined).apiBase).toBe('https://gateway.example');
  });

  it('given PP_API_BASE set but empty (`PP_API_BASE=`), when the gateway is resolved, then it is taken as unset: the key goes to the saved gateway or the default, not to an empty URL', () => {
    const args = { positionals: [], options: new Map<string, string | true>() };
    const env = { PP_CONFIG_FILE: join(dir, 'config.json'), PP_API_BASE: '' };
    expect(envApiBase(env)).toBeUndefined();
    expect(resolveCredentials(args, { ...env, PP_API_KEY: 'pp_live_test_secret' }, () => undefined).apiBase).toBe('http://localhost:3000');
    writeConfig(env, { api_key: 'pp_live_saved', api_base: 'https://gateway.example' });
    expect(resolveCredentials(args, env, () => undefined)).toMatchObject({ apiKey: 'pp_live_saved', apiBase: 'https://gateway.example' });
    expect(resolveCredentials(args, { ...env, PP_API_KEY: 'pp_live_test_secret' }, () => undefined).apiBase).toBe('http://localhost:3000');
    writeConfig(env, { api_key: 'pp_live_test_old' });
    const warnings: string[] = [];
    expect(resolveCredentials(args, env, (line) => void warnings.push(line)).apiBase).toBe('http://localhost:3000');
    expect(warnings).toEqual([]);
  });

  it('given an API base over plain http to another host, when the key would be sent, then it refuses unless PP_ALLOW_HTTP says the network is private', () => {
    const args = { positionals: [], options: new Map<string, string | true>() };
    const env = { PP_CONFIG_FILE: join(dir, 'config.json'), PP_API_KEY: 'pp_live_test_secret' };
    expect(() => resolveCredentials(args, { ...env, PP_API_BASE: 'http://gateway.example.com' }, () => undefined)).toThrow(/in clear text: use https:\/\//);
    expect(resolveCredentials(args, { ...env, PP_API_BASE: 'https://gateway.example.com' }, () => undefined).apiBase).toBe('https://gateway.example.com');
    for (const local of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) expect(() => refuseKeyInClear(local, {})).not.toThrow();
    expect(() => refuseKeyInClear('http://10.0.0.5:3000', { PP_ALLOW_HTTP: 'true' })).not.toThrow();
    expect(() => refuseKeyInClear('not a url', {})).toThrow(/not a URL/);
  });
});
