// API Extractor reports (`<folder>.api.md`) of the published packages, from the declarations of
// declarations.ts, with one TypeScript program shared by every package (CompilerState), so the cost is one
// analysis of the declarations rather than one per package.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CompilerState,
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type IConfigFile,
} from '@microsoft/api-extractor';
import type { DeclarationTree } from './declarations';

const silent = { default: { logLevel: ExtractorLogLevel.None, addToApiReportFile: false } };

function extractorConfig(
  root: string,
  tree: DeclarationTree,
  folder: string,
  reports: string,
): ExtractorConfig {
  const configObject: IConfigFile = {
    projectFolder: tree.packageDirectory(folder),
    mainEntryPointFilePath: tree.entry(folder),
    compiler: {
      overrideTsconfig: {
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: true,
          skipLibCheck: true,
          baseUrl: tree.directory,
          paths: { '@corekit/*': ['./packages/*/src/index.d.ts'] },
          types: ['node'],
          typeRoots: [path.join(root, 'node_modules/@types')],
        },
        files: [tree.entry(folder)],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: folder,
      reportFolder: reports,
      reportTempFolder: path.join(reports, 'temp'),
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    newlineKind: 'lf',
    messages: {
      compilerMessageReporting: silent,
      extractorMessageReporting: silent,
      tsdocMessageReporting: silent,
    },
  };
  return ExtractorConfig.prepare({
    configObject,
    configObjectFullPath: undefined,
    packageJsonFullPath: path.join(tree.packageDirectory(folder), 'package.json'),
  });
}

/** Generates the report of each package folder; answers folder → report text. */
export function generateReports(
  root: string,
  tree: DeclarationTree,
  folders: readonly string[],
): Map<string, string> {
  const reports = path.join(tree.directory, 'reports');
  mkdirSync(path.join(reports, 'temp'), { recursive: true });
  const configs = folders.map((folder) => extractorConfig(root, tree, folder, reports));
  if (configs.length === 0) return new Map();
  const compilerState = CompilerState.create(configs[0]!, {
    additionalEntryPoints: folders.map((folder) => tree.entry(folder)),
  });
  const texts = new Map<string, string>();
  folders.forEach((folder, index) => {
    const result = Extractor.invoke(configs[index]!, {
      localBuild: true,
      compilerState,
      messageCallback: (message) => {
        message.handled = true;
      },
    });
    if (!result.succeeded && result.errorCount > 0)
      throw new Error(`API Extractor failed on packages/${folder} (${result.errorCount} errors)`);
    texts.set(folder, readFileSync(path.join(reports, `${folder}.api.md`), 'utf8'));
  });
  return texts;
}
