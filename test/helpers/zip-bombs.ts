import { writeZip } from '../../src/bundles/zip-archive.js';

/** A zip of one file of `bytes` zeros: it deflates to about a thousandth of that. */
export function zerosZip(bytes: number, path = 'www/index.html'): Promise<Buffer> {
  return writeZip([{ path, bytes: Buffer.alloc(bytes) }]);
}

/**
 * The same zip whose headers claim every file inflates to `claimed` bytes: a reader that trusts them
 * (rather than counting what inflates) lets the whole file through.
 */
export async function lyingZip(bytes: number, claimed: number): Promise<Buffer> {
  const zip = Buffer.from(await zerosZip(bytes));
  const local = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
  const central = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let at = zip.indexOf(local); at >= 0; at = zip.indexOf(local, at + 4))
    zip.writeUInt32LE(claimed, at + 22);
  for (let at = zip.indexOf(central); at >= 0; at = zip.indexOf(central, at + 4))
    zip.writeUInt32LE(claimed, at + 24);
  return zip;
}
