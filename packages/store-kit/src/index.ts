export { StoreChangeListeners, unconnectedFeedState, connectedFeedState } from './store-change-listeners';
export type { StoreChangeFeedSide } from './store-change-listeners';
