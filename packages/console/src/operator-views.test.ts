import { defineOperation, type EngineBuilder, type OperatorViewDefinition } from '@corekit/abstractions';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { z } from 'zod';
import { addConsole } from './add-console';
import type { OperatorViewDocument } from './operator-views';
import { closeConsoleHosts, startConsoleHost } from './test-support/console-test-host';

afterEach(closeConsoleHosts);

interface Gadget {
  readonly gadgetId: string;
  readonly behindSeconds: number;
}

/** A pack the console has never heard of, with live state the test changes. */
function addGadgetsPack(
  builder: EngineBuilder,
  gadgets: Gadget[],
  actionOperationId = 'gadgets.nudge',
  formOperationId = 'gadgets.track',
): void {
  const view: OperatorViewDefinition<Gadget> = {
    id: 'gadgets-behind',
    title: 'Gadgets behind',
    description: 'gadgets more than 10 s behind',
    listPath: '/engine/gadgets',
    idField: 'gadgetId',
    entryPath: '/engine/gadgets/{gadgetId}',
    columns: [
      { label: 'Behind (s)', value: (gadget) => gadget.behindSeconds },
      { label: 'Next nudge', value: () => '2030-01-01T00:00:00.000Z', format: 'countdown' },
    ],
    actions: [{ operationId: actionOperationId, label: 'Nudge', params: { id: 'gadgetId' } }],
    forms: [
      {
        operationId: formOperationId,
        label: 'Track a gadget',
        fields: [
          { name: 'gadget.id', label: 'Gadget id', kind: 'text', required: true },
          { name: 'until', label: 'Until (minutes)', kind: 'minutes-from-now', defaultValue: '30' },
        ],
      },
    ],
    rows: async () => gadgets.filter((gadget) => gadget.behindSeconds > 10),
  };
  builder.addOperatorView(view);
  builder.addOperation(
    defineOperation({
      id: 'gadgets.nudge',
      method: 'POST',
      path: '/engine/gadgets/:id/nudge',
      summary: 'Nudge a gadget',
      params: z.object({ id: z.string() }),
      result: z.object({ nudged: z.string() }),
      authorization: { mode: 'required', policy: 'gadgets.operate' },
      handler: ({ params }) => ({ nudged: params.id }),
    }),
  );
  builder.addOperation(
    defineOperation({
      id: 'gadgets.track',
      method: 'POST',
      path: '/engine/gadgets',
      summary: 'Track a gadget',
      body: z.object({ gadget: z.object({ id: z.string() }), until: z.string().optional() }),
      result: z.object({ tracked: z.string() }),
      authorization: { mode: 'required', policy: 'gadgets.operate' },
      handler: ({ body }) => ({ tracked: body.gadget.id }),
    }),
  );
}

