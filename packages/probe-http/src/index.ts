export { addHttpHealth } from './add-http-health';
export { httpHealthProbe } from './http-health-probe';
export { httpHealthEntryShape, httpHealthOptionsSchema, httpHealthMethods } from './http-health-options';
export type { HttpHealthOptions } from './http-health-options';
