// `npm start`: build whatever is missing or stale (Nx cache), then serve everything on one port.
import { buildAndServe } from '../harness/start.mjs';

await buildAndServe();
