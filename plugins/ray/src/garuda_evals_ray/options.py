"""The options of ``garuda eval`` that the Ray plugin owns.

Only records here: ``garuda --help`` must import neither pydantic nor ray.
"""

from __future__ import annotations

from garuda_evals.api import Option, OptionsRecord

OWNER = "ray"


def _model():  # type: ignore[no-untyped-def]
    from garuda_evals_ray.ray_options import RayOptions

    return RayOptions


OPTIONS = OptionsRecord(
    name=OWNER,
    description="the Ray run backend (garuda-evals-ray), with --backend ray",
    options=(
        Option(
            ("--ray-address",),
            "with --backend ray: the cluster to join (host:port or auto); "
            "default: start a local Ray for the run and stop it after",
            metavar="ADDR",
            backends=(OWNER,),
        ),
        Option(
            ("--ray-runtime-env",),
            "with --backend ray: a JSON file with Ray's runtime environment for the "
            "workers (pip, py_modules, working_dir, env_vars without keys)",
            metavar="FILE",
            backends=(OWNER,),
        ),
        Option(
            ("--skip-nodes",),
            "with --backend ray: leave out nodes that lack a needed toolchain "
            "instead of refusing the run",
            is_flag=True,
            default=False,
            backends=(OWNER,),
        ),
    ),
    model=_model,
)
