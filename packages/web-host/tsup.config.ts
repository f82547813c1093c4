import { packageBuild } from '../../tools/tsup-preset';

// The two @scalar packages that render the /scalar page are ES modules only and need Node 22: bundling them keeps
// the CommonJS build working on Node 20. The browser bundle itself is read from @scalar/api-reference at run time.
export default packageBuild({
  noExternal: ['@scalar/express-api-reference', '@scalar/client-side-rendering'],
  shims: true,
});
