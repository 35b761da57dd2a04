// Which file types each asset type takes (docs/SERVICE.md, "Assets and operations"), and a check of the file's first
// bytes. A content type that does not fit the asset type is refused at once (400); bytes that do not fit their content
// type (a "image/png" part without the PNG signature, an empty file) end the operation with an error, as the service
// does after it has looked at the upload.

type Kind = 'Image' | 'Audio' | 'Model' | 'Video' | 'Mesh';

const IMAGE = ['image/png', 'image/jpeg', 'image/bmp', 'image/tga'];
const MODEL = ['model/fbx', 'model/gltf+json', 'model/gltf-binary', 'model/x-rbxm'];

export const ASSET_TYPES: Record<string, { kind: Kind; contentTypes: string[] }> = {
  Audio: { kind: 'Audio', contentTypes: ['audio/mpeg', 'audio/ogg', 'audio/wav', 'audio/flac'] },
  Decal: { kind: 'Image', contentTypes: IMAGE },
  Image: { kind: 'Image', contentTypes: IMAGE },
  Model: { kind: 'Model', contentTypes: MODEL },
  Animation: { kind: 'Model', contentTypes: ['model/x-rbxm'] },
  Mesh: { kind: 'Mesh', contentTypes: ['model/x-file-mesh-data'] },
  Video: { kind: 'Video', contentTypes: ['video/mp4', 'video/mov'] },
};

const ascii = (head: Buffer, at: number, text: string): boolean =>
  head.toString('latin1', at, at + text.length) === text;

/** Does the start of a file look like its content type? */
const signatures: Record<string, (head: Buffer, size: number) => boolean> = {
  'image/png': (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  'image/bmp': (h) => ascii(h, 0, 'BM'),
  'image/tga': (_h, size) => size >= 18, // TGA has no signature, only an 18-byte header
  'audio/mpeg': (h) => ascii(h, 0, 'ID3') || (h[0] === 0xff && (h[1] & 0xe0) === 0xe0),
  'audio/ogg': (h) => ascii(h, 0, 'OggS'),
  'audio/wav': (h) => ascii(h, 0, 'RIFF') && ascii(h, 8, 'WAVE'),
  'audio/flac': (h) => ascii(h, 0, 'fLaC'),
  'model/fbx': (h) => ascii(h, 0, 'Kaydara FBX Binary') || ascii(h, 0, '; FBX'),
  'model/gltf+json': (h) => h.toString('latin1').trimStart().startsWith('{'),
  'model/gltf-binary': (h) => ascii(h, 0, 'glTF'),
  'model/x-rbxm': (h) => ascii(h, 0, '<roblox') || ascii(h, 0, '<?xml'),
  'model/x-file-mesh-data': (h) => ascii(h, 0, 'version '),
  'video/mp4': (h) => ascii(h, 4, 'ftyp'),
  'video/mov': (h) => ['ftyp', 'moov', 'wide', 'free', 'mdat'].some((box) => ascii(h, 4, box)),
};

/** The failure message of the operation ("InvalidImage: ..."), or undefined when the file looks right. */
export function contentProblem(assetType: string, contentType: string, head: Buffer, size: number): string | undefined {
  const code = `Invalid${ASSET_TYPES[assetType].kind}`;
  if (size === 0) return `${code}: the file is empty.`;
  if (!signatures[contentType](head, size)) return `${code}: the file is not a valid ${contentType} file.`;
  return undefined;
}
