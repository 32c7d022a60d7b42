import Ajv from 'ajv';

/*
 * The part of CloudNativePG's postgresql.cnpg.io/v1 API that deploy/k8s uses (Cluster, ScheduledBackup),
 * written from the operator's API reference: no npm package ships its CRD schema. Every object is closed
 * (additionalProperties: false), so a misspelt or misplaced field fails here instead of being dropped by
 * the API server; a field the project starts to use must be added here, checked against the reference.
 */

const closed = (properties: Record<string, object>, required: string[] = []) => ({ type: 'object', additionalProperties: false, properties, required });
const quantity = { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$' };
const secretName = closed({ name: { type: 'string', minLength: 1 } }, ['name']);
const secretKey = closed({ name: { type: 'string', minLength: 1 }, key: { type: 'string', minLength: 1 } }, ['name', 'key']);
const resources = closed({
  requests: closed({ cpu: quantity, memory: quantity }),
  limits: closed({ cpu: quantity, memory: quantity }),
});
const metadata = closed({ name: { type: 'string', minLength: 1 }, namespace: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } }, ['name']);
const compression = { enum: ['gzip', 'bzip2', 'snappy', 'lz4', 'xz', 'zstd'] };
const barmanObjectStore = closed(
  {
    destinationPath: { type: 'string', pattern: '^(s3|gs|https?)://' },
    serverName: { type: 'string', minLength: 1 },
    s3Credentials: closed({ accessKeyId: secretKey, secretAccessKey: secretKey }, ['accessKeyId', 'secretAccessKey']),
    wal: closed({ compression }),
    data: closed({ compression }),
  },
  ['destinationPath'],
);

const role = closed(
  {
    name: { type: 'string', minLength: 1 },
    ensure: { enum: ['present', 'absent'] },
    login: { type: 'boolean' },
    superuser: { type: 'boolean' },
    createdb: { type: 'boolean' },
    createrole: { type: 'boolean' },
    inherit: { type: 'boolean' },
    replication: { type: 'boolean' },
    bypassrls: { type: 'boolean' },
    connectionLimit: { type: 'integer' },
    passwordSecret: secretName,
  },
  ['name'],
);

const clusterSpec = closed(
  {
    instances: { type: 'integer', minimum: 1 },
    imageName: { type: 'string', minLength: 1 },
    primaryUpdateStrategy: { enum: ['supervised', 'unsupervised'] },
    // postgresql.conf settings, every value a string (the API's map[string]string).
    postgresql: closed({ parameters: { type: 'object', additionalProperties: { type: 'string' } } }),
    minSyncReplicas: { type: 'integer', minimum: 0 },
    maxSyncReplicas: { type: 'integer', minimum: 0 },
    storage: closed({ size: quantity, storageClass: { type: 'string' } }),
    walStorage: closed({ size: quantity, storageClass: { type: 'string' } }),
    resources,
    affinity: closed({
      enablePodAntiAffinity: { type: 'boolean' },
      topologyKey: { type: 'string' },
      podAntiAffinityType: { enum: ['preferred', 'required'] },
    }),
    // Exactly one way to create the data: empty (initdb) or from backups (recovery).
    bootstrap: {
      ...closed({
        initdb: closed(
        {
          database: { type: 'string', minLength: 1 },
          owner: { type: 'string', minLength: 1 },
          secret: secretName,
          postInitApplicationSQL: { type: 'array', items: { type: 'string' } },
        },
        ['database', 'owner'],
        ),
        recovery: closed(
          {
            source: { type: 'string', minLength: 1 },
            database: { type: 'string', minLength: 1 },
            owner: { type: 'string', minLength: 1 },
            secret: secretName,
            recoveryTarget: closed({ targetTime: { type: 'string' }, targetLSN: { type: 'string' }, targetImmediate: { type: 'boolean' } }),
          },
          ['source'],
        ),
      }),
      minProperties: 1,
      maxProperties: 1,
    },
    managed: closed({ roles: { type: 'array', items: role } }),
    backup: closed({
      retentionPolicy: { type: 'string', pattern: '^[1-9][0-9]*[dwm]$' },
      barmanObjectStore,
    }),
    externalClusters: { type: 'array', items: closed({ name: { type: 'string', minLength: 1 }, barmanObjectStore }, ['name']) },
  },
  ['instances', 'storage'],
);

const scheduledBackupSpec = closed(
  {
    // Six fields: CloudNativePG's schedules start with seconds.
    schedule: { type: 'string', pattern: '^\\S+( \\S+){5}$' },
    backupOwnerReference: { enum: ['none', 'self', 'cluster'] },
    immediate: { type: 'boolean' },
    cluster: secretName,
  },
  ['schedule', 'cluster'],
);

const object = (kind: string, spec: object) =>
  closed({ apiVersion: { const: 'postgresql.cnpg.io/v1' }, kind: { const: kind }, metadata, spec }, ['apiVersion', 'kind', 'metadata', 'spec']);

const ajv = new Ajv({ allErrors: true });
const validators = { Cluster: ajv.compile(object('Cluster', clusterSpec)), ScheduledBackup: ajv.compile(object('ScheduledBackup', scheduledBackupSpec)) };

/** The schema's complaints about a CloudNativePG object (empty: valid); an unknown kind is a complaint too. */
export function cnpgSchemaErrors(document: { kind?: unknown }): string[] {
  const validate = validators[document.kind as keyof typeof validators];
  if (!validate) return [`no CloudNativePG schema for kind ${String(document.kind)}`];
  return validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
}
