import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig, writeConfig } from './config';

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
});
