const { cjs } = require('../../jest.preset.cjs');

module.exports = {
  ...cjs({ jsx: true, rootDepth: '../..' }),
  displayName: 'ui',
  roots: ['<rootDir>/src'],
  setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
};
