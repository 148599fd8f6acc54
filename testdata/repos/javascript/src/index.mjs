import createApp, { App } from '../lib/app.js';
import Clock, { formatDate as fmt, days } from './util/date.mjs';
import * as client from './net/client.js';

const clock = new Clock();

export async function start(port = Number(process.env.PORT) || 3000) {
  const app = createApp({ port });
  app.on('init', () => console.log('ready', fmt(clock.now())));
  for (const d of days(new Date(), 3)) {
    console.log(fmt(d));
  }
  const api = new client.ApiClient('https://example.com');
  await api.get('/status');
  return app instanceof App ? app : null;
}

start().catch((err) => {
  console.error(err);
  process.exit(1);
});
