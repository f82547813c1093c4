import { readFileSync } from 'node:fs';
import path from 'node:path';

/*
 * An alerts user emails an on-call list without tenant governance: nothing notifier-email installs asks for
 * @corekit/tenant-governance (a dependency, or a peer a package manager would add), and nothing it loads imports it.
 */

const packagesDirectory = path.resolve(__dirname, '../..');
const governance = '@corekit/tenant-governance';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const manifestOf = (name: string): Manifest =>
  JSON.parse(
    readFileSync(path.join(packagesDirectory, name.replace('@corekit/', ''), 'package.json'), 'utf8'),
  ) as Manifest;

/**
 * The workspace packages an install of `name` brings: its dependencies and its required peers (pnpm and npm install
 * those), then theirs. Optional peers are not installed.
 */
function installClosure(name: string, seen = new Map<string, string>()): Map<string, string> {
  const manifest = manifestOf(name);
  const required = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}).filter(
      (peer) => !manifest.peerDependenciesMeta?.[peer]?.optional,
    ),
  ];
  for (const dependency of required.filter((entry) => entry.startsWith('@corekit/'))) {
    if (seen.has(dependency)) continue;
    seen.set(dependency, name);
    installClosure(dependency, seen);
  }
  return seen;
}

it('installs no package that depends on or asks for @corekit/tenant-governance', () => {
  const closure = installClosure('@corekit/notifier-email');
  expect([...closure.keys()].sort()).toEqual([
    '@corekit/abstractions',
    '@corekit/email-graph',
    '@corekit/email-kit',
    '@corekit/email-mailgun',
    '@corekit/email-sendgrid',
    '@corekit/email-ses',
    '@corekit/email-smtp',
    '@corekit/notifier-kit',
  ]);
  expect(closure.has(governance)).toBe(false);
});

it('the install check sees governance where it is asked for (the invitation senders)', () => {
  expect(installClosure('@corekit/sender-smtp').get(governance)).toBeDefined();
});

describe('loading with @corekit/tenant-governance absent', () => {
  const withoutGovernance = (load: () => unknown) => {
    let loaded: unknown;
    jest.isolateModules(() => {
      jest.doMock(governance, () => {
        throw new Error(`${governance} was loaded`);
      });
      loaded = load();
    });
    return loaded;
  };

  it('loads the notifier and builds every provider transport', () => {
    const notifier = withoutGovernance(() => require('./index')) as typeof import('./index');
    const common = { FromAddress: 'alerts@core.example', To: 'oncall@ops.example' };
    const targets = [
      { Provider: 'Smtp', Smtp: { Host: 'relay.example', Port: 587, UseSsl: false } },
      {
        Provider: 'SendGrid',
        SendGrid: {
          BaseUrl: 'https://api.sendgrid.com',
          ApiKey: 'SG.key',
          Categories: [],
          EnableSandboxMode: false,
          ProviderMessageIdHeaderName: 'X-Message-Id',
          AcceptedStatusCodes: [202],
        },
      },
      {
        Provider: 'Mailgun',
        Mailgun: {
          BaseUrl: 'https://api.mailgun.net',
          DomainName: 'mg.example',
          ApiKey: 'key',
          Tags: [],
          EnableTestMode: false,
          ProviderMessageIdJsonPropertyName: 'id',
          AcceptedStatusCodes: [200],
        },
      },
      { Provider: 'AmazonSes', AmazonSes: { RegionSystemName: 'eu-west-1', AcceptedStatusCodes: [200] } },
      {
        Provider: 'MicrosoftGraph',
        MicrosoftGraph: {
          BaseUrl: 'https://graph.microsoft.com',
          ApiVersion: 'v1.0',
          TenantId: 'contoso.example',
          ClientId: 'client',
          ClientSecret: 'secret',
          AuthorityHost: 'public',
          SaveToSentItems: false,
          Categories: [],
          AcceptedStatusCodes: [202],
        },
      },
    ];
    for (const target of targets) {
      const transport = notifier.emailTransportOf({ ...common, ...target } as never, 1000);
      expect(typeof transport.send).toBe('function');
    }
  });

  it('the guard bites: the invitation sender kit does need governance', () => {
    expect(() => withoutGovernance(() => require('@corekit/sender-kit'))).toThrow(`${governance} was loaded`);
  });
});
