#!/usr/bin/env python3
"""Loads a replay into tools/viewer/index.html in headless Chromium, steps to
two frames, screenshots each, and checks the pixels at agent positions
decoded here, independently of the page: an agent's square has its state's
colour where it stands, and the spot it left changed. Then the terrain toggle
must change the map's pixels, and the page must raise no JavaScript error.

The legend must count the agents in each state of the frame shown, as
decoded here and as the run's --json said (agents, arrived at the end), on
the horde's replay and a march's, and on a copy of the march's whose last
frame says some agents are gone. Copies cut short (in the middle of a frame;
after the header) must play the whole frames they hold, with the warning
"file truncated: N frames read"; one cut inside the header is refused with
an error in the status line. The copies are written beside the replays
(run.sh's temporary folder).

Debian 12 packages only: chromium, chromium-driver, python3-selenium; the
PNG screenshots are decoded with the standard library.
usage: viewer_test.py HORDE.rpl HORDE.json MARCH.rpl MARCH.json
(run.sh records the replays and runs this)
"""
import json
import math
import os
import shutil
import struct
import sys
import zlib

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = '/usr/bin/chromium'
WIDTH, HEIGHT = 900, 800
# by cairn_agent_state: idle, moving, waiting, arrived, unreachable, stuck
STATE_CSS = ['#b0b0b0', '#ff3030', '#ffe040', '#30ff60', '#ff40ff', '#40a0ff']
# the legend's rows: the states, then the agents not there (state 255)
STATE_NAMES = ['idle', 'moving', 'waiting', 'arrived', 'unreachable', 'stuck', 'gone']
GONE = 255
BACKGROUND = (21, 21, 26)  # the canvas's #15151a


def decode_replay(buf):
    """The replay's frames (positions in cells, states, and where each frame
    and each state byte lies in buf), per docs/REPLAY.md."""
    if buf[:8] != b'CAIRNRP1':
        raise ValueError('bad magic')
    at = 8

    def u32():
        nonlocal at
        v = struct.unpack_from('<I', buf, at)[0]
        at += 4
        return v

    def varint():
        nonlocal at
        v = s = 0
        while True:
            b = buf[at]
            at += 1
            v |= (b & 127) << s
            s += 7
            if not b & 128:
                return v

    def zigzag():
        z = varint()
        return -(z + 1) // 2 if z & 1 else z // 2

    w, h, n, _every, _dt, scale = (u32() for _ in range(6))
    u32()  # torch radius
    # (each count is read before `at` moves past what it counts)
    gates = u32()
    at += 8 * gates
    torches = u32()
    at += 8 * torches
    map_bytes = u32()
    at += map_bytes + n  # the map's RLE, then the radii
    header_end = at
    frames, prev = [], [0] * (2 * n)
    while at < len(buf):
        start = at
        u32()  # the frame's size
        tick, pos, state, state_at = u32(), [], [], []
        for _ in range(n):
            pos.append(prev[len(pos)] + zigzag())
            pos.append(prev[len(pos)] + zigzag())
            state.append(buf[at])
            state_at.append(at)
            at += 1
        frames.append({'tick': tick, 'pos': [p / scale for p in pos], 'state': state,
                       'start': start, 'state_at': state_at})
        prev = pos
    return {'w': w, 'h': h, 'n': n, 'frames': frames, 'header_end': header_end}


def state_counts(states):
    """Agents in each state of STATE_NAMES."""
    counts = [0] * len(STATE_NAMES)
    for s in states:
        if s < len(STATE_CSS):
            counts[s] += 1
        elif s == GONE:
            counts[-1] += 1
    return counts


