const { cjs } = require('../jest.preset.cjs');

module.exports = { ...cjs(), displayName: 'contracts', roots: ['<rootDir>/src'] };
