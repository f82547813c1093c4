import { defineOperation, type CatalogDefinition, type EngineBuilder } from '@corekit/abstractions';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { z } from 'zod';
import { addConsole } from './add-console';
import { closeConsoleHosts, startConsoleHost } from './test-support/console-test-host';

afterEach(closeConsoleHosts);

const widgetSchema = z.object({ widgetId: z.string(), displayName: z.string(), stuck: z.boolean() });
type Widget = z.infer<typeof widgetSchema>;

function widgetsCatalog(operationId: string): CatalogDefinition<Widget> {
  return {
    id: 'widgets',
    displayName: 'Widgets',
    path: '/engine/widgets',
    snapshotField: 'widgets',
    idField: 'widgetId',
    entrySchema: widgetSchema,
    list: () => [
      { widgetId: 'w-1', displayName: 'First', stuck: true },
      { widgetId: 'w-2', displayName: 'Second', stuck: false },
    ],
    views: [
      {
        segment: 'stuck',
        description: 'widgets that need a push',
        attention: true,
        actions: [{ operationId, label: 'Push', params: { widgetId: 'widgetId' }, body: { force: true } }],
        select: (widget) => widget.stuck,
      },
    ],
  };
}

function addWidgetsPack(builder: EngineBuilder, actionOperationId = 'widgets.push'): void {
  builder.addCatalog(widgetsCatalog(actionOperationId));
  builder.addOperation(
    defineOperation({
      id: 'widgets.push',
      method: 'POST',
      path: '/engine/widgets/:widgetId/push',
      summary: 'Push a widget',
      params: z.object({ widgetId: z.string() }),
      body: z.object({ force: z.boolean() }),
      result: z.object({ pushed: z.string() }),
      authorization: { mode: 'required', policy: 'widgets.operate' },
      handler: ({ params }) => ({ pushed: params.widgetId }),
    }),
  );
}

describe('catalog index', () => {
  it("lists a new pack's catalog with its attention view and actions, resolved to the pack's operation", async () => {
    const test = await startConsoleHost({ setup: (builder) => addWidgetsPack(builder) });
    const catalogs = (await (await test.get('/engine/console/catalogs')).json()) as Array<{
      id: string;
      entryCount: number;
      views: unknown[];
    }>;
    const widgets = catalogs.find((catalog) => catalog.id === 'widgets');
    expect(widgets).toMatchObject({
      entryCount: 2,
      path: '/engine/widgets',
      idField: 'widgetId',
      views: [
        {
          segment: 'stuck',
          attention: true,
          actions: [
            {
              label: 'Push',
              operationId: 'widgets.push',
              method: 'POST',
              path: '/engine/widgets/:widgetId/push',
              params: { widgetId: 'widgetId' },
              body: { force: true },
            },
          ],
        },
      ],
    });
    // The engine's own catalogs are listed too.
    expect(catalogs.map((catalog) => catalog.id)).toEqual(expect.arrayContaining(['execution-graphs']));
    // The action grants nothing: the operation's own policy still decides (no authorize hook: refused).
    const refused = await fetch(`${test.base}/engine/widgets/w-1/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ force: true }),
    });
    expect(refused.status).toBe(403);
  });

  it('fails the build when a view action names an operation nobody registered', () => {
    const { builder } = createTestEngineBuilder();
    addConsole(builder);
    addWidgetsPack(builder, 'widgets.unknown');
    expect(() => builder.build()).toThrow(
      /catalog widgets view stuck action "Push" names operation "widgets.unknown"/,
    );
  });
});