def decode_png(buf):
    """RGB(A) 8-bit non-interlaced PNG -> (width, height, rgb(x, y))."""
    if buf[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('not a PNG')
    at, idat = 8, []
    while at < len(buf):
        length, kind = struct.unpack_from('>I4s', buf, at)
        data = buf[at + 8:at + 8 + length]
        if kind == b'IHDR':
            width, height, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', data)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError('unsupported PNG')
        elif kind == b'IDAT':
            idat.append(data)
        at += 12 + length
    bpp = 4 if ctype == 6 else 3
    stride = width * bpp
    raw = zlib.decompress(b''.join(idat))
    rows, prev = [], bytes(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        if f == 0:  # none
            out = bytearray(line)
        elif f == 2:  # up
            out = bytearray((a + b) & 255 for a, b in zip(line, prev))
        else:
            out = bytearray(line)
            for i in range(stride):
                a = out[i - bpp] if i >= bpp else 0
                if f == 1:  # sub
                    pred = a
                elif f == 3:  # average
                    pred = (a + prev[i]) >> 1
                elif f == 4:  # paeth
                    b = prev[i]
                    c = prev[i - bpp] if i >= bpp else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                else:
                    raise ValueError(f'bad PNG filter {f}')
                out[i] = (out[i] + pred) & 255
        rows.append(out)
        prev = out

    def rgb(x, y):
        return tuple(rows[y][x * bpp:x * bpp + 3])
    return width, height, rgb


def hex_rgb(c):
    return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))


def same(a, b):
    return all(abs(u - v) <= 2 for u, v in zip(a, b))


def js_round(v):
    return math.floor(v + 0.5)  # Math.round: halves up


SCRUB = """
const s = document.getElementById('scrub');
s.value = arguments[0];
s.dispatchEvent(new Event('input'));
return window.cairnViewer.frame;
"""


class Fail(Exception):
    """The viewer is wrong; the message says how."""


def main():
    replay_path = os.path.abspath(sys.argv[1])
    runs = [(os.path.abspath(sys.argv[k]), json.load(open(sys.argv[k + 1])))
            for k in (1, 3)]
    here = os.path.dirname(os.path.abspath(__file__))
    page_url = 'file://' + os.path.abspath(os.path.join(here, '..', 'index.html'))
    rp = decode_replay(open(replay_path, 'rb').read())

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ('--headless', '--no-sandbox', '--disable-dev-shm-usage',
                f'--window-size={WIDTH},{HEIGHT}', '--force-device-scale-factor=1'):
        opts.add_argument(arg)
    # the page's uncaught errors and unhandled rejections come through the
    # browser's log, in full (an onerror handler in a file:// page sees only
    # 'Script error.', and no rejections)
    opts.set_capability('goog:loggingPrefs', {'browser': 'SEVERE'})
    # an explicit driver path: Selenium Manager (which would download one) never runs
    driver_path = shutil.which('chromedriver') or '/usr/bin/chromedriver'
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=opts)
    try:
        try:
            passed, failure = check(driver, rp, replay_path, page_url), None
            passed += '; ' + check_legend(driver, runs)
            passed += '; ' + check_truncated(driver, runs[1][0])
        except Fail as e:
            failure = str(e)
        # uncaught page errors, whatever else went wrong (they may be why)
        errors = [e['message'] for e in driver.get_log('browser')
                  if e['level'] == 'SEVERE' and e.get('source') == 'javascript']
    finally:
        driver.quit()
    for e in errors:
        print(f'page error: {e}', file=sys.stderr)
    if errors and not failure:
        failure = f'{len(errors)} page errors'
    if failure:
        print(f'viewer: {failure}', file=sys.stderr)
        return 1
    print(f'viewer: {passed}; 1 passed, 0 failed')
    return 0


def open_replay(driver, path):
    """Picks path in the page's file input and waits until the page has
    read it (its status line names the file); returns the status line."""
    driver.find_element(By.ID, 'file').send_keys(path)
    name = os.path.basename(path) + ':'
    try:
        WebDriverWait(driver, 10).until(
            lambda d: d.find_element(By.ID, 'status').text.startswith(name))
    except TimeoutException:
        status = driver.find_element(By.ID, 'status').text
        raise Fail(f'{name} did not load (status: {status!r})')
    return driver.find_element(By.ID, 'status').text


def legend(driver):
    """The legend's counts as the page shows them, in STATE_NAMES order."""
    return [int(driver.find_element(By.ID, 'count-' + name).text) for name in STATE_NAMES]


