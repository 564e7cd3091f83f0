"""Headless Chromium driven over the DevTools protocol on a pipe: no driver, no websocket
library, only the ``chromium`` binary. Used to print the PDFs (``docs/pdf.py``) and by the
browser tests of the site. The pipe is passed as file descriptors 3 and 4, which only POSIX
systems have: elsewhere :class:`Browser` says so (:class:`CDPError`) before starting anything.

    with Browser() as browser:
        page = browser.open(url, width=390, mobile=True)
        page.evaluate("document.title")
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
from typing import Any

ARGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-extensions", "--allow-file-access-from-files", "--remote-debugging-pipe")


def chromium() -> str | None:
    """The Chromium binary, when installed."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class CDPError(RuntimeError):
    pass


class Browser:
    """One headless Chromium; ``open`` gives a :class:`Page` (a tab) to drive."""

    def __init__(self, binary: str | None = None, timeout: float = 60.0) -> None:
        binary = binary or chromium()
        if binary is None:
            raise CDPError("chromium is not installed (.ci/system-deps.sh installs it)")
        if os.name != "posix":  # the pipe is handed over as file descriptors 3 and 4, a POSIX notion
            raise CDPError("driving Chromium over its DevTools pipe needs a POSIX system (Linux, macOS); "
                           "on this system the PDFs are not printed")
        self.timeout = timeout
        self._profile = tempfile.TemporaryDirectory(prefix="cardcanon-chromium-")
        to_child, self._write = os.pipe()  # the browser reads commands on fd 3
        self._read, from_child = os.pipe()  # and writes answers and events on fd 4

        def fds() -> None:  # in the child, before exec
            os.dup2(to_child, 3)
            os.dup2(from_child, 4)

        self._proc = subprocess.Popen([binary, *ARGS, f"--user-data-dir={self._profile.name}", "about:blank"],
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, pass_fds=(3, 4), preexec_fn=fds)
        os.close(to_child)
        os.close(from_child)
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (CDPError, OSError):
            pass
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        for fd in (self._write, self._read):
            try:
                os.close(fd)
            except OSError:
                pass
        self._profile.cleanup()

    def _message(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise CDPError("chromium closed the DevTools pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return dict(json.loads(raw))

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        """Send one command and wait for its answer (events that arrive meanwhile are kept)."""
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._message()
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise CDPError(f"{method}: {answer['error'].get('message')}")
                return dict(answer.get("result", {}))
            self.events.append(answer)

    def wait_event(self, method: str, session: str) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            for i, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.events.pop(i)
            self.events.append(self._message())
        raise CDPError(f"timed out waiting for {method}")

    def open(self, url: str, width: int = 1280, height: int = 900, mobile: bool = False) -> Page:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.send("Page.enable")
        page.send("Runtime.enable")
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        page.goto(url)
        return page


class Page:
    def __init__(self, browser: Browser, session: str) -> None:
        self.browser, self.session = browser, session

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.browser.send(method, params, self.session)

    def goto(self, url: str) -> None:
        self.browser.events = [e for e in self.browser.events if e.get("sessionId") != self.session]
        self.send("Page.navigate", {"url": url})
        self.browser.wait_event("Page.loadEventFired", self.session)
        self.evaluate("document.fonts.ready.then(() => true)")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression (a promise is awaited)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                 "returnByValue": True})
        if "exceptionDetails" in result:
            raise CDPError(f"JavaScript error: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result.get("result", {}).get("value")

    def pdf(self, **options: Any) -> bytes:
        return base64.b64decode(self.send("Page.printToPDF", options)["data"])
