export {
  dependencyEntryCommonShape,
  probeSectionBaseShape,
  positiveIntegerField,
  nonNegativeIntegerField,
  portField,
  booleanField,
  stringListField,
  integerListField,
  textField,
} from './probe-section-schema';
export { defineProbe, probeSectionPath, probeSectionSchema } from './define-probe';
export type {
  ProbeContext,
  ProbeDefinition,
  ProbeOptions,
  ProbeEntry,
  ProbeDependencyOptions,
} from './define-probe';
export { healthy, degraded, unhealthy } from './probe-results';
export { abortable, abortError } from './abortable';
export { connectTcp, formatHostPort } from './connect-tcp';
export type { ConnectTcpOptions, ProbeTlsOptions } from './connect-tcp';
export { createLineReader, createByteReader, readBytes } from './socket-reader';
export type { LineReader, ByteReader } from './socket-reader';
export { httpRequest } from './http-request';
export type { HttpRequestOptions, HttpResponse } from './http-request';
export { parseEndpoint, resolveHttpEndpoint } from './parse-endpoint';
export type { ParsedEndpoint } from './parse-endpoint';
export {
  authorizationHeaders,
  basicAuthorization,
  bearerAuthorization,
  apiKeyAuthorization,
} from './authorization-headers';
export type { HttpCredentials } from './authorization-headers';
export { describeError, isTlsErrorCode } from './describe-error';
export { tlsHandshakeFailure } from './tls-handshake-failure';
export { redactText, redactValue, secretsInConnectionString, stripUrlCredentials } from './secret-redaction';
export { httpFailure, bodySnippet, parseJsonBody } from './http-status-result';
export {
  parseConnectionString,
  connectionStringSetting,
  normalizeConnectionStringKey,
  validateConnectionString,
} from './connection-string';
export type { ParsedConnectionString, ConnectionStringRules } from './connection-string';
export { clusterHealthResult } from './search-cluster-health';
export type { ClusterHealthBody } from './search-cluster-health';
export { resolveSearchClusterEndpoint, searchErrorReason } from './search-cluster-endpoint';
export type { SearchClusterEndpoint } from './search-cluster-endpoint';
export { withTrackedSockets } from './driver-socket-tracker';
export type { TrackedSockets } from './driver-socket-tracker';
export { readCertificateFile } from './certificate-file';
export {
  databaseConnectionStringPassword,
  resolveDatabaseConnection,
  sslModeFromSpelling,
  validateDatabaseConnection,
} from './database-connection';
export type {
  ConnectionStringReader,
  DatabaseConnectionDialect,
  DatabaseConnectionSettings,
  DatabaseEntryFields,
} from './database-connection';
export {
  authenticationFailed,
  databaseNotFound,
  databaseTarget,
  healthQuerySucceeded,
  tlsRequired,
  verifyingTlsOptions,
} from './database-probe';
export type { HealthQueryOutcome } from './database-probe';
export { databaseEntryShape, healthQueryField } from './database-entry-shape';
export type { DatabaseEntryShapeSpec } from './database-entry-shape';
export { validateResolvedTarget } from './validate-resolved-target';
