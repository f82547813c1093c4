import { z } from 'zod';
import { CoreError, type CatalogDefinition } from '@corekit/abstractions';
import { testBuilder } from './testing-support/engine-fixtures';

const widgets: CatalogDefinition<{ id: string; sourceModuleId: string; partId?: string }> = {
  id: 'widgets',
  displayName: 'Widgets',
  path: '/engine/widgets',
  snapshotField: 'widgets',
  idField: 'id',
  entrySchema: z.object({ id: z.string().min(1), sourceModuleId: z.string(), partId: z.string().optional() }),
  resolve: (entries, context) =>
    entries
      .filter(
        (entry) => entry.partId && !context.entries('parts').some((part: any) => part.id === entry.partId),
      )
      .map((entry) => ({
        catalog: 'widgets',
        entryId: entry.id,
        field: 'partId',
        value: entry.partId,
        message: 'unknown part',
      })),
};
const parts: CatalogDefinition<{ id: string }> = {
  id: 'parts',
  displayName: 'Parts',
  path: '/engine/parts',
  snapshotField: 'parts',
  idField: 'id',
  entrySchema: z.object({ id: z.string() }),
};

describe('catalog registry', () => {
  it('publishes validated entries under the snapshot field and by id', async () => {
    const { builder } = testBuilder();
    builder.addModule({ id: 'shop', version: '1.0.0' }).addCatalog(widgets).addCatalog(parts);
    builder.addCatalogEntries('parts', 'shop', [{ id: 'p1' }]);
    builder.addCatalogEntries('widgets', 'shop', [{ id: 'w1', sourceModuleId: 'shop', partId: 'p1' }]);
    const engine = builder.build();
    expect(engine.catalog('widgets')!.find('w1')).toEqual({ id: 'w1', sourceModuleId: 'shop', partId: 'p1' });
    expect(engine.catalog('widgets')!.find('nope')).toBeUndefined();
    expect(engine.snapshot()).toMatchObject({ widgets: [{ id: 'w1' }], parts: [{ id: 'p1' }] });
  });

  it('fails the build with one error listing every problem, publishing nothing', () => {
    const { builder } = testBuilder();
    builder.addModule({ id: 'shop', version: '1.0.0' }).addCatalog(widgets).addCatalog(parts);
    builder.addCatalogEntries('widgets', 'shop', [
      { id: 'w1', sourceModuleId: 'ghost' },
      { id: 'w2', sourceModuleId: 'shop', partId: 'missing' },
      { id: 'w3', sourceModuleId: 'shop' },
      { id: 'w3', sourceModuleId: 'shop' },
      { id: '', sourceModuleId: 'shop' },
    ]);
    builder.addCatalogEntries('gadgets', null, [{ id: 'g' }]);
    let error: CoreError | undefined;
    try {
      builder.build();
    } catch (caught) {
      error = caught as CoreError;
    }
    expect(error?.code).toBe('CATALOG_INVALID');
    const problems = (error!.details.problems as Array<{ entryId: string; field: string }>).map(
      (p) => `${p.entryId}/${p.field}`,
    );
    expect(problems).toEqual(
      expect.arrayContaining(['w1/sourceModuleId', 'w2/partId', 'w3/id', '/catalogId']),
    );
    expect(error!.message).toContain('unknown source module "ghost"');
    expect(error!.message).toContain('no catalog "gadgets" is registered');
  });

  it('refuses two catalogs with the same id, path or snapshot field', () => {
    const { builder } = testBuilder();
    builder.addCatalog(widgets).addCatalog({ ...parts, snapshotField: 'widgets' });
    expect(() => builder.build()).toThrow(/clashes with the already registered catalog "widgets"/);
  });
});

describe('manifest and snapshot', () => {
  it('reports the engine version and every module with version and capabilities', () => {
    const { builder } = testBuilder();
    builder.addModule({ id: 'orders', version: '1.2.0', capabilities: ['orders.read', 'orders.write'] });
    const manifest = builder.build().manifest();
    expect(manifest.engine).toEqual({
      name: '@corekit/engine-core',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      packSpecificationVersions: [1],
    });
    expect(manifest.modules).toEqual([
      {
        id: 'orders',
        version: '1.2.0',
        displayName: 'orders',
        capabilities: ['orders.read', 'orders.write'],
        origin: 'code',
      },
    ]);
  });

  it('merges status, manifest, dependencies and every catalog into one document', () => {
    const { builder } = testBuilder();
    builder
      .addModule({ id: 'shop', version: '1.0.0' })
      .addCatalog(parts)
      .addCatalogEntries('parts', 'shop', [{ id: 'p' }]);
    builder.addTechnologySurfaces(() => [
      { id: 's', kind: 'test', displayName: 'S', sourcePackage: 'x', metadata: {} },
    ]);
    const snapshot = builder.build().snapshot();
    expect(Object.keys(snapshot)).toEqual(
      expect.arrayContaining([
        'generatedAtUtc',
        'status',
        'manifest',
        'dependencies',
        'packages',
        'technologySurfaces',
        'parts',
      ]),
    );
    expect(snapshot.technologySurfaces).toEqual([expect.objectContaining({ id: 's' })]);
  });
});
