import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, helpText, loadConfig, SETTINGS } from '../../src/config.js';

/** The "## Configuration" section of docs/OPERATIONS.md, up to the next section of its level. */
function configurationTable(): string {
  const text = readFileSync(new URL('../../docs/OPERATIONS.md', import.meta.url), 'utf8');
  const start = text.indexOf('\n## Configuration\n');
  expect(start, 'docs/OPERATIONS.md has a "## Configuration" section').toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('configuration', () => {
  it('has documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.maxImageBytes).toBe(10 * 1024 * 1024);
    expect(config.executionProviders).toEqual(['cpu']);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('keeps the provider order and always falls back to CPU', () => {
    expect(loadConfig({ EXECUTION_PROVIDERS: 'tensorrt, cuda' }).executionProviders).toEqual([
      'tensorrt',
      'cuda',
      'cpu',
    ]);
    expect(() => loadConfig({ EXECUTION_PROVIDERS: 'cuda,rocm' })).toThrow(
      'EXECUTION_PROVIDERS must be one of tensorrt, cuda, webgpu, cpu, got "rocm"',
    );
  });

  it('works out the derived defaults from the settings they depend on, given or defaulted', () => {
    const derived = loadConfig({ WORKERS: '3', MAX_BUFFERED_BYTES: String(8 * 1024 * 1024), PORT: '9000' });
    expect(derived).toMatchObject({
      queueSize: 48,
      queueWaitingRoom: 192,
      organizationQueueSize: 480,
      organizationBufferedBytes: 2 * 1024 * 1024,
    });
    expect(derived.publicUrl).toBe('http://localhost:9000');
    expect(derived.instances.kind).toBe('cpu');
    // A given setting feeds the defaults worked out from it; a given default is taken as it is.
    expect(loadConfig({ QUEUE_SIZE: '10' })).toMatchObject({
      queueSize: 10,
      queueWaitingRoom: 40,
      organizationQueueSize: 100,
    });
    expect(loadConfig({ QUEUE_SIZE: '10', QUEUE_WAITING_ROOM: '0', ORGANIZATION_QUEUE_SIZE: '7' })).toMatchObject({
      queueWaitingRoom: 0,
      organizationQueueSize: 7,
    });
    expect(loadConfig({ EXECUTION_PROVIDERS: 'cuda' }).instances.kind).toBe('gpu');
    expect(loadConfig({ EXECUTION_PROVIDERS: 'cuda', INSTANCE_KIND: 'cpu' }).instances.kind).toBe('cpu');
    expect(loadConfig({ PUBLIC_URL: 'https://sense.example.com/' }).publicUrl).toBe('https://sense.example.com');
  });

  it('takes MODEL_STORE=s3 only with its endpoint, bucket and credentials', () => {
    expect(loadConfig({}).modelStore).toEqual({ kind: 'postgres' });
    expect(() => loadConfig({ MODEL_STORE: 's3', S3_BUCKET: 'models' })).toThrow(
      'MODEL_STORE=s3 needs S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
    );
    const s3 = {
      MODEL_STORE: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'models',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadConfig(s3).modelStore).toEqual({
      kind: 's3',
      endpoint: 'http://minio:9000',
      bucket: 'models',
      region: 'us-east-1',
      prefix: 'models/',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
    });
    expect(() => loadConfig({ ...s3, S3_ENDPOINT: 'minio:9000' })).toThrow(
      'S3_ENDPOINT must be an http(s) URL, got "minio:9000"',
    );
    expect(() => loadConfig({ MODEL_STORE: 'disk' })).toThrow('MODEL_STORE must be one of postgres, s3, got "disk"');
  });

  it('takes MAP_TILE_URL only as an http(s) template with {z}, {x} and {y}', () => {
    expect(loadConfig({ MAP_TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' }).mapTileUrl).toBe(
      'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    );
    expect(() => loadConfig({ MAP_TILE_URL: 'https://tiles.example.com/{z}/{x}.png' })).toThrow(
      'MAP_TILE_URL must be an http(s) URL template with {z}, {x} and {y}',
    );
    expect(() => loadConfig({ MAP_TILE_URL: 'javascript:alert(1)//{z}{x}{y}' })).toThrow(
      'MAP_TILE_URL must be an http(s) URL template',
    );
  });

  it('takes MQTTS_PORT only with the TLS certificate, and MQTT_PORT 0 as off', () => {
    expect(loadConfig({}).mqtt).toMatchObject({ port: 1883, tlsPort: 0, receiveMaximum: 64 });
    expect(loadConfig({ MQTT_PORT: '0' }).mqtt.port).toBe(0);
    expect(() => loadConfig({ MQTTS_PORT: '8883' })).toThrow(/MQTTS_PORT needs TLS_CERT and TLS_KEY/);
    expect(() => loadConfig({ MQTT_RECEIVE_MAXIMUM: '0' })).toThrow(ConfigError);
  });

  it('fails fast on malformed numbers', () => {
    expect(() => loadConfig({ PORT: '80a' })).toThrow(ConfigError);
    expect(() => loadConfig({ WORKERS: '0' })).toThrow('WORKERS must be an integer between 1 and 256, got "0"');
  });

  it('lists every setting in --help', () => {
    const help = helpText();
    for (const setting of SETTINGS) expect(help).toContain(setting.name);
  });

  it('documents every setting in the configuration table of docs/OPERATIONS.md', () => {
    const table = configurationTable();
    const documented = new Set(
      [...table.matchAll(/^\| (.*?) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((n) => n[1]!)),
    );
    for (const setting of SETTINGS) expect(documented, setting.name).toContain(setting.name);
  });

  it('gives every default in the docs/OPERATIONS.md table as the settings declare it', () => {
    const table = configurationTable();
    // Markdown aside: `code`, *emphasis*, × and ÷ for --help's x and /
    const plain = (cell: string) =>
      cell.replace(/[`*]/g, '').replaceAll('×', 'x').replaceAll('÷', '/').replace(/\s+/g, ' ').trim();
    const written = new Map<string, string>();
    for (const [, names, defaults] of table.matchAll(/^\| (`[A-Z0-9_]+`(?: \/ `[A-Z0-9_]+`)*) \| (.*?) \|/gm)) {
      const row = [...names!.matchAll(/`([A-Z0-9_]+)`/g)].map((n) => n[1]!);
      // a row of several settings gives their defaults in the same order, separated by " / "
      const cells = row.length === 1 ? [defaults!] : defaults!.split(' / ');
      expect(cells, `docs/OPERATIONS.md row ${names}: one default per setting`).toHaveLength(row.length);
      row.forEach((name, i) => written.set(name, plain(cells[i]!)));
    }
    expect([...written.keys()].sort(), 'docs/OPERATIONS.md rows are the declared settings').toEqual(
      SETTINGS.map((s) => s.name).sort(),
    );
    for (const setting of SETTINGS) expect(written.get(setting.name), setting.name).toBe(setting.documented);
  });

  it('loads every setting of the table to its own place in Config, and nothing else', () => {
    // S3's settings are part of Config only when MODEL_STORE is s3, broker mode's only with MQTT_BROKER_URL;
    // everything else is left to its default
    const env = {
      MQTT_BROKER_URL: 'mqtt://broker:1883',
      MODEL_STORE: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'models',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    const config = loadConfig(env);
    const at = (path: readonly string[]) =>
      path.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], config);
    const places = SETTINGS.map((s) => s.path.join('.'));
    expect(new Set(places).size, 'no two settings share a place').toBe(SETTINGS.length);
    for (const setting of SETTINGS) {
      const read = setting.read(env);
      // unset without a default, a list is empty in Config
      if (read === undefined) expect([undefined, []], setting.name).toContainEqual(at(setting.path));
      else expect(at(setting.path), setting.name).toEqual(read);
    }
    // every value of Config is some setting's (or, undefined, holds the settings that were not set)
    const leaves = (value: unknown, path: string[]): string[] =>
      value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0
        ? Object.entries(value).flatMap(([key, inner]) => leaves(inner, [...path, key]))
        : [path.join('.')];
    for (const leaf of leaves(config, [])) {
      expect(
        places.some((place) => place === leaf || place.startsWith(`${leaf}.`)),
        leaf,
      ).toBe(true);
    }
  });

  it('reads each declared default, written out, as the default', () => {
    const defaults = loadConfig({});
    for (const setting of SETTINGS) {
      if (setting.default === undefined) continue;
      expect(loadConfig({ [setting.name]: setting.default }), setting.name).toEqual(defaults);
    }
  });
});
