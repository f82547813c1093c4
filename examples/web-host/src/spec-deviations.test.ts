import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sampleRoot } from './sample-host';

const repositoryRoot = path.resolve(sampleRoot, '../..');
const deviationsPage = path.join(repositoryRoot, 'docs/spec-deviations.md');

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsIn(file: string): Set<string> {
  const headings = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => anchorOf(line.replace(/^#+ /, '')));
  return new Set(headings);
}

/** Every relative Markdown link of `file` as [target file, anchor or undefined]. */
function relativeLinks(file: string): Array<[string, string | undefined]> {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => {
      const [relative, anchor] = target.split('#');
      return [relative ? path.resolve(path.dirname(file), relative) : file, anchor];
    });
}

describe('docs/spec-deviations.md', () => {
  it('is linked from the root README and from the READMEs whose deviations it lists', () => {
    const linked = (file: string) => readFileSync(path.join(repositoryRoot, file), 'utf8');
    expect(linked('README.md')).toContain('](docs/spec-deviations.md)');
    for (const readme of ['sender-kit', 'tenant-governance-web', 'web-host']) {
      expect(linked(`packages/${readme}/README.md`)).toContain('](../../docs/spec-deviations.md');
    }
  });

  it('links only to files and headings that exist', () => {
    expect(existsSync(deviationsPage)).toBe(true);
    const links = relativeLinks(deviationsPage);
    expect(links.length).toBeGreaterThan(10);
    for (const [target, anchor] of links) {
      expect({ target, exists: existsSync(target) }).toEqual({ target, exists: true });
      if (anchor)
        expect({ target, anchor, found: anchorsIn(target).has(anchor) }).toMatchObject({ found: true });
    }
  });
});
