"""Makes the Open Graph card fonts in assets/og/ from the site's own font package.

Satori (next/og) reads TTF/OTF/WOFF but not WOFF2, and draws a variable font only at
its default instance. This pins Plus Jakarta Sans (node_modules/@fontsource-variable/
plus-jakarta-sans, latin subset, OFL) at the weights the cards use and writes TTFs.
Run once after a font upgrade, then commit assets/og/*.ttf:

    apt-get install -y python3-fonttools python3-brotli
    /usr/bin/python3 scripts/og-fonts.py
"""
from pathlib import Path

from fontTools.ttLib import TTFont
from fontTools.varLib.instancer import instantiateVariableFont

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "node_modules/@fontsource-variable/plus-jakarta-sans/files/plus-jakarta-sans-latin-wght-normal.woff2"
WEIGHTS = {500: "PlusJakartaSans-Medium.ttf", 800: "PlusJakartaSans-ExtraBold.ttf"}

for weight, name in WEIGHTS.items():
    font = instantiateVariableFont(TTFont(SOURCE), {"wght": weight})
    font.flavor = None
    out = ROOT / "assets/og" / name
    font.save(out)
    print(f"{out.relative_to(ROOT)}: {out.stat().st_size} bytes")
