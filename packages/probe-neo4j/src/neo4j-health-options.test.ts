import { itRefusesEachOptions } from '@corekit/testing/configuration-refusals';
import { probeRegistration } from '@corekit/testing/probe-registration';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addNeo4jHealth } from './add-neo4j-health';
import { neo4jHealthOptionsSchema, type Neo4jHealthOptions } from './neo4j-health-options';

const path = 'Engine:Observability:DependencyHealth:Neo4j';

function register(options: Neo4jHealthOptions, environment: Record<string, string> = {}) {
  const { builder } = createTestEngineBuilder({ environment });
  addNeo4jHealth(builder, options);
  return builder.build().dependencies();
}

const { optionsError } = probeRegistration<Neo4jHealthOptions>(addNeo4jHealth, 'graph');
const registrationError = (dependencies: Neo4jHealthOptions['Dependencies']) =>
  optionsError({ Dependencies: dependencies });

describe('Neo4j configuration', () => {
  it('defaults Port 7687, Scheme neo4j, HealthQuery RETURN 1, Required true and TimeoutSeconds 5', () => {
    const section = neo4jHealthOptionsSchema.parse({
      Dependencies: [{ Id: 'graph', Host: 'graph.internal' }],
    });
    expect(section.RefreshIntervalSeconds).toBe(30);
    expect(section.Dependencies[0]).toMatchObject({
      Port: 7687,
      Scheme: 'neo4j',
      HealthQuery: 'RETURN 1',
      Required: true,
      TimeoutSeconds: 5,
    });
  });

  it('binds an entry from environment variables, the section key matched case-insensitively', () => {
    const dependencies = register(
      {},
      {
        Engine__Observability__DependencyHealth__Neo4j__Dependencies__0__Id: 'graph',
        Engine__Observability__DependencyHealth__Neo4j__Dependencies__0__Host: 'graph.internal',
        engine__observability__dependencyhealth__neo4j__dependencies__0__scheme: 'bolt+s',
        Engine__Observability__DependencyHealth__Neo4j__Dependencies__0__TimeoutSeconds: '3',
      },
    );
    expect(dependencies).toEqual([
      expect.objectContaining({ id: 'graph', kind: 'Neo4j', timeoutSeconds: 3 }),
    ]);
  });

  itRefusesEachOptions(
    registrationError,
    [
      ['neither Uri nor Host', [{ Id: 'graph' }], `${path}:Dependencies:0:Uri is required (or Host)`],
      [
        'both Uri and Host',
        [{ Id: 'graph', Uri: 'neo4j://a:7687', Host: 'b' }],
        `${path}:Dependencies:0:Host must not be set together with Uri`,
      ],
      [
        'an unknown scheme in Uri',
        [{ Id: 'graph', Uri: 'http://graph:7474' }],
        `${path}:Dependencies:0:Uri must use one of the schemes neo4j, neo4j+s, neo4j+ssc, bolt, bolt+s, bolt+ssc, got "http"`,
      ],
      [
        'credentials inside Uri',
        [{ Id: 'graph', Uri: 'neo4j://neo4j:pw@graph:7687' }],
        `${path}:Dependencies:0:Uri must not carry credentials`,
      ],
      [
        'an unknown Scheme',
        [{ Id: 'graph', Host: 'graph', Scheme: 'bolt+tls' as never }],
        `${path}:Dependencies:0:Scheme must be one of neo4j, neo4j+s`,
      ],
      [
        'a port out of range',
        [{ Id: 'graph', Host: 'graph', Port: 70000 }],
        `${path}:Dependencies:0:Port must be a port number (1-65535)`,
      ],
      [
        'Username without Password',
        [{ Id: 'graph', Host: 'graph', Username: 'neo4j' }],
        `${path}:Dependencies:0:Password is required when Username is set`,
      ],
      [
        'a negative timeout',
        [{ Id: 'graph', Host: 'graph', TimeoutSeconds: -1 }],
        `${path}:Dependencies:0:TimeoutSeconds must be a positive integer`,
      ],
      [
        'an empty HealthQuery',
        [{ Id: 'graph', Host: 'graph', HealthQuery: '' }],
        `${path}:Dependencies:0:HealthQuery must be a non-empty string`,
      ],
      [
        'a placeholder password',
        [{ Id: 'graph', Host: 'graph', Username: 'neo4j', Password: '<NEO4J_PASSWORD>' }],
        `${path}:Dependencies:0:Password still holds the placeholder`,
      ],
      [
        'a duplicate Id',
        [
          { Id: 'graph', Host: 'a' },
          { Id: 'graph', Host: 'b' },
        ],
        `${path}:Dependencies:1:Id duplicates the Id "graph"`,
      ],
    ],
    ['pw@'],
  );
});
