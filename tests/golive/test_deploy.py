"""The deployment files (deploy/) against Procfile, checked without a container engine or systemd: every
unit and every compose service runs Procfile's command, the programs they start exist, the environment
file names every variable production requires, and the image builds as .ci/production-smoke does."""

import configparser
import re
import shlex
from pathlib import Path

import pytest
import yaml
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
DEPLOY = ROOT / "deploy"
PROCESSES = ("web", "worker", "jobs", "bulk", "beat")


def procfile():
    return dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line.strip())


def unit(name):
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str
    parser.read(DEPLOY / "systemd" / name, encoding="utf-8")
    return parser


def _sh_command(argv):
    """The command of `sh -c COMMAND` (a list, or a line systemd splits as a shell does), without exec."""
    argv = shlex.split(argv) if isinstance(argv, str) else argv
    assert argv[-2] == "-c", argv
    return argv[-1].removeprefix("exec ")


def test_procfile_has_the_release_command_and_the_processes():
    commands = procfile()

    assert list(commands) == ["release", *PROCESSES]
    steps = [shlex.split(step)[2] for step in commands["release"].split(" && ")]
    assert steps == ["compilemessages", "collectstatic", "migrate"]


@pytest.mark.parametrize("name", ["release", *PROCESSES])
def test_each_systemd_unit_runs_procfiles_command(name):
    service = unit(f"vendorhub-{name}.service")["Service"]
    # systemd's escapes: "%%" is "%", "$$" is "$" (celery's -n worker@%h, the shell's ${PORT:-8000}).
    command = _sh_command(service["ExecStart"].replace("%%", "%").replace("$$", "$"))

    assert command == procfile()[name]
    program = shlex.split(command)[0]
    assert (ROOT / ".venv" / "bin" / program).exists(), f"{program} is not installed by requirements.txt"
    assert service["EnvironmentFile"] == "/etc/vendorhub/vendorhub.env"
    assert service["WorkingDirectory"] == "/srv/vendorhub"


def test_the_target_starts_every_unit():
    wanted = unit("vendorhub.target")["Unit"]["Wants"].split()

    assert wanted == [f"vendorhub-{name}.service" for name in ["release", *PROCESSES]]


def test_the_environment_file_names_every_variable_production_requires():
    required = set(re.findall(r'_required_in_production\("([A-Z_]+)"', (ROOT / "config" / "settings.py").read_text()))
    example = (DEPLOY / "systemd" / "vendorhub.env.example").read_text()
    named = set(re.findall(r"^([A-Z_]+)=", example, re.MULTILINE))

    assert required | {"DJANGO_ALLOWED_HOSTS", "DATABASE_URL", "CELERY_BROKER_URL", "BACKUP_DIR"} <= named


def test_compose_runs_procfiles_processes_with_postgresql_redis_and_a_health_check():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]

    assert set(services) == {"postgres", "redis", *procfile()}
    for name, command in procfile().items():
        # compose's escape: "$$" is "$".
        assert _sh_command(services[name]["command"]).replace("$$", "$") == command, name
    assert "/healthz" in " ".join(services["web"]["healthcheck"]["test"])
    for name in PROCESSES:
        assert services[name]["depends_on"]["release"] == {"condition": "service_completed_successfully"}


def test_the_image_builds_as_the_production_smoke_installs():
    containerfile = (DEPLOY / "Containerfile").read_text()
    smoke = (ROOT / ".ci" / "production-smoke").read_text()
    # The same install from the same files, and the same check of it.
    assert re.search(r'"\$VENV/bin/pip" install -r requirements.txt -c constraints.txt', smoke)
    assert ".venv/bin/pip install --no-cache-dir -r requirements.txt -c constraints.txt" in containerfile
    assert '"$VENV/bin/pip" check' in smoke
    assert ".venv/bin/pip check" in containerfile
    # The smoke runs Procfile's release command; the image runs its first two steps at build time, the
    # migrations at each deployment (compose's release service).
    compile_step, static_step, _migrate = procfile()["release"].split(" && ")
    assert compile_step in containerfile
    assert static_step in containerfile
    assert "sed -n 's/^release: //p' Procfile" in smoke


def test_the_harnesses_that_start_procfiles_processes_leave_the_release_command_out():
    from bench.harness import procfile_names
    from tests.journey.harness import procfile_processes

    assert procfile_names() == list(PROCESSES)
    assert list(procfile_processes()) == list(PROCESSES)
