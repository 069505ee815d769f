// Loads a replay into tools/viewer/index.html in headless Chromium, steps to
// two frames, screenshots each, and checks the pixels at agent positions
// decoded here, independently of the page: an agent's square has its
// state's colour where it stands, and the spot it left changed.
// usage: node viewer_test.mjs REPLAY
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const replayPath = process.argv[2];
const here = path.dirname(fileURLToPath(import.meta.url));
const page_url = 'file://' + path.resolve(here, '..', 'index.html');

// The replay's frames (positions in cells, states), per docs/REPLAY.md.
function decode(buf) {
  let at = 8;
  const u32 = () => { const v = buf.readUInt32LE(at); at += 4; return v; };
  const varint = () => { let v = 0, s = 0, b; do { b = buf[at++]; v += (b & 127) * 2 ** s; s += 7; } while (b & 128); return v; };
  const zz = () => { const z = varint(); return z % 2 ? -(z + 1) / 2 : z / 2; };
  if (buf.toString('latin1', 0, 8) !== 'CAIRNRP1') throw new Error('bad magic');
  const [w, h, n, , , scale] = [u32(), u32(), u32(), u32(), u32(), u32()];
  u32();
  const gates = u32();
  at += 8 * gates;
  const torches = u32();
  at += 8 * torches;
  const mapBytes = u32();
  at += mapBytes + n; // the map's RLE, then the radii
  const frames = [];
  let prev = new Array(2 * n).fill(0);
  while (at < buf.length) {
    u32();
    const tick = u32(), pos = [], state = [];
    for (let k = 0; k < n; k++) { pos.push(prev[2 * k] + zz(), prev[2 * k + 1] + zz()); state.push(buf[at++]); }
    frames.push({ tick, pos: pos.map((p) => p / scale), state });
    prev = pos;
  }
  return { w, h, n, frames };
}

// RGB(A) 8-bit non-interlaced PNG -> {width, height, rgb(x, y)}.
function decodePng(buf) {
  let at = 8, width, height, type, idat = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at), kind = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (kind === 'IHDR') { width = data.readUInt32BE(0); height = data.readUInt32BE(4); type = data[9]; if (data[8] !== 8 || data[12]) throw new Error('unsupported PNG'); }
    if (kind === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const bpp = type === 6 ? 4 : 3, stride = width * bpp, raw = inflateSync(Buffer.concat(idat));
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? out[y * stride + i - bpp] : 0, b = y ? out[(y - 1) * stride + i] : 0;
      const c = i >= bpp && y ? out[(y - 1) * stride + i - bpp] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
      out[y * stride + i] = (line[i] + pred) & 255;
    }
  }
  return { width, height, rgb: (x, y) => [...out.subarray(y * stride + x * bpp, y * stride + x * bpp + 3)] };
}

const hex = (c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
const same = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 2);

const rp = decode(readFileSync(replayPath));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 900, height: 800 }, deviceScaleFactor: 1 });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
await page.goto(page_url);
await page.setInputFiles('#file', replayPath);
await page.waitForFunction(() => window.cairnViewer.replay !== null);
const colours = await page.evaluate(() => ['#b0b0b0', '#ff3030', '#ffe040', '#30ff60', '#ff40ff', '#40a0ff']);

async function shotAt(frame) {
  await page.evaluate((f) => { const s = document.getElementById('scrub'); s.value = f; s.dispatchEvent(new Event('input')); }, frame);
  const got = await page.evaluate(() => window.cairnViewer.frame);
  if (got !== frame) throw new Error(`scrubbed to ${frame}, the page shows ${got}`);
  const box = await page.locator('#view').boundingBox();
  const v = await page.evaluate(() => window.cairnViewer.view);
  const png = decodePng(await page.screenshot());
  return { png, at: (x, y) => [Math.round(box.x + x * v.scale + v.x), Math.round(box.y + y * v.scale + v.y)] };
}

const fa = 1, fb = rp.frames.length - 1;
const A = await shotAt(fa), B = await shotAt(fb);
let checked = 0, fails = 0;
for (let k = 0; k < rp.n; k++) {
  const pa = rp.frames[fa].pos.slice(2 * k, 2 * k + 2), pb = rp.frames[fb].pos.slice(2 * k, 2 * k + 2);
  if (Math.hypot(pa[0] - pb[0], pa[1] - pb[1]) < 3) continue;
  // skip spots another agent covers in frame B
  const near = (p, f) => rp.frames[f].pos.some((_, j) => j % 2 === 0 && Math.hypot(rp.frames[f].pos[j] - p[0], rp.frames[f].pos[j + 1] - p[1]) < 1.5 && j / 2 !== k);
  if (near(pa, fb) || near(pa, fa) || near(pb, fb)) continue;
  const ca = hex(colours[rp.frames[fa].state[k]]), cb = hex(colours[rp.frames[fb].state[k]]);
  const [ax, ay] = A.at(...pa), [bx, by] = B.at(...pb);
  const ok = same(A.png.rgb(ax, ay), ca) && !same(B.png.rgb(ax, ay), ca) && same(B.png.rgb(bx, by), cb);
  if (!ok) { fails++; if (fails < 5) console.error(`agent ${k}: at ${pa} ${A.png.rgb(ax, ay)} then ${B.png.rgb(ax, ay)}, at ${pb} ${B.png.rgb(bx, by)}`); }
  checked++;
}
// the terrain layer toggle: the map's pixels go when it is off
await page.uncheck('#layer-terrain');
const off = decodePng(await page.screenshot());
const [mx, my] = B.at(rp.w / 2 + 0.5, rp.h / 2 + 0.5);
const terrainGone = !same(off.rgb(mx, my), B.png.rgb(mx, my)) || same(B.png.rgb(mx, my), [21, 21, 26]);
await browser.close();
if (errors.length) { console.error('page errors:', errors); process.exit(1); }
if (checked < 10 || fails) { console.error(`viewer: ${fails} of ${checked} agents wrong (frames ${fa} and ${fb})`); process.exit(1); }
if (!terrainGone) { console.error('viewer: the terrain toggle changed nothing'); process.exit(1); }
console.log(`viewer: ${checked} agents drawn where the replay puts them, at frames ${fa} and ${fb}; 1 passed, 0 failed`);
