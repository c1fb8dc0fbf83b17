"""A non-editable install carries the card data and templates: the installed tool never needs the checkout."""
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from helpers.games import GAME_IDS

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                    "--disable-pip-version-check", "-w", str(out), str(ROOT)], check=True)
    (path,) = out.glob("companion-*.whl")
    return path


@pytest.mark.slow
def test_wheel_carries_cards_and_templates(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for game in GAME_IDS:
        assert f"companion/_data/cards/{game}.yaml" in names
    assert any(n.startswith("companion/_data/templates/") for n in names)
    for font in ("NotoSerif-Regular.ttf", "NotoSerif-Bold.ttf", "NotoSerif-Italic.ttf", "OFL.txt"):
        assert f"companion/pnp/fonts/{font}" in names  # the cards' typeface and its licence
    assert "companion/layouts/default_layouts.yaml" in names  # how a data-only game's faces print
    assert not any(n.startswith(("tests/", "cards/")) for n in names)


@pytest.mark.slow
def test_installed_wheel_validates_its_own_data_away_from_the_checkout(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--disable-pip-version-check",
                    "--target", str(target), str(wheel)], check=True)
    script = ("import companion, companion.core.resources as r, sys; from companion.cli import main; "
              "print(r.cards_dir()); sys.exit(main(['validate']))")
    env = {**os.environ, "PYTHONPATH": str(target)}
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    cards_dir = Path(proc.stdout.splitlines()[0])
    assert cards_dir == target / "companion" / "_data" / "cards"
    assert proc.stdout.count(": ok") == len(GAME_IDS)
