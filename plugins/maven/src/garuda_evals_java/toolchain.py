"""The maven toolchain (alias ``java``): probed offline, prepared once with network."""

from __future__ import annotations

from garuda_evals.api import Toolchain
from garuda_evals_java.project import probe_files

PROBE_COMMAND = "mvn -B -q -o test"
PREPARE_COMMAND = "mvn -B -q test"
VERSION_COMMAND = "mvn -B -v"
MAVEN_VERSION_PATTERN = r"Apache Maven (\d+(?:\.\d+)+)"
JDK_VERSION_PATTERN = r"Java version: (\d+(?:\.\d+)*)"
MIN_MAVEN = "3.6.3"

HINT = (
    "The java suite needs Maven 3.6.3+ and a JDK 17+ (Debian: apt-get install maven "
    "openjdk-17-jdk-headless; macOS: brew install maven), and its plugins and JUnit in "
    "Maven's local repository, because checks run offline. Run `garuda eval --prepare java` "
    "once, with network: it runs a one-test project online (mvn -B -q test, about 12 MB "
    "from Maven Central into ~/.m2)."
)


def maven_toolchain() -> Toolchain:
    """The toolchain record's ``load``: Maven and the JDK it runs on, versions from ``mvn -v``.

    Preparing runs the real ``test`` phase online rather than ``dependency:go-offline``:
    only a real run fetches what Maven 3.8 needs offline, such as Surefire's JUnit Platform
    provider and launcher, and plexus-utils 1.1, which Maven adds to plugins that lack it.
    """
    return Toolchain(
        name="maven",
        description="Maven with a JDK 17+, run offline (mvn -B -q -o test)",
        hint=HINT,
        probe_files=probe_files(),
        probe_command=PROBE_COMMAND,
        aliases=("java",),
        prepare_command=PREPARE_COMMAND,
        version_command=VERSION_COMMAND,
        version_pattern=MAVEN_VERSION_PATTERN,
        min_version=MIN_MAVEN,
        extra_versions={"jdk": (VERSION_COMMAND, JDK_VERSION_PATTERN)},
        programs=("mvn", "java"),
        watch=("~/.m2/repository",),
    )
