import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineBuilder } from '@corekit/abstractions';
import {
  addRetrieval,
  type AddRetrievalOptions,
  type KnowledgeDocument,
  type RetrievalRegistration,
} from '@corekit/retrieval';

/** This example package's directory (examples/web-host), found from this file. */
const packageDirectory = path.resolve(
  typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url)),
  '../..',
);

/** The repository's docs/ folder, relative to the example package. */
export const demoDocsDirectory = path.resolve(packageDirectory, '../../docs');

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80) || 'section';

/**
 * One document per `##` section of every Markdown file under `directory` (the part before the first `##` is
 * the file's introduction): id `<file>#<section>`, title `<file title> — <section heading>`, the section text as
 * body, the file's modification time as `updatedAt`, so an edited file is reindexed on the next run.
 */
export async function* markdownSections(directory: string): AsyncGenerator<KnowledgeDocument> {
  const entries = await readdir(directory, { recursive: true });
  for (const entry of entries.filter((name) => name.endsWith('.md')).sort()) {
    const file = path.join(directory, entry);
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    const relative = entry.split(path.sep).join('/');
    const fileTitle = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? relative;
    const parts = text.split(/^(?=##\s)/m);
    const seen = new Set<string>();
    for (const part of parts) {
      const heading = /^##\s+(.+)$/m.exec(part)?.[1]?.trim();
      let id = `${relative}#${heading ? slug(heading) : 'introduction'}`;
      while (seen.has(id)) id += '-';
      seen.add(id);
      yield {
        id,
        text: { title: heading ? `${fileTitle} — ${heading}` : fileTitle, body: part },
        metadata: { path: `docs/${relative}`, heading: heading ?? null },
        updatedAt: info.mtime,
      };
    }
  }
}

/**
 * Registers the retrieval pack with a `docs-library` module and one collection, `docs`: the repository's docs/
 * folder, section by section, on the in-process index. Background reindexing runs once at startup and every
 * five minutes, so the collection can be queried as soon as the host is up:
 *
 *   curl -X POST http://localhost:5000/engine/knowledge-indexes/docs/queries \
 *     -H 'content-type: application/json' -H "authorization: Bearer $SAMPLE_OPERATOR_TOKEN" \
 *     -d '{"queryText":"background reindexing","maxResults":3}'
 */
export function addRetrievalDemo(
  builder: EngineBuilder,
  options: AddRetrievalOptions & { readonly docsDirectory?: string } = {},
): RetrievalRegistration {
  const { docsDirectory = demoDocsDirectory, ...retrievalOptions } = options;
  builder.addModule({
    id: 'docs-library',
    version: '1.0.0',
    displayName: 'Docs library (retrieval demo)',
    capabilities: ['docs.search'],
  });
  const retrieval = addRetrieval(builder, {
    EnableBackgroundReindexing: true,
    BackgroundReindexRunOnStartup: true,
    BackgroundReindexIntervalMilliseconds: 300_000,
    ...retrievalOptions,
  });
  retrieval.addCollection('docs-library', {
    id: 'docs',
    displayName: 'Repository docs',
    description: 'The Markdown files of the repository docs/ folder, one document per section',
    fields: ['title', 'body'],
    boosts: { title: 3 },
    tags: ['demo'],
    source: () => markdownSections(docsDirectory),
  });
  return retrieval;
}
