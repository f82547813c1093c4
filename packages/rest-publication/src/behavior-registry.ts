import {
  BehaviorError,
  CoreError,
  behaviorErrorCodes,
  restAuthoringStyles,
  multiplePublishedCandidatesAnswers,
  type BehaviorDefinition,
  type BehaviorInvocation,
  type BehaviorRuntime,
  type ConfigurationReader,
  type Logger,
  type ModuleDefinition,
  type RegisteredBehavior,
  type RuntimeState,
} from '@corekit/abstractions';
import type { ZodError } from 'zod';

const behaviorIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function isSchema(value: unknown): boolean {
  return typeof (value as { safeParse?: unknown })?.safeParse === 'function';
}

/** `{ path, message }` per zod issue: the shape problem details carry in `errors`. */
export function issuesOf(error: ZodError): Array<{ path: string; message: string }> {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/**
 * The behaviors of the code modules, checked at build (ids unique across the engine, zod schemas, a handler,
 * a valid authoring policy), and the runtime every transport calls them through.
 */
export class BehaviorRegistry implements BehaviorRuntime {
  private readonly registered: RegisteredBehavior[] = [];
  private readonly byId = new Map<string, RegisteredBehavior>();
  private state: () => RuntimeState = () => 'Created';

  constructor(
    private readonly configuration: ConfigurationReader,
    private readonly logger: Logger,
  ) {}

  /** Records the behaviors of `modules`; returns every problem as a sentence (nothing is recorded twice). */
  load(modules: readonly ModuleDefinition[]): string[] {
    const problems: string[] = [];
    for (const module of modules) {
      const behaviors: unknown = module.behaviors;
      if (behaviors === undefined) continue;
      if (!Array.isArray(behaviors)) {
        problems.push(`module "${module.id}" behaviors must be an array of defineBehavior(...) values`);
        continue;
      }
      behaviors.forEach((behavior: BehaviorDefinition, index) => {
        const where = `module "${module.id}" behaviors[${index}]`;
        if (!behavior || typeof behavior !== 'object')
          return void problems.push(`${where} must be a behavior (defineBehavior(...))`);
        if (typeof behavior.id !== 'string' || !behaviorIdPattern.test(behavior.id)) {
          return void problems.push(
            `${where} id ${JSON.stringify(behavior.id)} is not a valid behavior id (letters, digits, . _ -)`,
          );
        }
        const existing = this.byId.get(behavior.id);
        if (existing) {
          return void problems.push(
            `${where} repeats the behavior id "${behavior.id}" of module "${existing.moduleId}"; behavior ids are unique across the engine`,
          );
        }
        if (!isSchema(behavior.input))
          problems.push(`${where} ("${behavior.id}") input must be a zod schema`);
        if (!isSchema(behavior.output))
          problems.push(`${where} ("${behavior.id}") output must be a zod schema`);
        if (typeof behavior.handler !== 'function')
          problems.push(`${where} ("${behavior.id}") handler must be a function`);
        problems.push(...policyProblems(behavior, where));
        const entry = { moduleId: module.id, behavior };
        this.registered.push(entry);
        this.byId.set(behavior.id, entry);
      });
    }
    return problems;
  }

  /** Lets `invoke` refuse calls while the engine is not Started. */
  attach(state: () => RuntimeState): void {
    this.state = state;
  }

  behaviors(): readonly RegisteredBehavior[] {
    return [...this.registered];
  }

  find(behaviorId: string): RegisteredBehavior | undefined {
    return this.byId.get(behaviorId);
  }

  async invoke(behaviorId: string, input: unknown, invocation: BehaviorInvocation): Promise<unknown> {
    const entry = this.byId.get(behaviorId);
    if (!entry)
      throw new CoreError('BEHAVIOR_NOT_FOUND', `No behavior "${behaviorId}" is registered`, { behaviorId });
    const state = this.state();
    if (state !== 'Started') {
      throw new BehaviorError(
        'unavailable',
        behaviorErrorCodes.unavailable,
        `Behavior "${behaviorId}" is unavailable while the engine is ${state}; it answers once the engine has started`,
        { behaviorId, state },
      );
    }
    const { behavior, moduleId } = entry;
    const parsed = behavior.input.safeParse(input);
    if (!parsed.success) {
      throw new BehaviorError(
        'invalid-input',
        behaviorErrorCodes.inputInvalid,
        `The input of behavior "${behaviorId}" is invalid`,
        {
          behaviorId,
          errors: issuesOf(parsed.error),
        },
      );
    }
    const answer = await behavior.handler(parsed.data, {
      moduleId,
      behaviorId,
      transport: invocation.transport,
      endpointId: invocation.endpointId ?? null,
      configuration: this.configuration,
      logger: this.logger,
      signal: invocation.signal ?? new AbortController().signal,
    });
    const output = behavior.output.safeParse(answer);
    if (!output.success) {
      const fields = issuesOf(output.error).map((issue) => `${issue.path || '(answer)'}: ${issue.message}`);
      throw new CoreError(
        behaviorErrorCodes.outputInvalid,
        `Behavior "${behaviorId}" of module "${moduleId}" answered a value its output schema rejects (${fields.join('; ')}); fix the handler or the schema`,
        { behaviorId, moduleId },
      );
    }
    return output.data;
  }
}

function policyProblems(behavior: BehaviorDefinition, where: string): string[] {
  const policy = behavior.restAuthoring;
  if (policy === undefined) return [];
  const problems: string[] = [];
  const known = (style: unknown) => (restAuthoringStyles as readonly unknown[]).includes(style);
  const label = `${where} ("${behavior.id}") restAuthoring`;
  for (const field of ['allowedStyles', 'disallowedStyles'] as const) {
    for (const style of policy[field] ?? []) {
      if (!known(style))
        problems.push(
          `${label}.${field} has unknown style ${JSON.stringify(style)}; use ${restAuthoringStyles.join(', ')}`,
        );
    }
  }
  if (policy.preferredStyle !== undefined) {
    if (!known(policy.preferredStyle))
      problems.push(
        `${label}.preferredStyle ${JSON.stringify(policy.preferredStyle)} is not a style; use ${restAuthoringStyles.join(', ')}`,
      );
    else if (
      (policy.allowedStyles && !policy.allowedStyles.includes(policy.preferredStyle)) ||
      policy.disallowedStyles?.includes(policy.preferredStyle)
    ) {
      problems.push(`${label}.preferredStyle "${policy.preferredStyle}" is not an allowed style`);
    }
  }
  const answer = policy.multiplePublishedCandidates;
  if (answer !== undefined && !(multiplePublishedCandidatesAnswers as readonly string[]).includes(answer)) {
    problems.push(
      `${label}.multiplePublishedCandidates ${JSON.stringify(answer)} must be one of ${multiplePublishedCandidatesAnswers.join(', ')}`,
    );
  }
  return problems;
}
