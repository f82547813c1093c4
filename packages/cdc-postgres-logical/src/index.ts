export { addPostgresLogicalDecoding, postgresLogicalDecodingProvider } from './add-postgres-logical-decoding';
export { postgresLogicalDecodingOptionsSchema } from './logical-decoding-options';
export type {
  PostgresLogicalDecodingOptions,
  PostgresLogicalDecodingOptionsInput,
} from './logical-decoding-options';
export { logicalSourceOf, PostgresLogicalDecodingProvider } from './logical-decoding-provider';
export type { PostgresLogicalDecodingProviderOptions } from './logical-decoding-provider';
