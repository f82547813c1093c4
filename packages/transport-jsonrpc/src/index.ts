export { addJsonRpcTransport, jsonRpcRegistrationKey } from './add-jsonrpc-transport';
export { jsonRpcErrorCodes, jsonRpcStandardCodes } from './jsonrpc-errors';
export type { JsonRpcError } from './jsonrpc-errors';
export { dispatchJsonRpc } from './jsonrpc-dispatcher';
export type { JsonRpcResponse, DispatchContext } from './jsonrpc-dispatcher';
export { jsonRpcEventIds } from './jsonrpc-event-ids';
export { jsonRpcOptionsSchema, jsonRpcSectionPath } from './jsonrpc-options';
export type { JsonRpcOptions, JsonRpcOptionsInput } from './jsonrpc-options';
