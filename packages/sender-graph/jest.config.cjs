const path = require('node:path');
const preset = require('../../tools/jest-preset.cjs')(__dirname);

// The shared sender test host lives on the sender-kit subpath 'testing'.
module.exports = {
  ...preset,
  moduleNameMapper: {
    '^@corekit/sender-kit/testing$': path.join(__dirname, '../sender-kit/src/testing/index.ts'),
    ...preset.moduleNameMapper,
  },
};
