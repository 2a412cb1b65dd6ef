#!/usr/bin/env python3
"""Loads pages of a generated site in headless Chromium and checks them (issue #16).

Usage: site_check.py CHROMIUM SHOT_DIR PAGE.html...

Talks to Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages
separated by NUL on fds 3 and 4), so nothing beyond Python's standard library and the browser is
needed. For each page and each width (390 px, a phone; 1280 px, a desktop) it saves a screenshot
in SHOT_DIR and measures, in the page: the document's lang, the number of h1, every SVG's
<title>, elements that reach past the viewport's right edge (outside a scrolling table wrapper),
text whose contrast with its background is below 4.5:1, and any resource not loaded from file://.
Prints one JSON object per page and width on stdout; the Rust test asserts on them.
"""
import base64
import json
import os
import subprocess
import sys
import tempfile

MEASURE = r"""
(() => {
  const vw = document.documentElement.clientWidth;
  const overflow = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.table-wrap')) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 1) overflow.push(el.tagName + '.' + (typeof el.className === 'string' ? el.className : '') + ' right=' + Math.round(r.right));
  }
  const lum = (rgb) => {
    const [r, g, b] = rgb.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const parse = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const lowContrast = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg')) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const fg = parse(getComputedStyle(el).color).slice(0, 3);
    const l1 = lum(fg), l2 = lum(background(el));
    const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    if (ratio < 4.5) lowContrast.push(el.tagName + ' ' + ratio.toFixed(2));
  }
  const svgs = [...document.querySelectorAll('svg')];
  const external = performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith('file:'));
  return JSON.stringify({
    lang: document.documentElement.lang,
    title: document.title,
    h1: document.querySelectorAll('h1').length,
    svgs: svgs.length,
    svgs_without_title: svgs.filter(s => !s.querySelector(':scope > title') || !s.querySelector(':scope > title').textContent.trim()).length,
    overflow,
    low_contrast: lowContrast,
    external,
    scripts: document.querySelectorAll('script').length,
    text: document.body.innerText,
  });
})()
"""


class Browser:
    def __init__(self, chromium):
        self.profile = tempfile.TemporaryDirectory()
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        os.set_inheritable(to_browser_r, True)
        os.set_inheritable(from_browser_w, True)

        def fds():
            # move both ends out of the way first: either may itself be fd 3 or 4
            high_r, high_w = os.dup(to_browser_r) + 100, os.dup(from_browser_w) + 100
            os.dup2(to_browser_r, high_r)
            os.dup2(from_browser_w, high_w)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--allow-file-access-from-files", "--hide-scrollbars", "--no-first-run",
             f"--user-data-dir={self.profile.name}", "about:blank"],
            preexec_fn=fds, pass_fds=(3, 4),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.next_id = 0
        self.buffer = b""
        self.events = []

    def _read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, session=None, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
            self.events.append(reply)

    def wait_event(self, method, session):
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.events.pop(i)
            self.events.append(self._read())

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        self.proc.wait(timeout=30)


def main():
    chromium, shots = sys.argv[1], sys.argv[2]
    pages = sys.argv[3:]
    os.makedirs(shots, exist_ok=True)
    browser = Browser(chromium)
    try:
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        session = browser.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        browser.call("Page.enable", session)
        for page in pages:
            for width in (390, 1280):
                browser.call("Emulation.setDeviceMetricsOverride", session, width=width,
                             height=900, deviceScaleFactor=1, mobile=width < 600)
                browser.events.clear()
                browser.call("Page.navigate", session, url="file://" + os.path.abspath(page))
                browser.wait_event("Page.loadEventFired", session)
                result = browser.call("Runtime.evaluate", session, expression=MEASURE,
                                      returnByValue=True)
                measured = json.loads(result["result"]["value"])
                shot = browser.call("Page.captureScreenshot", session, format="png",
                                    captureBeyondViewport=True)
                name = os.path.relpath(os.path.abspath(page), os.path.abspath(os.path.commonpath(pages) if len(pages) > 1 else os.path.dirname(page)))
                png = os.path.join(shots, name.replace(os.sep, "_").replace(".html", f"-{width}.png"))
                with open(png, "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
                measured.update(page=page, width=width, screenshot=png)
                print(json.dumps(measured), flush=True)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
