// @corekit/callback-kit/fuzz: the fast-check fuzz harness of the provider callback packages. A subpath of its own
// so that the main entry's declarations never name fast-check: a consumer of @corekit/callback-kit needs
// fast-check (an optional peer) only when it imports this subpath.
export {
  invokeCallback,
  arbitraryCallbackRequest,
  arbitraryTampering,
  callbackFuzzProperty,
} from './fuzz-harness';
export type { FastCheckApi, FuzzAnswer, FuzzRequest } from './fuzz-harness';
