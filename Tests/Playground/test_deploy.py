"""deploy/ as an operator installs it: the balancer's configuration is valid HAProxy, and the
replica's systemd unit is valid and hardened (systemd-analyze, offline)."""
import pathlib
import subprocess
import tempfile

from conftest import ROOT, TOOL

UNIT = ROOT / "deploy/kaleidoscope-serve@.service"


def test_the_balancer_configuration_is_valid():
    result = subprocess.run(["haproxy", "-c", "-f", str(ROOT / "deploy/haproxy.cfg")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_replica_unit_is_valid_and_hardened():
    with tempfile.TemporaryDirectory() as directory:
        # The unit names the installed tool; here, the one built.
        unit = pathlib.Path(directory) / UNIT.name
        unit.write_text(UNIT.read_text().replace("/usr/local/bin/kaleidoscope", TOOL))
        verified = subprocess.run(["systemd-analyze", "verify", "kaleidoscope-serve@8401.service"], cwd=directory,
                                  capture_output=True, text=True)
        assert verified.returncode == 0 and verified.stderr == "", verified.stderr
        # systemd's exposure score, 0 (locked down) to 10; 3.0 is what the unit reaches
        # with the JIT's writable code pages allowed.
        security = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--threshold=30", str(unit)],
                                  capture_output=True, text=True)
        assert security.returncode == 0, security.stdout[-2000:]
        for setting in ("DynamicUser=yes", "ProtectSystem=strict", "NoNewPrivileges=yes"):
            assert setting in UNIT.read_text()
