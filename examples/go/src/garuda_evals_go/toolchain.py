"""The go toolchain: go test -json on a one-test module that needs the shared module cache."""

from garuda_evals.api import Toolchain
from garuda_evals_go.cache import build_cache, module_cache

MIN_GO = "1.21"
HINT = (
    f"Install Go {MIN_GO} or newer so that `go` is on PATH (https://go.dev/dl/; Debian 12's "
    "golang-go is 1.19, too old), then run `garuda eval --prepare go` once: it fills the "
    "shared module and build caches (network needed once; checks run offline)."
)
GO_MOD = "module example.com/probe\n\ngo 1.21\n\nrequire github.com/google/go-cmp v0.6.0\n"
GO_SUM = (
    "github.com/google/go-cmp v0.6.0 h1:ofyhxvXcZhMsU5ulbFiLKl/XBFqE1GSq7atu8tAmTRI=\n"
    "github.com/google/go-cmp v0.6.0/go.mod h1:17dUlkBOakJ0+DkrSSNjCkIjxS6bF9zb3elmeNGIjoY=\n"
)
PROBE_FILES = {
    "go.mod": GO_MOD,
    "go.sum": GO_SUM,
    "tests/probe_test.go": (
        "package tests\n\n"
        'import (\n\t"testing"\n\n\t"github.com/google/go-cmp/cmp"\n)\n\n'
        "func TestProbe(t *testing.T) {\n"
        '\tif diff := cmp.Diff([]int{2, 4}, []int{1 * 2, 2 * 2}); diff != "" {\n'
        "\t\tt.Fatal(diff)\n\t}\n"
        "}\n"
    ),
}
OFFLINE = "GOENV=off GOWORK=off GOFLAGS=-mod=readonly GOPROXY=off GOTOOLCHAIN=local"
PASSED = '"Action":"pass","Package":"example.com/probe/tests","Test":"TestProbe"'


def go_toolchain() -> Toolchain:
    """The record's ``load``: the caches' paths are this user's."""
    caches = f"GOCACHE={build_cache()} GOMODCACHE={module_cache()}"
    return Toolchain(
        name="go",
        description="Go with go test -json, offline, on shared module and build caches",
        hint=HINT,
        probe_files=PROBE_FILES,
        probe_command=(
            f"{OFFLINE} {caches} go test -count=1 -json ./tests/... > probe.json; "
            f"grep -qF '{PASSED}' probe.json || {{ cat probe.json; exit 1; }}"
        ),
        prepare_command=(
            f"GOWORK=off GOFLAGS=-mod=readonly GOTOOLCHAIN=local {caches} "
            "sh -c 'go mod download && go test -count=1 ./tests/...'"
        ),
        version_command="go version",
        version_pattern=r"go version go(\d+\.\d+(?:\.\d+)?)",
        min_version=MIN_GO,
        programs=("go",),
        watch=(str(module_cache()), str(build_cache())),
    )
