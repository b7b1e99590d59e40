import { prepareDatabase } from './database.mjs';
import { startApp, signInMembers } from './app.mjs';
const database = await prepareDatabase(10000);
const app = await startApp(database, 10000);
console.log('URL', app.url);
const members = await signInMembers(app, database.env.DATA_DIR);
console.log('COOKIE', members.cookies[0]);
process.on('SIGTERM', async () => { await app.stop(); process.exit(0); });
setInterval(() => {}, 1 << 30);
