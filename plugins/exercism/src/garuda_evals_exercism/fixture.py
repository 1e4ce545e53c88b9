"""A small Exercism-format python track made offline, for tests and trying the commands.

``python -m garuda_evals_exercism.fixture DIR`` writes ``DIR/exercises/practice/`` with three
exercises laid out as the python track lays them out (``.meta/config.json``,
``.meta/example.py``, ``.docs/instructions.md``, a stub and a unittest-style test file).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

EXERCISES: dict[str, dict[str, str]] = {
    "two-fer": {
        ".docs/instructions.md": (
            "# Instructions\n\nYour task is to determine what you will say as you give away "
            "the extra cookie.\n\nIf you know the person's name, say `One for Alice, one for "
            "me.`; if you do not, say `One for you, one for me.`\n"
        ),
        "two_fer.py": "def two_fer(name):\n    pass\n",
        "two_fer_test.py": (
            "import unittest\n\nfrom two_fer import (\n    two_fer,\n)\n\n\n"
            "class TwoFerTest(unittest.TestCase):\n"
            "    def test_no_name_given(self):\n"
            '        self.assertEqual(two_fer(), "One for you, one for me.")\n\n'
            "    def test_a_name_given(self):\n"
            '        self.assertEqual(two_fer("Alice"), "One for Alice, one for me.")\n\n'
            "    def test_another_name_given(self):\n"
            '        self.assertEqual(two_fer("Bob"), "One for Bob, one for me.")\n'
        ),
        ".meta/example.py": (
            'def two_fer(name="you"):\n    return f"One for {name}, one for me."\n'
        ),
    },
    "leap": {
        ".docs/instructions.md": (
            "# Instructions\n\nYour task is to determine whether a given year is a leap year: "
            "divisible by 4, except years divisible by 100 but not by 400.\n"
        ),
        "leap.py": "def leap_year(year):\n    pass\n",
        "leap_test.py": (
            "import unittest\n\nfrom leap import (\n    leap_year,\n)\n\n\n"
            "class LeapTest(unittest.TestCase):\n"
            "    def test_year_not_divisible_by_4_in_common_year(self):\n"
            "        self.assertIs(leap_year(2015), False)\n\n"
            "    def test_year_divisible_by_4_not_divisible_by_100_in_leap_year(self):\n"
            "        self.assertIs(leap_year(1996), True)\n\n"
            "    def test_year_divisible_by_100_not_divisible_by_400_in_common_year(self):\n"
            "        self.assertIs(leap_year(2100), False)\n\n"
            "    def test_year_divisible_by_400_is_leap_year(self):\n"
            "        self.assertIs(leap_year(2000), True)\n"
        ),
        ".meta/example.py": (
            "def leap_year(year):\n"
            "    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n"
        ),
    },
    "raindrops": {
        ".docs/introduction.md": "# Introduction\n\nRaindrops is a slightly more complex FizzBuzz.\n",
        ".docs/instructions.md": (
            "# Instructions\n\nConvert a number to a string: `Pling` if it has 3 as a factor, "
            "`Plang` for 5, `Plong` for 7, in that order; the number's digits if none of these.\n"
        ),
        ".docs/instructions.append.md": (
            "# Instructions append\n\nReturn the result; do not print it.\n"
        ),
        "raindrops.py": "def convert(number):\n    pass\n",
        "raindrops_test.py": (
            "import unittest\n\nfrom raindrops import (\n    convert,\n)\n\n\n"
            "class RaindropsTest(unittest.TestCase):\n"
            "    def test_the_sound_for_1_is_1(self):\n"
            '        self.assertEqual(convert(1), "1")\n\n'
            "    def test_the_sound_for_3_is_pling(self):\n"
            '        self.assertEqual(convert(3), "Pling")\n\n'
            "    def test_the_sound_for_35_is_plangplong(self):\n"
            '        self.assertEqual(convert(35), "PlangPlong")\n\n'
            "    def test_the_sound_for_105_is_plingplangplong(self):\n"
            '        self.assertEqual(convert(105), "PlingPlangPlong")\n'
        ),
        ".meta/example.py": (
            "def convert(number):\n"
            '    sounds = [(3, "Pling"), (5, "Plang"), (7, "Plong")]\n'
            '    text = "".join(sound for factor, sound in sounds if number % factor == 0)\n'
            "    return text or str(number)\n"
        ),
    },
}


def config(slug: str) -> dict[str, object]:
    """The exercise's ``.meta/config.json``, as the python track writes it."""
    module = slug.replace("-", "_")
    return {
        "authors": ["fixture"],
        "files": {
            "solution": [f"{module}.py"],
            "test": [f"{module}_test.py"],
            "example": [".meta/example.py"],
        },
        "blurb": f"The {slug} exercise.",
    }


def make(root: Path) -> Path:
    """Write the track under ``root``; return ``root``."""
    practice = root / "exercises" / "practice"
    for slug, files in EXERCISES.items():
        folder = practice / slug
        for relative, text in {**files, ".meta/config.json": json.dumps(config(slug))}.items():
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            (folder / relative).write_text(text, encoding="utf-8")
    (root / "config.json").write_text(
        json.dumps({"language": "Python", "slug": "python"}) + "\n", encoding="utf-8"
    )
    return root


def main() -> None:
    """``python -m garuda_evals_exercism.fixture DIR``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    make(parser.parse_args().folder)


if __name__ == "__main__":
    main()
