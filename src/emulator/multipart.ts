// multipart/form-data through busboy. Text parts are kept (up to 1 MiB each); the one file part allowed is streamed
// into the blob store. Anything malformed (no boundary, a truncated body, a file part that is not expected, too
// many parts) is a 400 after the body has been consumed, and any partial upload is removed.
import busboy from 'busboy';
import { invalid } from './errors';
import type { Upload } from './blobs';
import type { Ctx } from './http';

export interface FilePart {
  upload: Upload;
  contentType: string;
  filename: string;
}

export interface Form {
  fields: Map<string, string>;
  file?: FilePart;
}

const MAX_FIELD_BYTES = 1024 * 1024;

export const isMultipart = (ctx: Ctx): boolean =>
  /^multipart\/form-data\b/i.test(ctx.req.headers['content-type'] ?? '');

/** Reads the form; `fileField` names the one file part accepted (none when undefined). */
export function readForm(ctx: Ctx, fileField?: string): Promise<Form> {
  if (!isMultipart(ctx)) return Promise.reject(invalid('The request body must be multipart/form-data.'));
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: ctx.req.headers,
      limits: { fieldSize: MAX_FIELD_BYTES, fieldNameSize: 200, fields: 20, files: fileField ? 1 : 0, parts: 21 },
    });
  } catch (err) {
    return Promise.reject(invalid(`Malformed multipart request: ${(err as Error).message}.`));
  }
  const req = ctx.req;
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string>();
    let file: Promise<FilePart | undefined> | undefined;
    let problem: string | undefined;
    let finished = false;
    const finish = async (error?: string): Promise<void> => {
      if (finished) return;
      finished = true;
      const part = await file;
      error ??= problem;
      if (error) {
        part?.upload.discard();
        reject(invalid(error));
      } else resolve({ fields, file: part });
    };
    parser.on('file', (name, stream, info) => {
      if (name !== fileField || file) {
        problem ??= `Unexpected file part '${name}'.`;
        stream.resume();
        return;
      }
      file = ctx.app.blobs.receive(stream).then(
        (upload) => ({ upload, contentType: info.mimeType.toLowerCase(), filename: info.filename ?? '' }),
        () => undefined,
      );
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated)
        problem ??= `Part '${name}' is larger than ${MAX_FIELD_BYTES} bytes.`;
      else if (!fields.has(name)) fields.set(name, value);
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      parser.on(limit, () => (problem ??= 'Too many parts in the multipart body.'));
    }
    parser.on('error', (err: Error) => {
      req.unpipe(parser);
      req.resume();
      void finish(`Malformed multipart body: ${err.message}.`);
    });
    parser.on('close', () => void finish());
    req.on('close', () => {
      if (!req.complete) parser.destroy(new Error('the request was aborted'));
    });
    req.pipe(parser);
  });
}
