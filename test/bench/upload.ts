// Benchmark 3: upload a 200 MB file as an asset. Peak memory growth of this process while the client uploads, and
// its time against a raw streamed POST of the same multipart body (node:http, the file piped) to the same emulator.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { API_KEY, fmt, main, mb, newClient, peakMemoryGrowth, report, startEmulatorProcess, tempDir } from './support';

const SIZE = 200 * 1024 * 1024;
const RUNS = 3;
const request = {
  assetType: 'Model',
  displayName: 'Bench upload',
  description: '200 MB',
  creationContext: { creator: { userId: '1001' } },
};

/** A Model file: the rbxm header, then zeros (a sparse file, so making it is instant). */
function makeFile(file: string): void {
  fs.writeFileSync(file, '<roblox!bench model>');
  fs.truncateSync(file, SIZE);
}

/** The same request without the client: multipart framing by hand, the file streamed, content-length set. */
async function rawPost(url: string, file: string): Promise<void> {
  const boundary = '----bench' + Date.now();
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="request"\r\n\r\n${JSON.stringify(request)}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="fileContent"; filename="bench.rbxm"\r\nContent-Type: model/x-rbxm\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const req = http.request(`${url}/assets/v1/assets`, {
    method: 'POST',
    headers: {
      'x-api-key': API_KEY,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + SIZE + tail.length),
    },
  });
  const answered = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  req.write(head);
  await pipeline(fs.createReadStream(file), req, { end: false });
  req.end(tail);
  const status = await answered;
  if (status !== 200) throw new Error(`raw POST answered ${status}`);
}

main(async () => {
  const dir = tempDir('upload');
  const file = path.join(dir, 'bench.rbxm');
  makeFile(file);
  const emu = await startEmulatorProcess(['--data', path.join(dir, 'data')]);
  const client = newClient(emu.url);
  try {
    const ours = async () => {
      const op = await client.assets.create({ request, file: { path: file, contentType: 'model/x-rbxm' } });
      if (!op.path) throw new Error('no operation');
    };
    const memory = await peakMemoryGrowth(ours); // first, on a quiet heap
    let oursMs = Infinity;
    let rawMs = Infinity;
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await rawPost(emu.url, file);
      rawMs = Math.min(rawMs, performance.now() - t);
      t = performance.now();
      await ours();
      oursMs = Math.min(oursMs, performance.now() - t);
    }
    const ratio = oursMs / rawMs;
    report({
      id: 3,
      title: `Upload of a ${fmt(SIZE / 1024 / 1024)} MB file as an asset (emulator in its own process; fastest of ${RUNS})`,
      figures: [
        `client.assets.create: ${fmt(oursMs)} ms (${fmt(SIZE / 1024 / 1024 / (oursMs / 1000))} MB/s)`,
        `raw streamed POST (node:http): ${fmt(rawMs)} ms (${fmt(SIZE / 1024 / 1024 / (rawMs / 1000))} MB/s)`,
        `peak growth while uploading: RSS ${mb(memory.rss)}, heap + external ${mb(memory.heap)}`,
      ],
      goals: [
        { text: 'peak memory growth < 64 MB', measured: `RSS ${mb(memory.rss)}`, met: memory.rss < 64 * 1024 * 1024 },
        { text: 'time <= 1.3 x raw streamed POST', measured: `${fmt(ratio, 2)}x`, met: ratio <= 1.3 },
      ],
    });
  } finally {
    await client.close();
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
