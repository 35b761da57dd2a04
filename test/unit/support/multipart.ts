// Reads a multipart/form-data body captured by a test fixture.
import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';

export interface Part {
  name: string;
  value: Buffer;
  filename?: string;
  mimeType?: string;
}

export function parseMultipart(headers: IncomingHttpHeaders, body: Buffer): Promise<Part[]> {
  return new Promise((resolve, reject) => {
    const parts: Part[] = [];
    const bb = busboy({ headers });
    bb.on('field', (name, value) => parts.push({ name, value: Buffer.from(value) }));
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () =>
        parts.push({ name, value: Buffer.concat(chunks), filename: info.filename, mimeType: info.mimeType }),
      );
    });
    bb.on('close', () => resolve(parts));
    bb.on('error', reject);
    bb.end(body);
  });
}
