export { addRestPublication, restPublicationPackageName } from './add-rest-publication';
export { restPublicationErrorCodes } from './rest-publication-pipeline';
export {
  restProfileOptionsSchema,
  restProfileRouteOptionsSchema,
  restGovernanceOptionsSchema,
  restSuppressionOptionsSchema,
  restOverrideOptionsSchema,
  restRuleMatchOptionsSchema,
} from './rest-publication-options';
