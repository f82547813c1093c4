/** How packs write to the runtime story, publish runtime events and create counters. */

/** A story entry as a pack writes it; the engine adds sequence and time. */
export interface StoryEntryInput {
  /** Open set: `runtime`, `module`, `job`, or a pack's own (`eventing.dispatch`). */
  readonly kind: string;
  /** Id of what changed; null for the runtime itself. */
  readonly subjectId: string | null;
  /** What happened: `started`, `failed`, `reindexed`... */
  readonly transition: string;
  /** One line, safe to show: never a secret, never a personal identifier. */
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface RuntimeStoryWriter {
  record(entry: StoryEntryInput): void;
}

/** A runtime event a pack publishes; hosts push it to SSE and WebSocket clients as is. */
export interface PackRuntimeEventInput {
  /** `<pack>.<what>` (`eventing.publication-accepted`). */
  readonly type: string;
  readonly subjectId?: string | null;
  readonly data?: Readonly<Record<string, unknown>>;
}

export interface RuntimeEventPublisher {
  publish(event: PackRuntimeEventInput): void;
}

/** Attribute values safe for metrics: low-cardinality, never identifiers of people or secrets. */
export type MetricAttributes = Readonly<Record<string, string | number | boolean>>;

export interface PackCounter {
  add(value?: number, attributes?: MetricAttributes): void;
}

export interface PackHistogram {
  record(value: number, attributes?: MetricAttributes): void;
}

/**
 * How a histogram should be aggregated, as the OpenTelemetry semantic conventions advise it: the unit (`s`
 * for durations) and explicit bucket boundaries in that unit. An SDK view configured by the host wins.
 */
export interface HistogramAdvice {
  readonly unit?: string;
  /** Upper bounds of the buckets, ascending (`[0.005, 0.01, 0.025, ...]` seconds). */
  readonly buckets?: readonly number[];
}

/**
 * The engine's meter, for packs: instruments are created on the engine's OpenTelemetry meter
 * (`corekit.engine`) and listed by name in `/engine/diagnostics`. Names are dotted lower case; a name the
 * semantic conventions define (`db.client.operation.duration`) is used with exactly its unit and attributes.
 */
export interface PackMeter {
  counter(name: string, description: string, unit?: string): PackCounter;
  /** `advice` is the unit alone (`'ms'`) or the unit with bucket boundaries. */
  histogram(name: string, description: string, advice?: string | HistogramAdvice): PackHistogram;
}

/** A warning found while registering (an `add*Health` call that found nothing to check...). */
export interface RegistrationWarning {
  readonly code: string;
  readonly message: string;
  /** The configuration key path concerned, when there is one. */
  readonly keyPath?: string;
  /** Event id logged with it. */
  readonly eventId: number;
}

/** A named event-id range a package owns, with a name per id (`/engine/diagnostics` lists it). */
export interface EventIdCatalogEntry {
  readonly component: string;
  readonly ranges: ReadonlyArray<readonly [number, number]>;
  /** A short name per id (`4500: 'tenant-resolved'`). */
  readonly names?: Readonly<Record<number, string>>;
}
