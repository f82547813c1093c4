export { startConsulFakeServer } from './consul-fake-server';
export type { ConsulFakeOptions, ConsulFakeServer } from './consul-fake-server';
