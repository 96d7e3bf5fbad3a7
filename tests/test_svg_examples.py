"""The README's pictures (docs/images/<game>.svg) are what the code draws now: regenerate them with
``python -m dimsum.render.examples`` after changing a picture."""

from pathlib import Path

import pytest

import dimsum
from dimsum.render import examples

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"


@pytest.mark.parametrize("name", dimsum.games())
def test_committed_picture_is_what_the_code_draws(name):
    """Every registered game has its picture, at the position its GameInfo.picture declares."""
    committed = (IMAGES / f"{name}.svg").read_text(encoding="utf-8")
    assert committed == examples.example_state(name).to_svg(), (
        f"docs/images/{name}.svg is out of date: run python -m dimsum.render.examples")


def test_the_readme_shows_only_current_pictures():
    """The README shows some games' pictures (not necessarily every game's): each one it shows is a
    registered game's, so the test above keeps it current."""
    import re

    readme = (IMAGES.parents[1] / "README.md").read_text(encoding="utf-8")
    shown = re.findall(r"docs/images/(\w+)\.svg", readme)
    assert shown, "the README shows no picture"
    assert set(shown) <= set(dimsum.games()), sorted(set(shown) - set(dimsum.games()))


def test_the_check_mode_finds_a_stale_picture(tmp_path, capsys):
    assert examples.main(["--out", str(tmp_path)]) == 0
    assert examples.main(["--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "nice_buns.svg").write_text("<svg/>", encoding="utf-8")
    assert examples.main(["--out", str(tmp_path), "--check"]) == 1
    assert "nice_buns.svg" in capsys.readouterr().err


def test_the_pictures_doc_examples_run(tmp_path, monkeypatch):
    """docs/PICTURES.md's python blocks, each as a whole program."""
    import re

    text = (IMAGES.parents[1] / "docs" / "PICTURES.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, "docs/PICTURES.md", "exec"), {"__name__": "__main__"})
