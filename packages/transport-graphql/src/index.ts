export { addGraphQlTransport, graphQlRegistrationKey } from './add-graphql-transport';
export { graphQlErrorCodes, internalErrorCode } from './graphql-errors';
export { buildGraphQlSchema, jsonScalar } from './graphql-schema';
export type { GeneratedField } from './graphql-schema';
export { limitsRule, measureOperation } from './graphql-limits';
export { boundedParse, maxDocumentNesting, scanDocument } from './graphql-document-scan';
export type { DocumentBounds, DocumentScan } from './graphql-document-scan';
export type { GraphQlLimits, OperationMeasure } from './graphql-limits';
export {
  defaultReadVerbs,
  graphQlEventIds,
  graphQlOptionsSchema,
  graphQlSectionPath,
  queryRule,
} from './graphql-options';
export type { GraphQlOptions, GraphQlOptionsInput } from './graphql-options';
