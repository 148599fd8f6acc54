import https from 'node:https';
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';

/** ApiClient talks to the shop's HTTP API. */
export class ApiClient extends EventEmitter {
  constructor(baseURL, { retries = 2 } = {}) {
    super();
    this.baseURL = baseURL;
    this.retries = retries;
  }

  get(path) {
    return new Promise((resolve, reject) => {
      const req = https.request(this.baseURL + path, (res) => {
        this.emit('response', res.statusCode);
        resolve(res);
      });
      req.on('error', reject);
      req.end();
    });
  }

  openInBrowser(url) {
    return spawn('xdg-open', [url], { detached: true });
  }
}

export function defaultClient() {
  return new ApiClient(process.env.API_URL);
}
