const { cjs } = require('../../jest.preset.cjs');

module.exports = {
  ...cjs({ jsx: true, rootDepth: '../..' }),
  displayName: 'admin',
  roots: ['<rootDir>/src'],
  setupFilesAfterEnv: ['<rootDir>/../ui/jest.setup.ts'],
};
