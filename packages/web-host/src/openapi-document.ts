import {
  dependencyHealthEntrySchema,
  diagnosticsDocumentSchema,
  engineIndexDocumentSchema,
  engineLinkSchema,
  failureContextSchema,
  healthReportSchema,
  healthSummarySchema,
  manifestDocumentSchema,
  packageRecordSchema,
  problemDetailsSchema,
  runtimeEventSchema,
  runtimeStoryDocumentSchema,
  runtimeStoryEntrySchema,
  statusDocumentSchema,
  technologySurfaceSchema,
} from '@corekit/abstractions';
import { z, type ZodType } from 'zod';
import { pathSegments, toOpenApiPath, type HostRoute } from './host-route';
import { problemContentType } from './problem-details';

/** An OpenAPI 3.1 document (the parts the host writes). */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description?: string };
  readonly tags: ReadonlyArray<{ readonly name: string }>;
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components: { readonly schemas: Record<string, unknown> };
}

/** A route found on the express app that was added without a description (`host.app.get(...)`). */
export interface UndocumentedRoute {
  readonly method: string;
  readonly path: string;
}

const knownSchemas: ReadonlyArray<readonly [ZodType, string]> = [
  [problemDetailsSchema, 'ProblemDetails'],
  [healthReportSchema, 'HealthReport'],
  [healthSummarySchema, 'HealthSummary'],
  [dependencyHealthEntrySchema, 'DependencyHealthEntry'],
  [failureContextSchema, 'FailureContext'],
  [statusDocumentSchema, 'StatusDocument'],
  [diagnosticsDocumentSchema, 'DiagnosticsDocument'],
  [runtimeStoryDocumentSchema, 'RuntimeStoryDocument'],
  [runtimeStoryEntrySchema, 'RuntimeStoryEntry'],
  [manifestDocumentSchema, 'ManifestDocument'],
  [packageRecordSchema, 'PackageRecord'],
  [technologySurfaceSchema, 'TechnologySurface'],
  [engineIndexDocumentSchema, 'EngineIndexDocument'],
  [engineLinkSchema, 'EngineLink'],
  [runtimeEventSchema, 'RuntimeEvent'],
];

function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
}

/** `get /engine/cdc-captures/:cdcCaptureId` → `getEngineCdcCapturesByCdcCaptureId`. */
export function operationIdOf(method: string, path: string): string {
  const words = pathSegments(path).map((segment) =>
    'parameter' in segment ? `By${pascalCase(segment.parameter)}` : pascalCase(segment.literal),
  );
  return `${method.toLowerCase()}${words.join('') || 'Root'}`;
}

/** Collects the schemas an OpenAPI document references, names them, and converts them in one pass. */
class SchemaComponents {
  private readonly registry = z.registry<{ id: string }>();
  private readonly names = new Map<ZodType, string>();
  private readonly taken = new Set<string>();

  constructor() {
    for (const [schema, name] of knownSchemas) this.name(schema, name);
  }

  /** Registers `schema` under `preferred` (or its existing name) and returns a `$ref` to it. */
  reference(schema: ZodType, preferred: string): { $ref: string } {
    return { $ref: `#/components/schemas/${this.name(schema, preferred)}` };
  }

  private name(schema: ZodType, preferred: string): string {
    const existing = this.names.get(schema);
    if (existing) return existing;
    let name = pascalCase(preferred) || 'Schema';
    for (let suffix = 2; this.taken.has(name); suffix++) name = `${pascalCase(preferred)}${suffix}`;
    this.taken.add(name);
    this.names.set(schema, name);
    this.registry.add(schema, { id: name });
    return name;
  }

  /** Every registered schema as JSON Schema 2020-12 (the OpenAPI 3.1 dialect). */
  toJsonSchemas(): Record<string, unknown> {
    const { schemas } = z.toJSONSchema(this.registry, {
      uri: (id) => `#/components/schemas/${id}`,
      io: 'output',
      unrepresentable: 'any',
      target: 'draft-2020-12',
    });
    return Object.fromEntries(
      Object.entries(schemas).map(([name, schema]) => {
        const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
        return [name, rest];
      }),
    );
  }
}

/**
 * Which document to build: `{ majorVersion }` is a host document (every version-neutral route plus the module
 * endpoints of that API major version); with `documentName`, only the module endpoints of that document and version.
 */
