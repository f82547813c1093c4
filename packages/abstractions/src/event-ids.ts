/**
 * The diagnostic event-id catalog of spec section 6, as data. Every structured log record carries one of
 * these ids; `/engine/diagnostics` publishes the whole catalog.
 */
export interface EventIdRange {
  readonly component: string;
  readonly ranges: ReadonlyArray<readonly [number, number]>;
  /** A short name per id, where the owning package registered them. */
  readonly names?: Readonly<Record<number, string>>;
}

export const eventIdRanges: readonly EventIdRange[] = [
  { component: 'Engine core', ranges: [[2000, 2005]] },
  { component: 'Multi-tenancy core', ranges: [[4500, 4502]] },
  {
    component: 'Tenant governance',
    ranges: [
      [4510, 4549],
      [4552, 4557],
    ],
  },
  { component: 'Tenant governance, generic HTTP delivery', ranges: [[4550, 4551]] },
  { component: 'Tenant governance, SMTP delivery', ranges: [[4558, 4559]] },
  {
    component: 'Tenant governance, JSON mail-send email provider delivery and its web callbacks',
    ranges: [
      [4560, 4561],
      [4562, 4565],
    ],
  },
  {
    component: 'Tenant governance, multipart-messages email provider delivery and its web callbacks',
    ranges: [
      [4566, 4567],
      [4568, 4571],
    ],
  },
  { component: 'Tenant governance, directory-suite mail delivery', ranges: [[4572, 4573]] },
  {
    component: 'Tenant governance, cloud email service delivery and its web callbacks',
    ranges: [
      [4576, 4577],
      [4578, 4584],
    ],
  },
  { component: 'Observability core', ranges: [[3000, 3006]] },
  {
    component: 'Observability packs for hosted platforms',
    ranges: [
      [3111, 3111],
      [3112, 3112],
      [3113, 3113],
      [3114, 3114],
      [3115, 3115],
      [3116, 3116],
      [3117, 3117],
      [3119, 3119],
      [3154, 3154],
    ],
  },
  { component: 'Probe: generic HTTP', ranges: [[3100, 3101]] },
  { component: 'Probe: key-value store', ranges: [[3120, 3121]] },
  { component: 'Probe: relational type A', ranges: [[3122, 3123]] },
  { component: 'Probe: AMQP broker', ranges: [[3124, 3125]] },
  { component: 'Probe: relational type B', ranges: [[3126, 3127]] },
  { component: 'Probe: relational type C', ranges: [[3128, 3129]] },
  { component: 'Probe: document database', ranges: [[3130, 3131]] },
  { component: 'Probe: distributed log broker', ranges: [[3132, 3133]] },
  { component: 'Probe: lightweight messaging server', ranges: [[3134, 3135]] },
  { component: 'Probe: MQTT broker', ranges: [[3136, 3137]] },
  { component: 'Probe: search cluster A', ranges: [[3138, 3139]] },
  { component: 'Probe: memory cache', ranges: [[3140, 3141]] },
  { component: 'Probe: service-discovery store', ranges: [[3142, 3143]] },
  { component: 'Probe: relational type D', ranges: [[3144, 3145]] },
  { component: 'Probe: wide-column database', ranges: [[3146, 3147]] },
  { component: 'Probe: graph database', ranges: [[3148, 3149]] },
  { component: 'Probe: search cluster B', ranges: [[3150, 3151]] },
  { component: 'Probe: columnar analytics database', ranges: [[3152, 3153]] },
];

/** Named ids of the engine core (2000-2005) and the observability core (3000-3006). */
export const engineEventIds = {
  runtimeStarting: 2000,
  runtimeStarted: 2001,
  runtimeStartFailed: 2002,
  runtimeStopping: 2003,
  runtimeStopped: 2004,
  runtimeRestartRequested: 2005,
} as const;

export const observabilityEventIds = {
  dependencyHealthChanged: 3000,
  dependencyCheckTimedOut: 3001,
  dependencyCheckFailed: 3002,
  dependencyCheckSkippedWhilePending: 3003,
  dependencyResultStale: 3004,
  healthStatusChanged: 3005,
  runtimeStoryTruncated: 3006,
} as const;

/**
 * Probe event ids by configuration section key: `healthy` is logged when a dependency becomes Healthy,
 * `unhealthy` when it becomes Degraded or Unhealthy.
 */
export const probeEventIds: Readonly<
  Record<string, { readonly healthy: number; readonly unhealthy: number }>
> = {
  Http: { healthy: 3100, unhealthy: 3101 },
  Redis: { healthy: 3120, unhealthy: 3121 },
  PostgreSql: { healthy: 3122, unhealthy: 3123 },
  RabbitMq: { healthy: 3124, unhealthy: 3125 },
  SqlServer: { healthy: 3126, unhealthy: 3127 },
  MySql: { healthy: 3128, unhealthy: 3129 },
  MongoDb: { healthy: 3130, unhealthy: 3131 },
  Kafka: { healthy: 3132, unhealthy: 3133 },
  Nats: { healthy: 3134, unhealthy: 3135 },
  Mqtt: { healthy: 3136, unhealthy: 3137 },
  Elasticsearch: { healthy: 3138, unhealthy: 3139 },
  Memcached: { healthy: 3140, unhealthy: 3141 },
  Consul: { healthy: 3142, unhealthy: 3143 },
  Oracle: { healthy: 3144, unhealthy: 3145 },
  Cassandra: { healthy: 3146, unhealthy: 3147 },
  Neo4j: { healthy: 3148, unhealthy: 3149 },
  OpenSearch: { healthy: 3150, unhealthy: 3151 },
  ClickHouse: { healthy: 3152, unhealthy: 3153 },
};
