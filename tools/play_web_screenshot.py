"""The browser game's picture in the docs (docs/play_web.png): a 4-player game against three
`ppo`, played by taking the first listed move until the page asks to react in a window of
another player's turn, photographed in headless Chromium (Debian's, through Playwright).

    python tools/play_web_screenshot.py [--out docs/play_web.png] [--seed 12]
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from train.web import Settings, WebServer  # noqa: E402

DECIDE = "body[data-state=you], body[data-state=over]"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(ROOT / "docs" / "play_web.png"))
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--max-decisions", type=int, default=200)
    args = p.parse_args(argv)
    from playwright.sync_api import sync_playwright

    browser_path = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser_path is None:
        print("error: chromium is not installed", file=sys.stderr)
        return 2
    server = WebServer(Settings(players=4, opponents=["ppo"], seed=args.seed))
    server.start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 860})
            page.goto(server.url + "?delay=0&poll=0")
            for k in range(args.max_decisions):
                page.wait_for_selector(DECIDE, timeout=120_000)
                if page.get_attribute("body", "data-state") == "over":
                    print("error: the game ended before a reaction window", file=sys.stderr)
                    return 1
                reacting = page.locator("#decision.reaction").count() > 0
                print(f"decision {k}: {page.inner_text('#prompt')}", flush=True)
                if reacting and page.locator("button.move").count() > 1 and k > 3:
                    break
                page.locator("button.move").first.click()
            page.screenshot(path=args.out)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
