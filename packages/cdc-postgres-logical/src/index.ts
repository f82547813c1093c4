export { addPostgresLogicalDecoding, postgresLogicalDecodingProvider } from './add-postgres-logical-decoding';
export { postgresLogicalDecodingOptionsSchema } from './logical-decoding-options';
export type {
  PostgresLogicalDecodingOptions,
  PostgresLogicalDecodingOptionsInput,
} from './logical-decoding-options';
export { PostgresLogicalDecodingProvider } from './logical-decoding-provider';
export { logicalSourceOf } from './logical-source';
export type { PostgresLogicalDecodingProviderOptions } from './logical-decoding-provider';
