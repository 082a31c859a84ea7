// Renders resources/icon.svg to resources/icon.png (1024×1024), the icon electron-builder turns into .icns,
// .ico and the Linux set, and the tray and window icon. No image tool is needed: the icon is made of
// rounded rectangles, which this draws with 4×4 supersampling; any other SVG element is refused.
//
//   npx tsx build/render-icon.ts [SIZE]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

interface Shape { x: number; y: number; width: number; height: number; rx: number; rgb: [number, number, number] }

const resources = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'resources');
const size = Number(process.argv[2] ?? 1024);

function parseSvg(svg: string): { viewBox: number; shapes: Shape[] } {
  const viewBox = /viewBox="0 0 (\d+) \1"/.exec(svg)?.[1];
  if (!viewBox) throw new Error('icon.svg needs a square viewBox starting at 0 0');
  const other = /<(path|circle|ellipse|line|polygon|polyline|text|image|g|use|linearGradient|radialGradient)\b/.exec(svg);
  if (other) throw new Error(`render-icon draws rectangles only; icon.svg has <${other[1]}>. Render it with another tool.`);
  const shapes = [...svg.matchAll(/<rect\b([^>]*)\/>/g)].map(([, attributes = '']) => {
    const value = (name: string) => /^[\d.]+$/.test(attribute(attributes, name) ?? '0') ? Number(attribute(attributes, name) ?? 0) : NaN;
    const fill = /^#([0-9a-f]{6})$/i.exec(attribute(attributes, 'fill') ?? '')?.[1];
    if (!fill) throw new Error(`every <rect> needs a #rrggbb fill: ${attributes.trim()}`);
    const rgb = [0, 2, 4].map((i) => parseInt(fill.slice(i, i + 2), 16)) as [number, number, number];
    return { x: value('x'), y: value('y'), width: value('width'), height: value('height'), rx: value('rx'), rgb };
  });
  return { viewBox: Number(viewBox), shapes };
}

function attribute(attributes: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(attributes)?.[1];
}

function inside(shape: Shape, px: number, py: number): boolean {
  if (px < shape.x || py < shape.y || px > shape.x + shape.width || py > shape.y + shape.height) return false;
  const r = Math.min(shape.rx, shape.width / 2, shape.height / 2);
  const dx = px - Math.min(Math.max(px, shape.x + r), shape.x + shape.width - r);
  const dy = py - Math.min(Math.max(py, shape.y + r), shape.y + shape.height - r);
  return dx * dx + dy * dy <= r * r;
}

/** RGBA pixels, premultiplied while sampling and straightened at the end. */
function rasterize({ viewBox, shapes }: { viewBox: number; shapes: Shape[] }, side: number): Buffer {
  const pixels = Buffer.alloc(side * side * 4);
  const grid = 4;
  const scale = viewBox / side;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < grid; sy++) {
        for (let sx = 0; sx < grid; sx++) {
          const px = (x + (sx + 0.5) / grid) * scale;
          const py = (y + (sy + 0.5) / grid) * scale;
          // The topmost shape covering the sample wins, as in SVG painting order.
          const top = shapes.findLast((shape) => inside(shape, px, py));
          if (top) { r += top.rgb[0]; g += top.rgb[1]; b += top.rgb[2]; a += 1; }
        }
      }
      const offset = (y * side + x) * 4;
      if (a > 0) pixels.set([Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.round((a / (grid * grid)) * 255)], offset);
    }
  }
  return pixels;
}

function png(pixels: Buffer, side: number): Buffer {
  const rows = Buffer.alloc(side * (side * 4 + 1));
  for (let y = 0; y < side; y++) pixels.copy(rows, y * (side * 4 + 1) + 1, y * side * 4, (y + 1) * side * 4);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const icon = parseSvg(readFileSync(join(resources, 'icon.svg'), 'utf8'));
writeFileSync(join(resources, 'icon.png'), png(rasterize(icon, size), size));
process.stdout.write(`Wrote ${join(resources, 'icon.png')} (${size}×${size})\n`);
