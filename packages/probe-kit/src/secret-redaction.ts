/**
 * The redaction helpers probes use, re-exported from @corekit/abstractions so that probes and the engine's
 * logger share one algorithm (longest secret first, URL credentials stripped, Errors reduced to name and
 * message).
 */
export {
  redactText,
  redactValue,
  secretsInConnectionString,
  stripUrlCredentials,
} from '@corekit/abstractions';
