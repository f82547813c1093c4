// The "transport ↔ callable" seam (ARCHITECTURE.md, docs/adr/0001-one-callable.md): one call shape for a
// behavior or an operation over GraphQL, JSON-RPC and gRPC, so a suite runs the same requests over each.

/** One call's answer, whatever the transport: the result, or the error kind of the refusal or failure. */
export interface CallableAnswer {
  readonly result?: any;
  /** `forbidden`, `unauthenticated`, `invalid-input`, `not-found`..., the error-kind table's names. */
  readonly kind?: string;
}

/** Calls one callable (`tenant-governance-web.administration-command`) with its input and a bearer token. */
export type CallableCall = (
  callableId: string,
  input: Record<string, unknown>,
  token: string,
) => Promise<CallableAnswer>;

/** A unary gRPC call, as `createBehaviorClient(...).call` makes it (this package does not depend on the adapter). */
export type GrpcUnaryCall = (
  method: string,
  request: unknown,
  deadlineMs?: number,
  metadata?: Readonly<Record<string, string>>,
) => Promise<{ readonly response?: any; readonly error?: { readonly code: number } }>;

async function postJson(url: string, token: string, body: unknown): Promise<any> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json();
}

/** `method` = the callable id, `params` = its input (JSON-RPC adapter at `base` + `path`). */
export function jsonRpcCallables(base: string, path = '/rpc'): CallableCall {
  return async (callableId, input, token) => {
    const answer = await postJson(`${base}${path}`, token, {
      jsonrpc: '2.0',
      id: 1,
      method: callableId,
      params: input,
    });
    return answer.error
      ? { kind: String(answer.error.data?.kind ?? answer.error.data?.code) }
      : { result: answer.result };
  };
}

/** `orders.get` → `OrdersGet` (the adapters' naming of fields and rpcs). */
function pascal(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

interface TypeReference {
  readonly kind: string;
  readonly name: string | null;
  readonly ofType: TypeReference | null;
}

function typeText(type: TypeReference): string {
  if (type.kind === 'NON_NULL') return `${typeText(type.ofType!)}!`;
  if (type.kind === 'LIST') return `[${typeText(type.ofType!)}]`;
  return type.name!;
}

function namedKind(type: TypeReference): string {
  return type.ofType ? namedKind(type.ofType) : type.kind;
}

const fieldsQuery = `{ __schema { queryType { name } mutationType { name } types { name fields {
  name type { kind name ofType { kind name ofType { kind name } } }
  args { name type { kind name ofType { kind name ofType { kind name } } } } } } } }`;

/**
 * The GraphQL adapter at `base` + `path`: the callable's root field (Query or Mutation), its arguments typed
 * from the schema's own introspection (asked once with `token`); from an object answer the fields
 * `selections[callableId]` names (`{ outcome }`), else `__typename`.
 */
export function graphQlCallables(
  base: string,
  path = '/graphql',
  selections: Readonly<Record<string, string>> = {},
): CallableCall {
  let schema: Promise<Map<string, { root: string; field: any }>> | undefined;
  const fields = (token: string) =>
    (schema ??= postJson(`${base}${path}`, token, { query: fieldsQuery }).then((answer) => {
      const { queryType, mutationType, types } = answer.data.__schema;
      const byName = new Map<string, { root: string; field: any }>();
      for (const [root, name] of [
        ['query', queryType?.name],
        ['mutation', mutationType?.name],
      ]) {
        const type = types.find((candidate: { name: string }) => candidate.name === name);
        for (const field of type?.fields ?? []) byName.set(field.name, { root: root!, field });
      }
      return byName;
    }));
  return async (callableId, input, token) => {
    const name = pascal(callableId).replace(/^./, (first) => first.toLowerCase());
    const found = (await fields(token)).get(name);
    if (!found) return { kind: 'not-served' };
    const args = found.field.args as { name: string; type: TypeReference }[];
    const declared = args.filter((arg) => arg.name in input);
    const variables = declared.map((arg) => `$${arg.name}: ${typeText(arg.type)}`).join(', ');
    const passed = declared.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
    const selection =
      namedKind(found.field.type) === 'OBJECT' ? ` ${selections[callableId] ?? '{ __typename }'}` : '';
    const query = `${found.root}${variables ? `(${variables})` : ''} { ${name}${passed ? `(${passed})` : ''}${selection} }`;
    const answer = await postJson(`${base}${path}`, token, { query, variables: input });
    if (answer.errors) return { kind: String(answer.errors[0].extensions?.kind ?? answer.errors[0].message) };
    return { result: answer.data[name] };
  };
}

const grpcStatusKinds: Readonly<Record<number, string>> = {
  3: 'invalid-input',
  5: 'not-found',
  7: 'forbidden',
  16: 'unauthenticated',
};

/**
 * The gRPC adapter through `call` (`createBehaviorClient(proto, address).call`): the rpc is the callable id
 * in PascalCase, the token travels as `authorization` metadata. `wire` turns the input into the request
 * message (what protobuf cannot type, a union or a free JSON value, travels as JSON text); default as is.
 */
export function grpcCallables(
  call: GrpcUnaryCall,
  wire: (callableId: string, input: Record<string, unknown>) => unknown = (_id, input) => input,
): CallableCall {
  return async (callableId, input, token) => {
    const { response, error } = await call(pascal(callableId), wire(callableId, input), 10_000, {
      authorization: `Bearer ${token}`,
    });
    return error
      ? { kind: grpcStatusKinds[error.code] ?? `grpc-status-${error.code}` }
      : { result: response };
  };
}