describe('operator views', () => {
  it("shows a new pack's declared view with its rows, cells, row links and actions, following the pack's state", async () => {
    const gadgets: Gadget[] = [
      { gadgetId: 'g 1', behindSeconds: 30 },
      { gadgetId: 'g-2', behindSeconds: 1 },
    ];
    const test = await startConsoleHost({ setup: (builder) => addGadgetsPack(builder, gadgets) });
    const read = async () =>
      ((await (await test.get('/engine/console/operator-views')).json()) as OperatorViewDocument[]).find(
        (view) => view.id === 'gadgets-behind',
      );
    expect(await read()).toEqual({
      id: 'gadgets-behind',
      title: 'Gadgets behind',
      description: 'gadgets more than 10 s behind',
      listPath: '/engine/gadgets',
      columns: ['Behind (s)', 'Next nudge'],
      columnFormats: ['text', 'countdown'],
      forms: [
        {
          label: 'Track a gadget',
          description: null,
          operationId: 'gadgets.track',
          method: 'POST',
          path: '/engine/gadgets',
          fields: [
            {
              name: 'gadget.id',
              label: 'Gadget id',
              kind: 'text',
              required: true,
              choices: [],
              defaultValue: null,
              hint: null,
            },
            {
              name: 'until',
              label: 'Until (minutes)',
              kind: 'minutes-from-now',
              required: false,
              choices: [],
              defaultValue: '30',
              hint: null,
            },
          ],
        },
      ],
      rowCount: 1,
      hiddenRowCount: 0,
      rows: [
        {
          id: 'g 1',
          path: '/engine/gadgets/g%201',
          cells: [30, '2030-01-01T00:00:00.000Z'],
          actions: [
            {
              label: 'Nudge',
              operationId: 'gadgets.nudge',
              method: 'POST',
              path: '/engine/gadgets/g%201/nudge',
              body: null,
            },
          ],
        },
      ],
      error: null,
    });
    gadgets[1] = { gadgetId: 'g-2', behindSeconds: 50 };
    gadgets[0] = { gadgetId: 'g 1', behindSeconds: 0 };
    expect((await read())?.rows.map((row) => row.id)).toEqual(['g-2']);
    // The view adds no route: nothing is served under the pack's path for it.
    expect((await test.get('/engine/gadgets-behind')).status).toBe(404);
    // Offering the action grants nothing: the operation's own policy decides (no authorize hook: refused).
    expect((await fetch(`${test.base}/engine/gadgets/g-2/nudge`, { method: 'POST' })).status).toBe(403);
  });

  it('in production without an authorize hook, the console, its actions and /engine all answer 403 FORBIDDEN', async () => {
    const test = await startConsoleHost({
      environment: { NODE_ENV: 'production' },
      setup: (builder) => addGadgetsPack(builder, [{ gadgetId: 'g-1', behindSeconds: 30 }]),
    });
    const answers: unknown[] = [];
    for (const [method, path] of [
      ['GET', '/engine'],
      ['GET', '/engine/console'],
      ['GET', '/engine/console/operator-views'],
      ['POST', '/engine/gadgets/g-1/nudge'],
    ]) {
      const answer = await fetch(`${test.base}${path}`, { method });
      const body = (await answer.json()) as { code: string };
      answers.push([method, path, answer.status, body.code, answer.headers.get('www-authenticate')]);
    }
    // Nobody can be let in, so no credential would help: never 401 with a challenge.
    expect(answers).toEqual([
      ['GET', '/engine', 403, 'FORBIDDEN', null],
      ['GET', '/engine/console', 403, 'FORBIDDEN', null],
      ['GET', '/engine/console/operator-views', 403, 'FORBIDDEN', null],
      ['POST', '/engine/gadgets/g-1/nudge', 403, 'FORBIDDEN', null],
    ]);
  });

  it('shows a tenant-scoped view only the rows of tenants the authorizer admits, and counts the hidden ones', async () => {
    interface Parcel {
      readonly parcelId: string;
      readonly tenantId: string;
    }
    const parcels: Parcel[] = [
      { parcelId: 'p1', tenantId: 'acme' },
      { parcelId: 'p2', tenantId: 'globex' },
      { parcelId: 'p3', tenantId: 'acme' },
      { parcelId: 'p4', tenantId: 'initech' },
    ];
    const asked: string[] = [];
    const test = await startConsoleHost({
      setup: (builder) =>
        builder.addOperatorView<Parcel>({
          id: 'parcels-stuck',
          title: 'Parcels stuck',
          description: 'parcels of every tenant',
          listPath: '/engine/parcels',
          idField: 'parcelId',
          columns: [{ label: 'Tenant', value: (parcel) => parcel.tenantId }],
          tenantAuthorization: {
            policy: 'parcels.read',
            kind: 'parcel',
            tenantOf: (parcel) => parcel.tenantId,
          },
          rows: () => parcels,
        }),
      authorize: (request, requirement) => {
        if (requirement?.policy) {
          asked.push(`${requirement.policy}:${requirement.resource?.kind}:${requirement.resource?.tenantId}`);
        }
        const token = request.headers.authorization;
        if (!token) return { outcome: 'unauthenticated' };
        if (token === 'Bearer all') return true;
        return (
          token === `Bearer ${requirement?.resource?.tenantId}` && requirement?.policy === 'parcels.read'
        );
      },
    });
    const read = async (headers: Record<string, string> = {}) => {
      const views = (await (
        await test.get('/engine/console/operator-views', headers)
      ).json()) as OperatorViewDocument[];
      const view = views.find((candidate) => candidate.id === 'parcels-stuck')!;
      return [view.rows.map((row) => row.id), view.rowCount, view.hiddenRowCount];
    };
    expect(await read({ authorization: 'Bearer acme' })).toEqual([['p1', 'p3'], 2, 2]);
    // One question per tenant among the rows, with the view's policy and the row's tenant as the resource.
    expect(asked).toEqual([
      'parcels.read:parcel:acme',
      'parcels.read:parcel:globex',
      'parcels.read:parcel:initech',
    ]);
    expect(await read({ authorization: 'Bearer globex' })).toEqual([['p2'], 1, 3]);
    expect(await read({ authorization: 'Bearer all' })).toEqual([['p1', 'p2', 'p3', 'p4'], 4, 0]);
    expect(await read()).toEqual([[], 0, 4]);
    // In process the caller is trusted: every row.
    const inProcess = (await test.host.engine.operations.invoke('console.operator-views', {}))
      .body as OperatorViewDocument[];
    expect(inProcess.find((view) => view.id === 'parcels-stuck')?.rowCount).toBe(4);
  });

  it('shows a view whose rows cannot be read with the reason, and still answers the others', async () => {
    const test = await startConsoleHost({
      setup: (builder) => {
        addGadgetsPack(builder, []);
        builder.addOperatorView({
          id: 'broken',
          title: 'Broken',
          description: 'rows fail',
          listPath: '/engine/broken',
          idField: 'id',
          columns: [],
          rows: () => Promise.reject(new Error('store unreachable')),
        });
      },
    });
    const views = (await (await test.get('/engine/console/operator-views')).json()) as OperatorViewDocument[];
    expect(views.map((view) => [view.id, view.rowCount, view.error])).toEqual([
      ['broken', 0, 'store unreachable'],
      ['gadgets-behind', 0, null],
    ]);
  });

  it('fails the build on an action or a form naming an unknown operation, an unfilled parameter, or a duplicate view id', () => {
    const unknown = createTestEngineBuilder().builder;
    addConsole(unknown);
    addGadgetsPack(unknown, [], 'gadgets.unknown');
    expect(() => unknown.build()).toThrow(
      /operator view gadgets-behind action "Nudge" names operation "gadgets.unknown"/,
    );
    const unknownForm = createTestEngineBuilder().builder;
    addGadgetsPack(unknownForm, [], 'gadgets.nudge', 'gadgets.unknown-form');
    expect(() => unknownForm.build()).toThrow(
      /operator view gadgets-behind form "Track a gadget" names operation "gadgets.unknown-form"/,
    );
    const parameterForm = createTestEngineBuilder().builder;
    addGadgetsPack(parameterForm, [], 'gadgets.nudge', 'gadgets.nudge');
    expect(() => parameterForm.build()).toThrow(
      /operator view gadgets-behind form "Track a gadget" does not fill the parameters id/,
    );
    const twice = createTestEngineBuilder().builder;
    addGadgetsPack(twice, []);
    twice.addOperatorView({
      id: 'gadgets-behind',
      title: 'Again',
      description: 'same id',
      listPath: '/engine/gadgets',
      idField: 'gadgetId',
      columns: [],
      actions: [{ operationId: 'gadgets.nudge', label: 'Nudge' }],
      rows: () => [],
    });
    expect(() => twice.build()).toThrow(/operator view id "gadgets-behind" is registered twice/);
    expect(() => twice.build()).toThrow(
      /operator view gadgets-behind action "Nudge" does not fill the parameters id/,
    );
  });
});
