import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sampleRoot } from './sample-host';

const readme = (relative: string) => readFileSync(path.join(sampleRoot, relative), 'utf8');

it('the governance-web README curl walkthroughs call the port the sample host listens on', () => {
  const sample = /It listens on port (\d+)/.exec(readme('README.md'))?.[1];
  expect(sample).toBe('3000'); // the web host's default when neither the port option nor PORT is set
  const curls = readme('../../packages/tenant-governance-web/README.md')
    .split('\n')
    .filter((line) => /\bcurl\b/.test(line) && /localhost:\d+/.test(line));
  expect(curls.length).toBeGreaterThan(0);
  for (const line of curls) expect(/localhost:(\d+)/.exec(line)![1]).toBe(sample);
});
