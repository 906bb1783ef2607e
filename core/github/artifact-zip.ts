import yauzl, { type Entry, type ZipFile } from 'yauzl';
import {
  ArtifactRefused,
  entryNameRefusal,
  entrySizeRefusal,
  inflatedRefusal,
  type ZipLimits,
} from './fork-artifact.js';

/**
 * An artifact's zip read in memory, as written by someone who may be hostile: the App reads a fork's
 * `a11y-gate-scan`, the Action another run's baseline. Buffer in, buffers out: no file is written, so the
 * kernel's purity holds (yauzl only parses).
 */

/** The artifact a zip should be, by name, and the files of it that are read. */
export interface ZipWanted {
  artifact: string;
  files: readonly string[];
}

const COUNT = ['no', 'one', 'two', 'three', 'four'];

function open(zip: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // Names are checked here, not by yauzl, so a refusal says which rule an entry broke.
    yauzl.fromBuffer(
      zip,
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: true },
      (err, file) =>
        err
          ? reject(new ArtifactRefused(`the artifact is not a readable zip (${err.message})`))
          : resolve(file),
    );
  });
}

/**
 * Inflates one entry, counting as it goes: past the declared size or a limit it stops at once, so a
 * zip that lies about its sizes never inflates further than the limits.
 */
function inflate(
  file: ZipFile,
  entry: Entry,
  name: string,
  total: { bytes: number },
  limits: ZipLimits,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    file.openReadStream(entry, (err, stream) => {
      if (err) return reject(new ArtifactRefused(`${name} cannot be read from the zip (${err.message})`));
      const chunks: Buffer[] = [];
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        total.bytes += chunk.length;
        const refused = inflatedRefusal(
          { name, declaredBytes: entry.uncompressedSize },
          bytes,
          total.bytes,
          limits,
        );
        if (refused) {
          stream.destroy();
          reject(new ArtifactRefused(refused));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', (e: Error) =>
        reject(new ArtifactRefused(`${name} is damaged in the zip (${e.message})`)),
      );
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}

/**
 * Reads the wanted files from an artifact's zip, entirely in memory. Every entry's name is checked, even
 * those not read; a zip with too many entries, an entry declaring too much or inflating past what it
 * declares, a wanted file twice or missing is refused.
 */
export async function readZipFiles(
  zip: Buffer,
  limits: ZipLimits,
  wanted: ZipWanted,
): Promise<Map<string, Buffer>> {
  if (zip.length > limits.zipBytes) {
    throw new ArtifactRefused(
      `the artifact's zip is ${zip.length} bytes, over the limit of ${limits.zipBytes}`,
    );
  }
  const file = await open(zip);
  try {
    if (file.entryCount > limits.maxEntries) {
      const holds = COUNT[wanted.files.length] ?? String(wanted.files.length);
      throw new ArtifactRefused(
        `the zip holds ${file.entryCount} entries; an ${wanted.artifact} artifact holds ${holds}`,
      );
    }
    const found = new Map<string, Buffer>();
    const total = { bytes: 0 };
    for (let entry = await nextEntry(file); entry; entry = await nextEntry(file)) {
      const name = entry.fileNameRaw.toString('utf8');
      const refused =
        entryNameRefusal(name) ??
        entrySizeRefusal(
          { name, declaredBytes: entry.uncompressedSize, compressedBytes: entry.compressedSize },
          limits,
        );
      if (refused) throw new ArtifactRefused(refused);
      if (!wanted.files.includes(name)) continue;
      if (found.has(name)) throw new ArtifactRefused(`the zip holds ${name} twice`);
      found.set(name, await inflate(file, entry, name, total, limits));
    }
    const missing = wanted.files.find((name) => !found.has(name));
    if (missing) throw new ArtifactRefused(`the artifact lacks ${missing}`);
    return found;
  } finally {
    file.close();
  }
}

/** The next entry of the central directory, or undefined at its end. */
function nextEntry(file: ZipFile): Promise<Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      file.off('entry', onEntry);
      file.off('end', onEnd);
      file.off('error', onError);
    };
    const onEntry = (entry: Entry) => (cleanup(), resolve(entry));
    const onEnd = () => (cleanup(), resolve(undefined));
    const onError = (err: Error) => (
      cleanup(),
      reject(new ArtifactRefused(`the artifact is not a readable zip (${err.message})`))
    );
    file.on('entry', onEntry);
    file.on('end', onEnd);
    file.on('error', onError);
    file.readEntry();
  });
}
