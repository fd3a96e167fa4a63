#!/usr/bin/env python3
"""Extract translatable strings into i18n/*.ts and compile them to .qm with lrelease.

Every literal passed to ``tr("...")`` or ``self.tr("...")`` in plugin/, processing/ (with its
algorithms/ and reports/), ui/ and i18n/ is a message in the single Qt context ``SpatialPrivacy``
(see i18n/__init__.py). Existing
translations are kept; new strings are added as unfinished; strings no longer in the code are
dropped.

    python3 scripts/i18n.py            # update every i18n/*.ts and compile the .qm files
    python3 scripts/i18n.py --new de   # start a translation for another language
    python3 scripts/i18n.py --check    # exit 1 if a .ts misses a string of the code
"""

from __future__ import annotations

import argparse
import ast
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("plugin", "processing", "ui", "i18n")
CONTEXT = "SpatialPrivacy"
I18N = ROOT / "i18n"


def extract() -> dict[str, tuple[str, int]]:
    """Map each translatable source string to its first location (file, line)."""
    found: dict[str, tuple[str, int]] = {}
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and node.args):
                    continue
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                arg = node.args[0]
                if name in ("tr", "_tr") and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.setdefault(arg.value, (str(path.relative_to(ROOT)), node.lineno))
    return found


def read_ts(path: Path) -> dict[str, tuple[str, bool]]:
    """Source -> (translation, finished) from an existing .ts file."""
    out = {}
    for message in ET.parse(path).getroot().iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        text = (translation.text or "") if translation is not None else ""
        finished = translation is not None and translation.get("type") not in ("unfinished", "obsolete")
        out[source] = (text, finished and bool(text))
    return out


def write_ts(path: Path, language: str, strings: dict[str, tuple[str, int]], old: dict[str, tuple[str, bool]]) -> None:
    root = ET.Element("TS", version="2.1", language=language)
    context = ET.SubElement(root, "context")
    ET.SubElement(context, "name").text = CONTEXT
    for source, (filename, line) in sorted(strings.items(), key=lambda kv: (kv[1], kv[0])):
        message = ET.SubElement(context, "message")
        ET.SubElement(message, "location", filename=f"../{filename}", line=str(line))
        ET.SubElement(message, "source").text = source
        text, finished = old.get(source, ("", False))
        translation = ET.SubElement(message, "translation")
        translation.text = text
        if not finished:
            translation.set("type", "unfinished")
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8")


def compile_qm(ts: Path) -> None:
    lrelease = shutil.which("lrelease") or shutil.which("lrelease-qt5")
    if lrelease is None:
        sys.exit("lrelease not found: apt install qttools5-dev-tools")
    subprocess.run([lrelease, "-silent", str(ts), "-qm", str(ts.with_suffix(".qm"))], check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only check that every .ts has every string")
    parser.add_argument("--new", metavar="LANG", help="create i18n/spatial_privacy_LANG.ts")
    args = parser.parse_args()
    strings = extract()
    if args.new:
        ts = I18N / f"spatial_privacy_{args.new}.ts"
        if not ts.exists():
            write_ts(ts, args.new, strings, {})
    status = 0
    for ts in sorted(I18N.glob("spatial_privacy_*.ts")):
        old = read_ts(ts)
        if args.check:
            absent = [s for s in strings if s not in old]
            if absent:
                print(f"{ts.name}: {len(absent)} strings missing, e.g. {absent[0]!r}; run scripts/i18n.py")
                status = 1
            continue
        language = ET.parse(ts).getroot().get("language", ts.stem.rsplit("_", 1)[-1])
        write_ts(ts, language, strings, old)
        compile_qm(ts)
        done = sum(1 for s in strings if old.get(s, ("", False))[1])
        print(f"{ts.name}: {done}/{len(strings)} translated")
    return status


if __name__ == "__main__":
    sys.exit(main())
