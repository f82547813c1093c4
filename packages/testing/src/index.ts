// Probe conformance suite and shared test helpers
export { describeProbeConformance } from './probe-conformance';
export type { ProbeConformanceOptions, HealthyUpstream } from './probe-conformance';
export {
  blackHoleServer,
  freePort,
  isPortOpen,
  loopbackLookup,
  portIsFree,
  refusedPort,
} from './network-helpers';
export type { BlackHoleServer } from './network-helpers';
export { captureLogger } from './capture-logger';
export type { CaptureLogger } from './capture-logger';
export { startHttpFakeServer, basicCredentialsOf } from './http-fake-server';
export {
  expectEachRejected,
  expectTransportErrorAfterClose,
  itOnlyWhen,
  senderTestHarness,
  startScriptedProvider,
} from './provider-test-harness';
export type {
  DispatchingHost,
  ProviderScriptStep,
  ScriptedProviderOptions,
  StartedSenderTest,
} from './provider-test-harness';
export type {
  FakeHttpServer,
  FakeHttpHandler,
  FakeHttpResponse,
  RecordedHttpRequest,
} from './http-fake-server';
export { countActiveResources, resourcesAbove, waitForResourcesAtMost } from './active-resources';
export { requireService } from './require-service';
export { createTestEngineBuilder, emptyContentDirectory } from './test-engine-builder';
export type { TestEngineBuilderOptions } from './test-engine-builder';
export { probeRunner } from './probe-runner';
export type { ProbeRun, ProbeRunner } from './probe-runner';
export { realService, databaseLoginFromUrl } from './real-service';
export type { RealService, DatabaseLogin } from './real-service';
export { expectRecoveryAcrossRestart, transitionEventIds } from './probe-restart';
export type { RecoveryAcrossRestart, RestartableServer } from './probe-restart';
export { pollUntil } from './poll-until';
export { describeCdcProviderConformance } from './cdc-provider-conformance';
export type {
  CdcConformanceCheck,
  CdcConformanceHost,
  CdcConformanceSource,
  CdcConformanceState,
  CdcProviderConformanceAdapter,
} from './cdc-provider-conformance';
export { expectBrokerDispatchReadiness } from './broker-dispatch-readiness';

// Fake servers: one line per fake, in alphabetical order (other helpers add theirs here)
export * from './fakes/cassandra';
export * from './fakes/consul';
export * from './fakes/elasticsearch';
export * from './fakes/kafka';
export * from './fakes/mongodb';
export * from './fakes/mssql';
export * from './fakes/neo4j';
export * from './fakes/opensearch';
export * from './servers/memcached-server';
export * from './servers/mosquitto';
export * from './servers/mqtt-fake-broker';
export * from './servers/nats-server';
export * from './servers/redis-server';
export * from './servers/server-process';
export * from './servers/tcp-proxy';
export * from './servers/tls-test-server';
export * from './servers/test-certificate-authority';
export * from './partial-body-request';
export * from './servers/rabbitmqctl';
export * from './servers/trusted-certificate-jest';
export * from './servers/trusted-tls-checks';
export * from './fakes/oracle';
export * from './servers/find-executable';
export * from './servers/postgres-server';
export * from './servers/mariadb-server';
export * from './servers/mysql-caching-sha2-fake';
export { startFixture, startTsxProcess } from './child-process';
export type { FixtureProcess, TsxProcessOptions } from './child-process';
export {
  startReplicas,
  storeEnvironmentOf,
  answersOnReplicas,
  sameOnReplicas,
  dropStoreNamespace,
} from './replica-harness';
export { postgresReplicaTarget, redisReplicaTarget, sharedReplicaTargets } from './replica-stores';
export type {
  ClosableReplicaProvider,
  PostgresStoreKit,
  RedisStoreKit,
  ReplicaStores,
  ReplicaStoreTarget,
  ReplicaTargetOptions,
  SharedReplicaTargets,
} from './replica-stores';
export type {
  Replica,
  ReplicaAnswer,
  ReplicaComparison,
  ReplicaHarnessOptions,
  ReplicaSet,
  ReplicaStoreProvider,
  StoreNamespace,
} from './replica-harness';
export { probeRegistration } from './probe-registration';
export {
  itRefusesEachEntry,
  itRefusesEachOptions,
  itRefusesPlaceholderPassword,
} from './configuration-refusals';
export type { ConfigurationFailure, EntryRefusal, OptionsRefusal } from './configuration-refusals';
export { notesTestModule, transportTestHosts } from './transport-test-host';
export type {
  ExtraNotesBehaviors,
  ListeningTestHost,
  StartedTransportTestHost,
  TestHostFactory,
  TestHostOptions,
  TestNote,
  TransportTestHosts,
} from './transport-test-host';
export { transportLifecycleAdapter } from './transport-lifecycle-adapter';
export type {
  LifecycleTestHost,
  LifecycleTestHostFactory,
  TransportUnderTest,
} from './transport-lifecycle-adapter';
export { describeStoreContract, storeTestClock } from './store-contract-suite';
export type { StoreProviderFactory, StoreTestClock } from './store-contract-suite';
export { describeSharedStoreProvider } from './shared-store-provider-suite';
export type { ClosableStoreProvider, SharedStoreProviderSuite } from './shared-store-provider-suite';
export { runStoreIncrementReplica } from './store-increment-replica';
export { describePackLifecycleConformance, runPackLifecycleFixture } from './pack-lifecycle-conformance';
export type {
  PackLifecycleAdapter,
  PackLifecycleHost,
  PackLifecycleCheck,
  PackLifecycleEnvironment,
  WorkJournalEntry,
} from './pack-lifecycle-conformance';
export {
  describeSenderCallbackPair,
  pairEncodedTenantId,
  startRecordingProvider,
} from './sender-callback-pair';
export type {
  PairAnswer,
  PairStatus,
  ProviderExchange,
  ProviderWebhook,
  RecordingProvider,
  SenderCallbackPair,
  SenderCallbackPairRun,
} from './sender-callback-pair';
export * from './fakes/mail-providers';
export { startOtlpReceiver } from './fakes/otlp/otlp-receiver';
export type { OtlpReceiver, OtlpSignal, ReceivedExport } from './fakes/otlp/otlp-receiver';
export type {
  ReceivedAttributes,
  ReceivedDataPoint,
  ReceivedLogRecord,
  ReceivedMetric,
  ReceivedSpan,
} from './fakes/otlp/otlp-records';
export {
  composeObservabilityHost,
  describeObservabilityPackConformance,
  startOtlpPlatformReceiver,
} from './observability-pack-conformance';
export type {
  ObservabilityPackConformance,
  PlatformReceivedData,
  PlatformReceiver,
} from './observability-pack-conformance';
export * from './servers/azure-monitor-ingestion';
export * from './servers/gce-metadata-server';
export { webSocketUpgradeAnswer } from './websocket-upgrade';
export type { UpgradeAnswer } from './websocket-upgrade';
export { captureTelemetry } from './capture-telemetry';
export { SpanKind } from '@opentelemetry/api';
export type { CapturedInstrument, CapturedPoint, TelemetryCapture } from './capture-telemetry';
export {
  expectDatabaseClientTelemetry,
  expectDeliveredTraceparent,
  expectMessagingTelemetry,
} from './semantic-convention-expectations';
export type {
  ExpectedDatabaseTelemetry,
  ExpectedMessagingTelemetry,
} from './semantic-convention-expectations';
