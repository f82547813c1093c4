import { OperationError } from '@corekit/abstractions';

/** The part of a zod schema the governance requests are parsed with. */
export interface RequestSchema<T> {
  safeParse(value: unknown): { success: boolean; data?: T; error?: { issues: unknown[] } };
}

/**
 * Parses a governance request (administration command, governance action) with `schema`; invalid input is
 * OperationError invalid-input 400 GOVERNANCE_REQUEST_INVALID with the issues (path, code, message). zod
 * issues name fields and rules and never echo input values, so the answer carries no identifier.
 */
export function parseGovernanceRequest<T>(schema: RequestSchema<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = (
      result.error!.issues as Array<{ path: PropertyKey[]; message: string; code: string }>
    ).map((issue) => ({
      path: issue.path.map(String).join('.'),
      code: issue.code,
      message: issue.message,
    }));
    throw new OperationError('invalid-input', 'GOVERNANCE_REQUEST_INVALID', 'The request is not valid', {
      errors: issues,
    });
  }
  return result.data as T;
}
