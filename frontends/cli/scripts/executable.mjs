// After tsc: the bin is executable (npm sets the bit when it installs the package; this is for
// `./dist/termpaste.js` in a checkout).
import { chmodSync } from 'node:fs';

chmodSync(new URL('../dist/termpaste.js', import.meta.url), 0o755);
