import { CoreError, type PackDeclaration } from '@corekit/abstractions';
import { engineVersion } from '../engine';
import { testBuilder } from '../testing-support/engine-fixtures';
import { supportedPackSpecificationVersions } from './pack-declarations';

/** A declaration as a pack built against another contract would carry it (the compiler cannot see it). */
function builtAgainst(specificationVersion: number, packageName = '@corekit/probe-future'): PackDeclaration {
  return { packageName, specificationVersion } as unknown as PackDeclaration;
}

describe('pack contract specification at registration', () => {
  it('a pack declaring the specification the engine implements registers and is listed in the manifest', () => {
    const { builder } = testBuilder();
    builder.declarePack({ packageName: '@corekit/eventing', specificationVersion: 1 });
    builder.declarePack({ packageName: '@corekit/eventing', specificationVersion: 1 });
    const manifest = builder.build().manifest();
    expect(manifest.packs).toEqual([{ packageName: '@corekit/eventing', specificationVersion: 1 }]);
    expect(manifest.engine.packSpecificationVersions).toEqual([...supportedPackSpecificationVersions]);
  });

  it.each([2, 0])(
    'a pack declaring specification %s is refused at once with PACK_SPECIFICATION_UNSUPPORTED naming both versions',
    (declared) => {
      const { builder } = testBuilder();
      let thrown: unknown;
      try {
        builder.declarePack(builtAgainst(declared));
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(CoreError);
      const error = thrown as CoreError;
      expect(error.code).toBe('PACK_SPECIFICATION_UNSUPPORTED');
      expect(error.message).toContain(
        `@corekit/probe-future implements pack contract specification ${declared}`,
      );
      expect(error.message).toContain(`(@corekit/engine-core ${engineVersion}) implements specification 1`);
      expect(error.details).toMatchObject({
        packSpecificationVersion: declared,
        supportedSpecificationVersions: [1],
      });
    },
  );

  it('a declaration without a specification version (a JavaScript pack) is refused, not assumed', () => {
    const { builder } = testBuilder();
    const declaration = { packageName: '@corekit/untyped' } as unknown as PackDeclaration;
    expect(() => builder.declarePack(declaration)).toThrow(
      expect.objectContaining({ code: 'PACK_SPECIFICATION_UNSUPPORTED' }),
    );
  });

  it('a pack that declares nothing is not checked: it registers, and the manifest lists no pack for it', () => {
    const { builder } = testBuilder();
    builder.markRegistration('@corekit/legacy-pack');
    builder.addModule({ id: 'legacy', version: '0.1.0' });
    const manifest = builder.build().manifest();
    expect(manifest.packs).toEqual([]);
    expect(manifest.modules.map((module) => module.id)).toContain('legacy');
  });
});