export interface OpenApiSelection {
  readonly majorVersion: number;
  readonly documentName?: string;
}

/** True when `route` belongs to the selected document. */
export function isSelectedRoute(route: HostRoute, selection: OpenApiSelection): boolean {
  if (selection.documentName !== undefined) {
    return (
      route.apiMajorVersion === selection.majorVersion &&
      (route.openApiDocumentNames ?? []).includes(selection.documentName)
    );
  }
  return route.apiMajorVersion === undefined || route.apiMajorVersion === selection.majorVersion;
}

function inputJsonSchema(schema: ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Record<string, unknown>;
  return rest;
}

/** The properties of an object schema as OpenAPI query parameters. */
function queryParameters(schema: ZodType): unknown[] {
  const json = inputJsonSchema(schema) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: (json.required ?? []).includes(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

/** Builds the OpenAPI 3.1 document of every route the host serves. */
export function buildOpenApiDocument(input: {
  readonly title: string;
  readonly version: string;
  readonly routes: readonly HostRoute[];
  readonly undocumented: readonly UndocumentedRoute[];
  readonly isGuarded: (route: HostRoute) => boolean;
}): OpenApiDocument {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: string[] = [];
  const problem = {
    [problemContentType]: { schema: components.reference(problemDetailsSchema, 'ProblemDetails') },
  };

  const operationIds = new Set<string>();
  for (const route of input.routes.filter((candidate) => !candidate.excludeFromDescription)) {
    const derived = operationIdOf(route.method, route.path);
    const operationId =
      route.operationId && !operationIds.has(route.operationId) ? route.operationId : derived;
    operationIds.add(operationId);
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(route.responses)) {
      const isProblem = Number(status) >= 400 && !response.schema;
      const contentType = response.contentType ?? (response.schema ? 'application/json' : undefined);
      responses[status] = {
        description: response.description,
        ...(isProblem
          ? { content: problem }
          : contentType
            ? {
                content: {
                  [contentType]: response.schema
                    ? { schema: components.reference(response.schema, `${operationId}${status}`) }
                    : {},
                },
              }
            : {}),
      };
    }
    const guarded = input.isGuarded(route);
    if (guarded)
      responses['403'] = {
        description: 'The authorize hook denied the request (problem code FORBIDDEN)',
        content: problem,
      };
    responses.default = { description: 'Problem details (RFC 9457)', content: problem };
    const parameters: unknown[] = pathSegments(route.path)
      .filter((segment): segment is { parameter: string } => 'parameter' in segment)
      .map(({ parameter }) => ({
        name: parameter,
        in: 'path',
        required: true,
        schema: { type: 'string' },
        ...(route.parameters?.[parameter] ? { description: route.parameters[parameter] } : {}),
      }));
    if (route.documentedInput?.query) parameters.push(...queryParameters(route.documentedInput.query));
    const documentedBody = route.documentedInput?.body;
    for (const tag of route.tags ?? []) if (!tags.includes(tag)) tags.push(tag);
    const description = [
      route.description,
      guarded ? 'Requires authorization by the host (`authorize` hook).' : undefined,
    ]
      .filter(Boolean)
      .join(' ');
    (paths[toOpenApiPath(route.path)] ??= {})[route.method] = {
      operationId,
      summary: route.summary,
      ...(description ? { description } : {}),
      ...(route.tags?.length ? { tags: [...route.tags] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(route.requestBody
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: components.reference(route.requestBody, `${operationId}Request`),
                },
              },
            },
          }
        : documentedBody
          ? {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: inputJsonSchema(documentedBody) } },
              },
            }
          : {}),
      responses,
    };
  }

  for (const route of input.undocumented) {
    const path = toOpenApiPath(route.path);
    const method = route.method.toLowerCase();
    if (paths[path]?.[method]) continue;
    (paths[path] ??= {})[method] = {
      operationId: operationIdOf(method, route.path),
      summary: `${route.method.toUpperCase()} ${route.path}`,
      description: 'Added to host.app without a description; register it with host.addRoute to document it.',
      responses: { default: { description: 'Not documented' } },
    };
  }

  return {
    openapi: '3.1.0',
    info: { title: input.title, version: input.version },
    tags: tags.map((name) => ({ name })),
    paths,
    components: { schemas: components.toJsonSchemas() },
  };
}
