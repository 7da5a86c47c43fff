/**
 * The tray icon, drawn here as a PNG (a small calendar page in the app's accent colour) so the app
 * ships no image files of its own for it.
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

const ACCENT = [0x4f, 0x46, 0xe5, 0xff];
const WHITE = [0xff, 0xff, 0xff, 0xff];

/** A `size`×`size` RGBA PNG: a rounded accent square with a white page and two binding rings. */
export function trayIconPng(size = 32): Buffer {
  const u = size / 32;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0, then RGBA
    for (let x = 0; x < size; x++) {
      const inside = roundedRect(x + 0.5, y + 0.5, 2 * u, 4 * u, 28 * u, 26 * u, 5 * u);
      const page = x >= 6 * u && x < 26 * u && y >= 12 * u && y < 26 * u;
      const ring = (Math.abs(x + 0.5 - 10 * u) < 1.5 * u || Math.abs(x + 0.5 - 22 * u) < 1.5 * u) && y >= 1 * u && y < 8 * u;
      const colour = ring || page ? WHITE : inside ? ACCENT : undefined;
      if (colour) row.set(colour, 1 + x * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

function roundedRect(x: number, y: number, left: number, top: number, width: number, height: number, r: number): boolean {
  if (x < left || y < top || x > left + width || y > top + height) return false;
  const cx = Math.min(Math.max(x, left + r), left + width - r);
  const cy = Math.min(Math.max(y, top + r), top + height - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}
