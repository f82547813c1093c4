import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { CoreError } from '@corekit/abstractions';

/** Name of the detached signature file at the root of a package; the only file the digest leaves out. */
export const signatureFileName = 'corekit-signature.json';

/** First line of the canonical manifest text; names the format so it can evolve. */
export const manifestHeader = 'corekit-package-manifest-v1';

/** One file of a package: its relative POSIX path and the SHA-256 of its bytes (lowercase hex). */
export interface PackageFileDigest {
  readonly path: string;
  readonly sha256: string;
}

/** The canonical digest of a package directory (see docs/package-signing.md). */
export interface PackageDigest {
  /** Every file except the signature file, sorted by the UTF-8 bytes of the path. */
  readonly files: readonly PackageFileDigest[];
  /** The exact text that is signed. */
  readonly manifest: string;
  /** SHA-256 of the manifest text (lowercase hex). */
  readonly digest: string;
}

/** Sorts by the UTF-8 bytes of the path, the same order on every platform and locale. */
export function sortFiles(files: readonly PackageFileDigest[]): PackageFileDigest[] {
  return [...files].sort((left, right) =>
    Buffer.compare(Buffer.from(left.path, 'utf8'), Buffer.from(right.path, 'utf8')),
  );
}

/**
 * The canonical manifest text: the header line, then one line per file, `<sha256 hex> <path>`, each line
 * ending in `\n`. Files must already be sorted; a path holding a line break cannot be written canonically.
 */
export function canonicalManifest(files: readonly PackageFileDigest[]): string {
  let text = `${manifestHeader}\n`;
  for (const file of files) {
    if (/[\r\n]/.test(file.path))
      throw new CoreError(
        'PACKAGE_FILE_NAME_INVALID',
        `The file name ${JSON.stringify(file.path)} holds a line break`,
      );
    if (!/^[0-9a-f]{64}$/.test(file.sha256))
      throw new CoreError(
        'PACKAGE_FILE_DIGEST_INVALID',
        `The digest of ${file.path} is not a SHA-256 hex value`,
      );
    text += `${file.sha256} ${file.path}\n`;
  }
  return text;
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Builds the digest from file hashes (sorted here), for example the list carried in a signature file. */
export function digestOf(files: readonly PackageFileDigest[]): PackageDigest {
  const sorted = sortFiles(files);
  const manifest = canonicalManifest(sorted);
  return { files: sorted, manifest, digest: sha256Hex(manifest) };
}

/**
 * Hashes every regular file under `directory` except the root signature file. Refuses symbolic links and
 * other special files (a package must be self-contained) and packages holding more than `maxFiles` files.
 * Empty directories are not part of the digest.
 */
export async function computePackageDigest(
  directory: string,
  options: { maxFiles?: number } = {},
): Promise<PackageDigest> {
  const maxFiles = options.maxFiles ?? 10_000;
  const relativePaths: string[] = [];
  await walk(directory, '', relativePaths, maxFiles);
  const files: PackageFileDigest[] = [];
  for (const relative of relativePaths) {
    files.push({ path: relative, sha256: await hashFile(path.join(directory, ...relative.split('/'))) });
  }
  return digestOf(files);
}

async function walk(root: string, relative: string, into: string[], maxFiles: number): Promise<void> {
  const entries = await readdir(relative ? path.join(root, ...relative.split('/')) : root, {
    withFileTypes: true,
  });
  for (const entry of entries) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (child === signatureFileName) continue;
    const stats = await lstat(path.join(root, ...child.split('/')));
    if (stats.isSymbolicLink()) {
      throw new CoreError(
        'PACKAGE_FILE_UNSUPPORTED',
        `${child} is a symbolic link; a module package must hold regular files only`,
        { path: child },
      );
    }
    if (stats.isDirectory()) await walk(root, child, into, maxFiles);
    else if (stats.isFile()) {
      into.push(child);
      if (into.length > maxFiles) {
        throw new CoreError(
          'PACKAGE_TOO_LARGE',
          `The package holds more than ${maxFiles} files (Engine:Discovery:MaxFilesPerPackage)`,
          { maxFiles },
        );
      }
    } else {
      throw new CoreError(
        'PACKAGE_FILE_UNSUPPORTED',
        `${child} is not a regular file; a module package must hold regular files only`,
        { path: child },
      );
    }
  }
}

function hashFile(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** What differs between the signed file list and the files on disk, as readable reasons. */
export function describeDifferences(
  signed: readonly PackageFileDigest[],
  actual: readonly PackageFileDigest[],
): string[] {
  const signedByPath = new Map(signed.map((file) => [file.path, file.sha256]));
  const actualByPath = new Map(actual.map((file) => [file.path, file.sha256]));
  const reasons: string[] = [];
  for (const [file, hash] of actualByPath) {
    if (!signedByPath.has(file)) reasons.push(`file ${file} was added after signing`);
    else if (signedByPath.get(file) !== hash) reasons.push(`file ${file} was changed after signing`);
  }
  for (const file of signedByPath.keys())
    if (!actualByPath.has(file)) reasons.push(`file ${file} was removed after signing`);
  return reasons;
}
