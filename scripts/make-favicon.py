"""Writes app/favicon.ico (16, 32, 48 px) and app/apple-icon.png (180 px) from app/icon.svg's design.

Next.js serves app/favicon.ico as /favicon.ico, which browsers and Lighthouse request
whatever the page's <link rel="icon"> says. Run after changing the mark:

    apt-get install -y python3-pil && /usr/bin/python3 scripts/make-favicon.py
"""
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
ACCENT, PAPER = "#4f46e5", "#f7f6f2"
SCALE = 16  # draw large, then downsample for smooth edges


def mark(size: int, rounded: bool = True) -> Image.Image:
    big = size * SCALE
    unit = big / 64  # app/icon.svg's viewBox is 64 units wide
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=14 * unit if rounded else 0, fill=ACCENT)
    for x, y, w, h in [(16, 14, 32, 8), (16, 28, 24, 8), (16, 42, 32, 8), (16, 14, 8, 36)]:
        draw.rounded_rectangle((x * unit, y * unit, (x + w) * unit, (y + h) * unit), radius=3 * unit, fill=PAPER)
    return image.resize((size, size), Image.LANCZOS)


mark(48).save(ROOT / "app/favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
# iOS masks the corners of a home-screen icon itself: a full square, no transparency.
mark(180, rounded=False).convert("RGB").save(ROOT / "app/apple-icon.png", optimize=True)
print("app/favicon.ico:", (ROOT / "app/favicon.ico").stat().st_size, "bytes; app/apple-icon.png:", (ROOT / "app/apple-icon.png").stat().st_size, "bytes")
