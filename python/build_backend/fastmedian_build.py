"""The PEP 517 build backend behind `pip install .` and `pip wheel .`: it runs the project's CMake
to build the module fastmedian._native for the Python running pip, and packs it with the
pure-Python files into a wheel.

It needs nothing from PyPI (pyproject.toml's build requirements are empty, so pip's isolated
build environment is filled offline): only the standard library, CMake, a C++ compiler, the
Python headers and pybind11 (Debian: cmake g++ python3-dev pybind11-dev; nvcc for the CUDA
backend, which is built when CMake finds it, as in the project's own build).

Options, as pip's --config-settings KEY=VALUE:
    build-dir=PATH    the CMake build tree, by default build-python/ in the checkout; kept
                      between runs, so a second `pip install .` or `pip wheel .` only relinks
    cmake-args=ARGS   more arguments for the first configure of that tree, split like a shell
                      line, e.g. cmake-args=-DFASTMEDIAN_CUDA=OFF for a CPU-only build, or
                      "-DCMAKE_CUDA_ARCHITECTURES=75;86;89" for other GPUs
"""
import base64
import hashlib
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile

SOURCE = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = "fastmedian"


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    settings = config_settings or {}
    build_dir = pathlib.Path(settings.get("build-dir") or SOURCE / "build-python").resolve()
    module = _build_module(build_dir, shlex.split(settings.get("cmake-args", "")))
    project = _project()
    wheel_name = f"{PACKAGE}-{project['version']}-{_tag()}.whl"
    files = {f"{PACKAGE}/{p.name}": p.read_bytes()
             for p in sorted((SOURCE / "python" / PACKAGE).glob("*.py"))}
    files[f"{PACKAGE}/{module.name}"] = module.read_bytes()
    dist_info = f"{PACKAGE}-{project['version']}.dist-info"
    files[f"{dist_info}/METADATA"] = _metadata(project).encode()
    files[f"{dist_info}/WHEEL"] = (
        f"Wheel-Version: 1.0\nGenerator: fastmedian_build\nRoot-Is-Purelib: false\n"
        f"Tag: {_tag()}\n").encode()
    files[f"{dist_info}/top_level.txt"] = f"{PACKAGE}\n".encode()
    files[f"{dist_info}/LICENSE"] = (SOURCE / "LICENSE").read_bytes()
    record = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in files.items()]
    files[f"{dist_info}/RECORD"] = ("\n".join(record + [f"{dist_info}/RECORD,,"]) + "\n").encode()
    path = pathlib.Path(wheel_directory) / wheel_name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return wheel_name


def _build_module(build_dir, cmake_args):
    """Configures build_dir on its first use, builds the Python module, returns its path."""
    cmake = shutil.which("cmake")
    if cmake is None:
        raise RuntimeError("building fastmedian needs CMake 3.24 or newer on PATH "
                           "(Debian: apt install cmake g++ python3-dev pybind11-dev)")
    if not (build_dir / "CMakeCache.txt").is_file():
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        _run([cmake, "-S", str(SOURCE), "-B", str(build_dir), *generator,
              "-DCMAKE_BUILD_TYPE=Release", "-DFASTMEDIAN_TESTS=OFF", "-DFASTMEDIAN_JNI=OFF",
              "-DFASTMEDIAN_BENCH=OFF", f"-DFASTMEDIAN_PYTHON_EXECUTABLE={sys.executable}",
              *cmake_args])
    _run([cmake, "--build", str(build_dir), "--target", "fastmedian_python"])
    module = build_dir / "python" / PACKAGE / f"_native{sysconfig.get_config_var('EXT_SUFFIX')}"
    if not module.is_file():
        raise RuntimeError(f"{module} was not built: CMake in {build_dir} skipped the Python "
                           "package (see its configure log: python3-dev or pybind11-dev "
                           "missing?) or built it for another Python; remove the build "
                           "directory to configure it again for this one")
    return module


def _run(command):
    """Runs a CMake command without pip's build isolation variables: a cmake installed by pip
    is a Python script that must see the site-packages they hide."""
    print("fastmedian_build:", shlex.join(command), flush=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONNOUSERSITE")}
    subprocess.run(command, check=True, stdout=sys.stderr, env=env)


def _project():
    """pyproject.toml's [project] table, with the version from CMakeLists.txt's project()."""
    with open(SOURCE / "pyproject.toml", "rb") as f:
        project = dict(tomllib.load(f)["project"])
    cmake_lists = (SOURCE / "CMakeLists.txt").read_text()
    project["version"] = re.search(r"project\(fastmedian VERSION ([0-9.]+)", cmake_lists)[1]
    return project


def _metadata(project):
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}",
             f"Version: {project['version']}", f"Summary: {project['description']}",
             f"Requires-Python: {project['requires-python']}",
             f"License: {project['license']['text']}"]
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in requirements]
    readme = (SOURCE / project["readme"]).read_text()
    return "\n".join(lines) + "\nDescription-Content-Type: text/markdown\n\n" + readme


def _tag():
    """This interpreter's wheel tag, e.g. cp311-cp311-linux_x86_64 (the module is built for it
    alone; it links libstdc++ and the driver dynamically, so it is no manylinux wheel)."""
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{python}-{python}-{platform}"


def _digest(data):
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
