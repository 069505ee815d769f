/* cairn replay viewer: plays a crowd's recording (`cairn horde --replay
 * FILE`, `cairn march --replay FILE`, or a game's cairn_replay_create) on a
 * canvas. Plain script, no build step, nothing fetched: the file comes from
 * the file input or a drop. The format is in docs/REPLAY.md. */
'use strict';

/* ---- decoding -------------------------------------------------------- */

const MAGIC = 'CAIRNRP1';
const GONE = 255;

/* A reader over the file's bytes that names the offset in its errors. */
class Reader {
  constructor(buf) {
    this.bytes = new Uint8Array(buf);
    this.view = new DataView(buf);
    this.at = 0;
  }
  need(n, what) {
    if (this.at + n > this.bytes.length)
      throw new Error(`truncated at byte ${this.at}: ${what} needs ${n} more bytes`);
  }
  u8(what) { this.need(1, what); return this.bytes[this.at++]; }
  u32(what) { this.need(4, what); const v = this.view.getUint32(this.at, true); this.at += 4; return v; }
  f32(what) { this.need(4, what); const v = this.view.getFloat32(this.at, true); this.at += 4; return v; }
  varint(what) {
    let v = 0, shift = 0, b;
    do {
      if (shift > 28) throw new Error(`bad varint at byte ${this.at}: ${what}`);
      b = this.u8(what);
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return v;
  }
  zigzag(what) { const z = this.varint(what); return z % 2 ? -(z + 1) / 2 : z / 2; }
  points(what) {
    const n = this.u32(what + ' count');
    const p = [];
    for (let k = 0; k < n; k++) p.push([this.u32(what), this.u32(what)]);
    return p;
  }
}

function decodeHeader(r) {
  r.need(8, 'the magic');
  const magic = String.fromCharCode(...r.bytes.subarray(0, 8));
  if (magic !== MAGIC) throw new Error(`not a cairn replay (magic '${magic}', want '${MAGIC}')`);
  r.at = 8;
  const h = {};
  h.width = r.u32('width');
  h.height = r.u32('height');
  h.agents = r.u32('agents');
  h.every = r.u32('every');
  h.dt = r.f32('dt');
  h.scale = r.u32('scale');
  h.torchRadius = r.u32('torch radius');
  if (!h.width || !h.height || !h.scale || !h.every || h.width * h.height > 1 << 28)
    throw new Error(`bad header: ${h.width} x ${h.height}, scale ${h.scale}, every ${h.every}`);
  h.gates = r.points('gates');
  h.torches = r.points('torches');
  const mapBytes = r.u32('map size');
  const end = r.at + mapBytes;
  r.need(mapBytes, 'the map');
  h.glyphs = new Uint8Array(h.width * h.height);
  for (let i = 0; i < h.glyphs.length;) {
    if (r.at >= end) throw new Error(`the map ends after ${i} of ${h.glyphs.length} cells`);
    const run = r.varint('map run'), glyph = r.u8('map glyph');
    if (run < 1 || i + run > h.glyphs.length) throw new Error(`bad map run of ${run} at cell ${i}`);
    h.glyphs.fill(glyph, i, i + run);
    i += run;
  }
  r.at = end;
  r.need(h.agents, 'the radii');
  h.radii = r.bytes.slice(r.at, r.at + h.agents);
  r.at += h.agents;
  return h;
}

/* Every frame decoded to absolute positions (x, y per agent, in 1/scale
 * cell) and states, so scrubbing is random access. A file that ends inside
 * a frame (a recording cut short) gives the whole frames before it, and
 * h.truncated is set; a frame whose bytes disagree with its size is an
 * error. */
function decodeFrames(r, h) {
  const frames = [];
  let prev = new Int32Array(2 * h.agents);
  h.truncated = false;
  while (r.at < r.bytes.length) {
    if (r.at + 4 > r.bytes.length || r.at + 4 + r.view.getUint32(r.at, true) > r.bytes.length) {
      h.truncated = true;
      break;
    }
    const size = r.u32('frame size');
    const start = r.at, end = start + size;
    const tick = r.u32('tick');
    const pos = new Int32Array(2 * h.agents), state = new Uint8Array(h.agents);
    for (let k = 0; k < h.agents; k++) {
      pos[2 * k] = prev[2 * k] + r.zigzag('x');
      pos[2 * k + 1] = prev[2 * k + 1] + r.zigzag('y');
      state[k] = r.u8('state');
    }
    if (r.at !== end) throw new Error(`frame ${frames.length} (tick ${tick}) is ${r.at - start} bytes, its size says ${size}`);
    frames.push({ tick, pos, state });
    prev = pos;
  }
  /* every recording starts with a frame: none means the file was cut */
  if (!frames.length) h.truncated = true;
  return frames;
}

function decodeReplay(buf) {
  const r = new Reader(buf);
  const h = decodeHeader(r);
  h.frames = decodeFrames(r, h);
  return h;
}

/* ---- colours --------------------------------------------------------- */

const GLYPH_RGB = {
  '.': [58, 56, 46], G: [200, 160, 64], S: [70, 86, 52], T: [30, 58, 32],
  W: [28, 60, 108], '@': [14, 14, 16], O: [0, 0, 0],
};
const OPEN_RGB = [72, 70, 60];
/* by cairn_agent_state: idle, moving, waiting, arrived, unreachable, stuck */
const STATE_CSS = ['#b0b0b0', '#ff3030', '#ffe040', '#30ff60', '#ff40ff', '#40a0ff'];
/* the legend's rows: each state, then the agents not there (GONE) */
const STATE_NAMES = ['idle', 'moving', 'waiting', 'arrived', 'unreachable', 'stuck', 'gone'];
/* a radius of 0 in the header: a slot empty when the recording began */
const UNKNOWN_RADIUS = 0.3;
const GATE_CSS = '#ffcc33';
const TORCH_CSS = 'rgba(255, 150, 40, 0.28)';
const TORCH_CORE_CSS = '#ffa030';

/* ---- the page -------------------------------------------------------- */

const $ = (id) => document.getElementById(id);
const canvas = $('view');
const ctx = canvas.getContext('2d');

const viewer = {
  replay: null,
  frame: 0,
  playing: false,
  speed: 1,
  clock: 0, /* ticks since the first frame, while playing */
  view: { scale: 1, x: 0, y: 0 }, /* screen = cell * scale + (x, y) */
  layers: { terrain: true, agents: true, marks: true },
  terrain: null, /* the map at one pixel a cell */
  counts: null, /* agents in each state of STATE_NAMES in the frame shown */
};
window.cairnViewer = viewer; /* for the browser test and the console */

function status(text, error) {
  $('status').textContent = text;
  $('status').classList.toggle('error', !!error);
}

function terrainImage(h) {
  const img = new ImageData(h.width, h.height);
  for (let i = 0; i < h.glyphs.length; i++) {
    const ch = String.fromCharCode(h.glyphs[i]);
    const rgb = GLYPH_RGB[ch] || OPEN_RGB;
    img.data.set(rgb, 4 * i);
    img.data[4 * i + 3] = 255;
  }
  const c = document.createElement('canvas');
  c.width = h.width;
  c.height = h.height;
  c.getContext('2d').putImageData(img, 0, 0);
  return c;
}

function resize() {
  const r = canvas.getBoundingClientRect();
  canvas.width = Math.max(1, Math.round(r.width));
  canvas.height = Math.max(1, Math.round(r.height));
}

function fit() {
  const h = viewer.replay;
  if (!h) return;
  const s = Math.min(canvas.width / h.width, canvas.height / h.height);
  viewer.view = { scale: s, x: (canvas.width - h.width * s) / 2, y: (canvas.height - h.height * s) / 2 };
  draw();
}

/* Zooms by f keeping the screen point (px, py) over the same cell. */
function zoom(f, px = canvas.width / 2, py = canvas.height / 2) {
  const v = viewer.view;
  const s = Math.min(256, Math.max(0.05, v.scale * f));
  v.x = px - (px - v.x) * (s / v.scale);
  v.y = py - (py - v.y) * (s / v.scale);
  v.scale = s;
  draw();
}

function drawMarks(h, v) {
  ctx.fillStyle = TORCH_CSS;
  for (const [x, y] of h.torches) {
    ctx.beginPath();
    ctx.arc((x + 0.5) * v.scale + v.x, (y + 0.5) * v.scale + v.y, h.torchRadius * v.scale, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.fillStyle = TORCH_CORE_CSS;
  const t = Math.max(3, v.scale);
  for (const [x, y] of h.torches)
    ctx.fillRect((x + 0.5) * v.scale + v.x - t / 2, (y + 0.5) * v.scale + v.y - t / 2, t, t);
  ctx.strokeStyle = GATE_CSS;
  ctx.lineWidth = Math.max(1, v.scale / 8);
  for (const [x, y] of h.gates) ctx.strokeRect(x * v.scale + v.x, y * v.scale + v.y, v.scale, v.scale);
}

/* Agents as squares (whole pixels, so a centre pixel has the state's exact
 * colour) at least 3 pixels wide, as discs once a cell is 8 pixels or more. */
function drawAgents(h, v, f) {
  const inv = 1 / h.scale, discs = v.scale >= 8;
  for (let s = 0; s < STATE_CSS.length; s++) {
    ctx.fillStyle = STATE_CSS[s];
    if (discs) ctx.beginPath();
    for (let k = 0; k < h.agents; k++) {
      if (f.state[k] !== s) continue;
      const sx = f.pos[2 * k] * inv * v.scale + v.x, sy = f.pos[2 * k + 1] * inv * v.scale + v.y;
      const r = (h.radii[k] ? h.radii[k] / 256 : UNKNOWN_RADIUS) * v.scale;
      if (discs) {
        ctx.moveTo(sx + r, sy);
        ctx.arc(sx, sy, r, 0, 2 * Math.PI);
      } else {
        const side = Math.max(3, Math.round(2 * r));
        const x0 = Math.round(sx - side / 2), y0 = Math.round(sy - side / 2);
        ctx.fillRect(x0, y0, side, side);
      }
    }
    if (discs) ctx.fill();
  }
}

/* The legend: a swatch, a name and a count for each state (gone: no
 * swatch colour, it is not drawn). */
function buildLegend() {
  const legend = $('legend');
  STATE_NAMES.forEach((name, s) => {
    const item = document.createElement('span');
    item.className = 'key';
    const swatch = document.createElement('i');
    if (s < STATE_CSS.length) swatch.style.background = STATE_CSS[s];
    else swatch.className = 'gone';
    const count = document.createElement('b');
    count.id = 'count-' + name;
    count.textContent = '0';
    item.append(swatch, ` ${name} `, count);
    legend.append(item);
  });
}

/* Agents in each state of STATE_NAMES in frame f (null: none). */
function countStates(h, f) {
  const counts = new Array(STATE_NAMES.length).fill(0);
  if (!f) return counts;
  for (let k = 0; k < h.agents; k++) {
    const s = f.state[k];
    if (s < STATE_CSS.length) counts[s]++;
    else if (s === GONE) counts[STATE_NAMES.length - 1]++;
  }
  return counts;
}

function showCounts(counts) {
  viewer.counts = counts;
  STATE_NAMES.forEach((name, s) => { $('count-' + name).textContent = counts[s]; });
}

function draw() {
  ctx.fillStyle = '#15151a';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const h = viewer.replay;
  if (!h) return;
  const v = viewer.view;
  const f = h.frames[viewer.frame]; /* undefined when the file holds none */
  if (viewer.layers.terrain) {
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(viewer.terrain, v.x, v.y, h.width * v.scale, h.height * v.scale);
  }
  if (viewer.layers.marks) drawMarks(h, v);
  if (viewer.layers.agents && f) drawAgents(h, v, f);
  showCounts(countStates(h, f));
  $('tick').textContent = f
    ? `tick ${f.tick} (${(f.tick * h.dt).toFixed(1)} s), frame ${viewer.frame + 1}/${h.frames.length}`
    : 'no frames';
}

function seek(i) {
  const h = viewer.replay;
  if (!h || !h.frames.length) return;
  viewer.frame = Math.max(0, Math.min(h.frames.length - 1, i | 0));
  viewer.clock = h.frames[viewer.frame].tick - h.frames[0].tick;
  $('scrub').value = viewer.frame;
  draw();
}
viewer.seek = seek;

function setPlaying(on) {
  viewer.playing = on && !!viewer.replay && viewer.replay.frames.length > 0;
  $('play').textContent = viewer.playing ? 'Pause' : 'Play';
  if (viewer.playing) {
    const h = viewer.replay;
    if (viewer.frame === h.frames.length - 1) seek(0);
    last = performance.now();
    requestAnimationFrame(step);
  }
}

/* The last frame at or before `tick`. */
function frameAt(h, tick) {
  let lo = 0, hi = h.frames.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (h.frames[mid].tick <= tick) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

let last = 0;
function step(now) {
  if (!viewer.playing) return;
  const h = viewer.replay;
  viewer.clock += ((now - last) / 1000) * viewer.speed / h.dt;
  last = now;
  const i = frameAt(h, h.frames[0].tick + viewer.clock);
  if (i !== viewer.frame) {
    viewer.frame = i;
    $('scrub').value = i;
    draw();
  }
  if (i === h.frames.length - 1) setPlaying(false);
  else requestAnimationFrame(step);
}

function load(buf, name) {
  let h;
  try {
    h = decodeReplay(buf);
  } catch (e) {
    status(`${name}: ${e.message}`, true);
    return;
  }
  setPlaying(false);
  viewer.replay = h;
  viewer.frame = 0;
  viewer.terrain = terrainImage(h);
  for (const id of ['play', 'prev', 'next', 'scrub']) $(id).disabled = !h.frames.length;
  $('scrub').max = Math.max(0, h.frames.length - 1);
  $('drop').classList.add('hidden');
  const warning = $('warning');
  warning.hidden = !h.truncated;
  warning.textContent = h.truncated ? `file truncated: ${h.frames.length} frames read` : '';
  status(`${name}: ${h.width} x ${h.height} map, ${h.agents} agents, ${h.frames.length} frames ` +
         `(every ${h.every} ticks of ${h.dt.toFixed(2)} s), ${h.gates.length} gate cells, ${h.torches.length} torches`);
  fit();
  seek(0);
}
viewer.load = load;

function openFile(file) {
  if (!file) return;
  file.arrayBuffer().then((buf) => load(buf, file.name),
                          (e) => status(`${file.name}: ${e.message}`, true));
}

/* ---- controls -------------------------------------------------------- */

$('file').addEventListener('change', (e) => openFile(e.target.files[0]));
$('play').addEventListener('click', () => setPlaying(!viewer.playing));
$('prev').addEventListener('click', () => { setPlaying(false); seek(viewer.frame - 1); });
$('next').addEventListener('click', () => { setPlaying(false); seek(viewer.frame + 1); });
$('scrub').addEventListener('input', (e) => seek(+e.target.value));
$('speed').addEventListener('change', (e) => { viewer.speed = +e.target.value; });
$('zoomin').addEventListener('click', () => zoom(1.5));
$('zoomout').addEventListener('click', () => zoom(1 / 1.5));
$('fit').addEventListener('click', fit);
for (const name of ['terrain', 'agents', 'marks'])
  $('layer-' + name).addEventListener('change', (e) => { viewer.layers[name] = e.target.checked; draw(); });

const stage = $('stage');
stage.addEventListener('dragover', (e) => { e.preventDefault(); stage.classList.add('over'); });
stage.addEventListener('dragleave', () => stage.classList.remove('over'));
stage.addEventListener('drop', (e) => {
  e.preventDefault();
  stage.classList.remove('over');
  openFile(e.dataTransfer.files[0]);
});

canvas.addEventListener('wheel', (e) => {
  e.preventDefault();
  const r = canvas.getBoundingClientRect();
  zoom(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - r.left, e.clientY - r.top);
}, { passive: false });
let drag = null;
canvas.addEventListener('pointerdown', (e) => {
  drag = { x: e.clientX, y: e.clientY };
  canvas.setPointerCapture(e.pointerId);
  canvas.classList.add('dragging');
});
canvas.addEventListener('pointermove', (e) => {
  if (!drag) return;
  viewer.view.x += e.clientX - drag.x;
  viewer.view.y += e.clientY - drag.y;
  drag = { x: e.clientX, y: e.clientY };
  draw();
});
canvas.addEventListener('pointerup', () => { drag = null; canvas.classList.remove('dragging'); });

document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
  const keys = {
    ' ': () => setPlaying(!viewer.playing), ArrowLeft: () => seek(viewer.frame - 1),
    ArrowRight: () => seek(viewer.frame + 1), '+': () => zoom(1.5), '=': () => zoom(1.5),
    '-': () => zoom(1 / 1.5), 0: fit,
  };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});

window.addEventListener('resize', () => { resize(); draw(); });
buildLegend();
resize();
draw();
