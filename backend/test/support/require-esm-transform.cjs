// Jest on Node < 24.9 cannot require() an ES module. @nestjs/throttler is CommonJS and requires Nest 12,
// which ships ESM only: those Nest files are compiled to CommonJS when (and only when) they are
// required. Imported, they pass through untouched. Plain Node (20.19+) needs none of this.
const { transformSync } = require('@swc/core');

module.exports = {
  process(source, filename, options) {
    if (options.supportsStaticESM) return { code: source };
    const { code, map } = transformSync(source, {
      filename,
      sourceMaps: true,
      jsc: { target: 'es2022', parser: { syntax: 'ecmascript' } },
      module: { type: 'commonjs' },
    });
    return { code, map };
  },
};