def check_legend(driver, runs):
    """The legend at the first, a middle and the last frame of each replay,
    against the states decoded here and the run's --json; then a copy of the
    march's replay with agents made gone in its last frame. Raises Fail, or
    returns what passed."""
    shown = 0
    for path, summary in runs:
        rp = decode_replay(open(path, 'rb').read())
        open_replay(driver, path)
        frames = rp['frames']
        for i in sorted({0, len(frames) // 2, len(frames) - 1}):
            driver.execute_script(SCRUB, i)
            want, got = state_counts(frames[i]['state']), legend(driver)
            if got != want:
                raise Fail(f'{os.path.basename(path)} frame {i}: legend {got}, want {want}')
            if sum(got) != summary['agents']:
                raise Fail(f'{os.path.basename(path)} frame {i}: legend adds up to {sum(got)}, '
                           f'the run had {summary["agents"]} agents')
            shown += 1
        # the last frame is the end of the run its summary describes
        if got[STATE_NAMES.index('arrived')] != summary['arrived']:
            raise Fail(f'{os.path.basename(path)}: {got[3]} arrived in the legend, '
                       f'{summary["arrived"]} in the run')
    # gone: the march's last frame with its first 5 agents' state bytes 255
    path, summary = runs[1]
    buf = bytearray(open(path, 'rb').read())
    rp = decode_replay(bytes(buf))
    last = rp['frames'][-1]
    for at in last['state_at'][:5]:
        buf[at] = GONE
    gone_path = os.path.join(os.path.dirname(path), 'gone.rpl')
    open(gone_path, 'wb').write(buf)
    open_replay(driver, gone_path)
    driver.execute_script(SCRUB, len(rp['frames']) - 1)
    want = state_counts([GONE] * 5 + last['state'][5:])
    got = legend(driver)
    if got != want or got[-1] != 5:
        raise Fail(f'gone.rpl last frame: legend {got}, want {want}')
    return f'legend counts right at {shown} frames of 2 replays and with 5 agents gone'


def check_truncated(driver, path):
    """Copies of a replay cut short play what they hold, with a warning;
    one cut inside the header is refused. Raises Fail, or returns what
    passed."""
    buf = open(path, 'rb').read()
    rp = decode_replay(buf)
    frames = rp['frames']
    k = len(frames) // 2
    mid = frames[k]['start'] + (frames[k + 1]['start'] - frames[k]['start']) // 2
    folder = os.path.dirname(path)
    for name, cut, held in (('cut.rpl', mid, k), ('header.rpl', rp['header_end'], 0),
                            ('sizeonly.rpl', frames[k]['start'] + 3, k)):
        p = os.path.join(folder, name)
        open(p, 'wb').write(buf[:cut])
        open_replay(driver, p)
        warning = driver.find_element(By.ID, 'warning')
        want = f'file truncated: {held} frames read'
        if not warning.is_displayed() or warning.text != want:
            raise Fail(f'{name}: warning {warning.text!r} (shown: {warning.is_displayed()}), '
                       f'want {want!r}')
        if 'error' in driver.find_element(By.ID, 'status').get_attribute('class'):
            raise Fail(f'{name}: the status line says an error')
        n = driver.execute_script('return window.cairnViewer.replay.frames.length')
        if n != held:
            raise Fail(f'{name}: {n} frames, want {held}')
        if held:
            got = driver.execute_script(SCRUB, held - 1)
            counts = legend(driver)
            if got != held - 1 or counts != state_counts(frames[held - 1]['state']):
                raise Fail(f'{name}: frame {got}, legend {counts} at the last frame held')
            tick = driver.find_element(By.ID, 'tick').text
            if not tick.startswith(f'tick {frames[held - 1]["tick"]} '):
                raise Fail(f'{name}: the last frame held shows {tick!r}')
        else:
            tick = driver.find_element(By.ID, 'tick').text
            if tick != 'no frames' or driver.find_element(By.ID, 'play').is_enabled():
                raise Fail(f'{name}: {tick!r}, play enabled: '
                           f'{driver.find_element(By.ID, "play").is_enabled()}')
            if legend(driver) != [0] * len(STATE_NAMES):
                raise Fail(f'{name}: legend {legend(driver)} with no frame')
    # a whole file after a cut one: the warning goes
    open_replay(driver, path)
    if driver.find_element(By.ID, 'warning').is_displayed():
        raise Fail('the warning stayed up for a whole file')
    # cut inside the header: refused, said in the status line
    p = os.path.join(folder, 'badheader.rpl')
    open(p, 'wb').write(buf[:rp['header_end'] - 1])
    driver.find_element(By.ID, 'file').send_keys(p)
    try:
        WebDriverWait(driver, 10).until(
            lambda d: d.find_element(By.ID, 'status').text.startswith('badheader.rpl:'))
    except TimeoutException:
        raise Fail('badheader.rpl: no message')
    status = driver.find_element(By.ID, 'status')
    if 'error' not in status.get_attribute('class') or 'truncated at byte' not in status.text:
        raise Fail(f'badheader.rpl: status {status.text!r}')
    return f'3 truncated copies played ({k}, 0 and {k} frames held), one cut in the header refused'


def check(driver, rp, replay_path, page_url):
    """Raises Fail, or returns what passed."""
    # the viewport exactly WIDTH x HEIGHT CSS pixels at one device pixel each
    driver.execute_cdp_cmd('Emulation.setDeviceMetricsOverride', {
        'width': WIDTH, 'height': HEIGHT, 'deviceScaleFactor': 1, 'mobile': False})
    driver.get(page_url)
    open_replay(driver, replay_path)

    def shot():
        width, height, rgb = decode_png(driver.get_screenshot_as_png())
        if (width, height) != (WIDTH, HEIGHT):
            raise Fail(f'screenshot is {width}x{height}, not {WIDTH}x{HEIGHT}')
        return rgb

    def shot_at(frame):
        got = driver.execute_script(SCRUB, frame)
        if got != frame:
            raise Fail(f'scrubbed to {frame}, the page shows {got}')
        box = driver.execute_script(
            "const r = document.getElementById('view').getBoundingClientRect(); return [r.x, r.y];")
        v = driver.execute_script('return window.cairnViewer.view;')
        rgb = shot()

        def at(x, y):
            return (js_round(box[0] + x * v['scale'] + v['x']),
                    js_round(box[1] + y * v['scale'] + v['y']))
        return rgb, at

    frames = rp['frames']
    fa, fb = 1, len(frames) - 1
    a_rgb, a_at = shot_at(fa)
    b_rgb, b_at = shot_at(fb)

    def near(p, f, k):
        """Another agent within 1.5 cells of p in frame f."""
        pos = frames[f]['pos']
        return any(j != k and math.hypot(pos[2 * j] - p[0], pos[2 * j + 1] - p[1]) < 1.5
                   for j in range(rp['n']))

    checked = fails = 0
    for k in range(rp['n']):
        sa, sb = frames[fa]['state'][k], frames[fb]['state'][k]
        if sa >= len(STATE_CSS) or sb >= len(STATE_CSS):
            continue  # 255: no longer there
        pa = frames[fa]['pos'][2 * k:2 * k + 2]
        pb = frames[fb]['pos'][2 * k:2 * k + 2]
        if math.hypot(pa[0] - pb[0], pa[1] - pb[1]) < 3:
            continue
        # skip spots another agent covers
        if near(pa, fb, k) or near(pa, fa, k) or near(pb, fb, k):
            continue
        ca, cb = hex_rgb(STATE_CSS[sa]), hex_rgb(STATE_CSS[sb])
        ax, ay = a_at(*pa)
        bx, by = b_at(*pb)
        ok = (same(a_rgb(ax, ay), ca) and not same(b_rgb(ax, ay), ca)
              and same(b_rgb(bx, by), cb))
        if not ok:
            fails += 1
            if fails < 5:
                print(f'agent {k}: at {pa} {a_rgb(ax, ay)} then {b_rgb(ax, ay)}, '
                      f'at {pb} {b_rgb(bx, by)}', file=sys.stderr)
        checked += 1

    # the terrain layer toggle: the map's pixels go when it is off
    box = driver.find_element(By.ID, 'layer-terrain')
    if box.is_selected():
        box.click()
    if box.is_selected():
        raise Fail('#layer-terrain stayed checked')
    off = shot()
    mx, my = b_at(rp['w'] / 2 + 0.5, rp['h'] / 2 + 0.5)
    terrain_gone = not same(off(mx, my), b_rgb(mx, my))

    if checked < 10 or fails:
        raise Fail(f'{fails} of {checked} agents wrong (frames {fa} and {fb})')
    if not terrain_gone:
        raise Fail(f'the terrain toggle changed nothing (pixel {mx},{my}: {b_rgb(mx, my)})')
    return f'{checked} agents drawn where the replay puts them, at frames {fa} and {fb}'


if __name__ == '__main__':
    sys.exit(main())
