// The "attacker" server of the Restricted Mode run: a loopback HTTP server that records
// every request (method, URL, headers, body) and answers like a plausible API would, so
// that a client that trusted it would go on talking to it.
import * as http from 'node:http';

/** @returns {Promise<{url:string, requests:{method:string,url:string,headers:Record<string,string|string[]|undefined>,body:string,t:number}[], close():Promise<void>}>} */
export async function startRecorder({ name = 'attacker' } = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size <= 1 << 20) chunks.push(c);
    });
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        t: Date.now(),
      });
      if (req.url === '/__recorder/log') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(requests));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-recorder': name });
      res.end(JSON.stringify({ success: true, data: [], pagination: { total: 0, last: null } }));
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** Requests that carried an API key: any x-api-key / authorization header, or `key` anywhere in them. */
export function requestsCarryingKey(requests, key) {
  return requests.filter((r) => {
    const h = r.headers ?? {};
    if (h['x-api-key'] !== undefined || h['authorization'] !== undefined) return true;
    if (!key) return false;
    return JSON.stringify(h).includes(key) || r.url.includes(key) || r.body.includes(key);
  });
}
