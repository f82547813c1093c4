import type { CdcCaptureDescriptor } from '@corekit/abstractions';
import { CdcProviderError } from '@corekit/data';

const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A slot or publication name derived from a capture id: lower case, non-identifier characters as `_`. */
function derivedName(captureId: string): string {
  return `corekit_${captureId.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 63);
}

/**
 * What a capture decodes: `metadata.sourceTable` (else its first resource id), `metadata.publication` and
 * `metadata.slot` (default `corekit_<capture id>`, created when absent).
 */
export function logicalSourceOf(capture: CdcCaptureDescriptor): {
  table: string;
  publication: string;
  slot: string;
} {
  const table = String(capture.metadata.sourceTable ?? capture.resourceIds[0] ?? capture.sourceId);
  const publication = String(capture.metadata.publication ?? derivedName(capture.id));
  const slot = String(capture.metadata.slot ?? derivedName(capture.id));
  for (const name of [publication, slot]) {
    if (!identifierPattern.test(name) || name.length > 63) {
      throw new CdcProviderError('source', 'CDC_SOURCE_NAME_INVALID', `"${name}" is not a plain name`);
    }
  }
  return { table, publication, slot };
}
