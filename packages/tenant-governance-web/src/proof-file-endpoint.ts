import { defineOperation, OperationError, operationResponse } from '@corekit/abstractions';
import { domainVerificationKey } from '@corekit/tenant-governance';
import { z } from 'zod';
import type { EndpointPlan } from './endpoint-plan';

/**
 * `GET <HttpFilePathPrefix>:challengeId` (default `/.well-known/core-domain-verification/:challengeId`):
 * the published HTTP proof file of a live (issued, unexpired) http-file challenge, as `text/plain`, served
 * anonymously because the verifier fetches it like any outside client. Anything else (unknown, verified,
 * refused or expired challenge, a DNS TXT challenge) answers 404 HTTP_PROOF_NOT_FOUND, the same answer
 * for every case so the path cannot be used to learn which challenges exist.
 */
export function proofFileOperation(plan: EndpointPlan, prefix: string) {
  return defineOperation({
    id: plan.operationId,
    method: 'GET',
    path: `${prefix}:challengeId`,
    summary: 'Serve a published HTTP domain-ownership proof file',
    tags: ['Tenant governance'],
    params: z.object({ challengeId: z.string().min(1).max(200) }),
    result: z.string(),
    errors: { 'not-found': 'HTTP_PROOF_NOT_FOUND: no live http-file challenge at this path' },
    authorization: { mode: 'anonymous' },
    excludeFromDescription: plan.excludedFromDescription,
    async handler({ params }, context) {
      const domains = context.engine.resolve(domainVerificationKey);
      const file = domains ? await domains.httpProofFile(`${prefix}${params.challengeId}`) : undefined;
      if (!file) {
        throw new OperationError(
          'not-found',
          'HTTP_PROOF_NOT_FOUND',
          'No proof file is published at this path',
        );
      }
      return operationResponse(200, file.body, { contentType: 'text/plain' });
    },
  });
}
