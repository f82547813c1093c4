export { replicaPresenceKey } from './register-replica-presence';
export { ReplicaPresence } from './replica-presence';
export type { EngineVitals } from './replica-presence';
export { presenceOptionsSchema } from './presence-options';
export type { PresenceOptions } from './presence-options';
export { instanceStoreName } from './instance-record';
export type { PresenceTransition } from './presence-transitions';
