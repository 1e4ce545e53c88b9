"""Protected-file patterns and JUnit evidence."""

from pathlib import Path

from garuda_evals.checks.junit import read_junit
from garuda_evals.checks.protected import changes, is_protected, snapshot


def test_patterns_protect_folders_at_any_depth_and_named_files() -> None:
    patterns = ["tests/", "src/test/", "pom.xml", "pyproject.toml", "jest.config.js"]
    assert is_protected("tests/test_a.py", patterns)
    assert is_protected("pkg/tests/deep/test_b.py", patterns)
    assert is_protected("src/test/java/FooTest.java", patterns)
    assert is_protected("pom.xml", patterns)
    assert is_protected("sub/pyproject.toml", patterns)
    assert not is_protected("src/tests.py", patterns)
    assert not is_protected("src/main/java/Foo.java", patterns)


def test_snapshot_reports_added_deleted_and_changed(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("a")
    (tmp_path / "tests" / "test_b.py").write_text("b")
    (tmp_path / "src.py").write_text("x")
    before = snapshot(tmp_path, ["tests/"])
    assert set(before) == {"tests/test_a.py", "tests/test_b.py"}
    (tmp_path / "tests" / "test_a.py").write_text("changed")
    (tmp_path / "tests" / "test_b.py").unlink()
    (tmp_path / "tests" / "test_c.py").write_text("new")
    (tmp_path / "src.py").write_text("free to change")
    assert changes(before, snapshot(tmp_path, ["tests/"])) == [
        "changed tests/test_a.py",
        "deleted tests/test_b.py",
        "added tests/test_c.py",
    ]


def test_read_junit_counts_ran_failed_and_skipped(tmp_path: Path) -> None:
    report = tmp_path / "r.xml"
    report.write_text(
        '<testsuites><testsuite name="s">'
        '<testcase name="a"/><testcase name="b"><failure message="x"/></testcase>'
        '<testcase name="c"><skipped/></testcase><testcase name="d"><error/></testcase>'
        "</testsuite></testsuites>"
    )
    evidence = read_junit((report,))
    assert (evidence.tests_ran, evidence.failed) == (3, 2)
    assert read_junit((tmp_path / "missing.xml",)).tests_ran is None
    (tmp_path / "bad.xml").write_text("<testsuite")
    assert read_junit((tmp_path / "bad.xml",)).tests_ran is None
