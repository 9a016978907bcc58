#!/usr/bin/env python3
"""A black-box attack run against a default agent (docs/security.md, "Attack runs").

Starts `./drover agent` as the calling user (root, for the exec and java attacks) on a free loopback port with a
fresh data_dir, raw_exec off (the default), then tries each class of attack of issue 12 for real and prints one
line per attack: `held` (the defence worked) or `HOLE` (it did not), with what was seen. Exit code: the number of
holes (0: nothing found). Nothing is left behind: the agent is stopped, the temp dirs are removed.

    sudo scripts/attack-run.py            # all classes
    scripts/attack-run.py names http      # some classes (names, links, env, java, http, slow, caps, plugins,
                                          #   datadir, terminal, tokens)

Run by hand (it takes about a minute and needs root, gcc and python3); not part of `mvn verify`: every attack here
also has a regression test in the suite (docs/security.md names them).
"""
import json
import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile

ESC = b"\x1b"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DROVER = os.path.join(ROOT, "drover")
NOBODY = pwd.getpwnam("nobody")
results = []


def report(cls, name, held, seen):
    results.append((cls, name, held, seen))
    print(f"{'held' if held else 'HOLE'}  {cls:8} {name}: {seen}", flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Agent:
    """A real agent process on a loopback port; stop() ends it and the tasks it left (its process group)."""

    def __init__(self, work, extra_config="", plugin_dir=None, data_dir=None):
        self.port = free_port()
        self.data_dir = data_dir or os.path.join(work, "data")
        self.plugin_dir = plugin_dir or os.path.join(ROOT, "plugins", "dist")
        self.config = os.path.join(work, f"agent-{self.port}.hcl")
        with open(self.config, "w") as f:
            f.write(f'data_dir = "{self.data_dir}"\nplugin_dir = "{self.plugin_dir}"\n'
                    f'ports {{ http = {self.port} }}\n{extra_config}\n')
        self.log = open(os.path.join(work, f"agent-{self.port}.log"), "w+")
        self.proc = subprocess.Popen([DROVER, "agent", "-config", self.config], stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.base = f"http://127.0.0.1:{self.port}"

    def wait_ready(self, seconds=60):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                self.get("/v1/jobs")
                return True
            except OSError:
                time.sleep(0.1)
        return False

    def wait_exit(self, seconds=60):
        try:
            return self.proc.wait(seconds)
        except subprocess.TimeoutExpired:
            return None

    def output(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def request(self, method, path, body=None, headers=None):
        h = {"Content-Type": "application/json"}
        h.update(headers or {})
        data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=40) as r:
                return r.status, r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8", "replace")

    def get(self, path):
        return self.request("GET", path, headers={"Content-Type": ""})

    def register(self, job_json):
        return self.request("PUT", "/v1/jobs", {"Job": job_json})

    def allocs(self, job_id):
        code, body = self.get(f"/v1/job/{job_id}/allocations")
        return json.loads(body) if code == 200 else []

    def wait_terminal(self, job_id, seconds=60):
        deadline = time.time() + seconds
        while time.time() < deadline:
            allocs = self.allocs(job_id)
            if allocs and all(a["ClientStatus"] in ("complete", "failed") for a in allocs):
                return allocs
            time.sleep(0.1)
        return self.allocs(job_id)

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        kill_tasks(self.data_dir)
        self.log.close()


def kill_tasks(data_dir):
    """Tasks outlive a stopped agent (they are re-attached by the next one): kill whatever runs under data_dir."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = f.read()
        except OSError:
            continue
        if data_dir.encode() in env:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass


def task(name, driver="mock", config=None, **extra):
    t = {"Name": name, "Driver": driver, "Config": config or {"run_for": "10ms"}}
    t.update(extra)
    return t


def job(job_id, tasks, group="g", count=1, jtype="batch"):
    return {"ID": job_id, "Type": jtype, "TaskGroups": [{"Name": group, "Count": count, "Tasks": tasks,
                                                          "RestartPolicy": {"Attempts": 0, "Mode": "fail"}}]}


# --- attack classes -------------------------------------------------------------------------------------------

def attack_names(agent, work):
    probe = os.path.join(work, "outside")
    bad = {"absolute": probe + "/x", "dotdot": "../../../../../.." + probe + "/y", "dot-dot": "..", "dot": ".",
           "nul": "a\u0000b", "surrogate": "a\ud800b", "newline": "a\nb", "slash": "a/b"}
    for label, name in bad.items():
        body = json.dumps({"Job": job(f"names-{label}", [task(name)])}, ensure_ascii=True).encode()
        t0 = time.time()
        code, text = agent.request("PUT", "/v1/jobs", body)
        took = time.time() - t0
        report("names", f"task name {label}", code == 400 and took < 5 and not os.path.exists(probe),
               f"{code} in {took:.1f}s {text[:100]!r}")
    for label, j in {"group ..": job("names-group", [task("t")], group=".."),
                     "job ../x": job("../x", [task("t")])}.items():
        code, text = agent.register(j)
        report("names", label, code == 400, f"{code} {text[:100]!r}")
    hcl = os.path.join(work, "bad.hcl")
    with open(hcl, "w") as f:
        f.write('job "j" {\n type = "batch"\n group "g" {\n  task "../x" {\n   driver = "mock"\n  }\n'
                '  task "/tmp/y" {\n   driver = "mock"\n  }\n }\n}\n')
    r = subprocess.run([DROVER, "run", hcl], capture_output=True, text=True, timeout=120)
    lines = [l for l in r.stderr.splitlines() if "bad.hcl" in l]
    report("names", "drover run HCL, two bad names", r.returncode == 2 and len(lines) >= 2,
           f"exit {r.returncode}, {len(lines)} problem lines: {lines[:2]}")


def attack_links(agent, work):
    """A task's log file replaced by a symlink to a root-owned 0600 file before rotation reaches it (planted here,
    as any task that can write alloc/logs could): the agent, as root, must not write through it."""
    target = os.path.join(work, "root-owned-secret")
    with open(target, "w") as f:
        f.write("root only\n")
    os.chmod(target, 0o600)
    script = ("until [ -e /alloc/data/go ]; do sleep 0.05; done; "
              "head -c 2000000 /dev/zero | tr '\\0' 'A'; echo; echo planted")
    j = job("links", [task("t", "exec", {"command": "/bin/sh", "args": ["-c", script]},
                           LogConfig={"MaxFiles": 3, "MaxFileSizeMB": 1})])
    code, text = agent.register(j)
    if code != 200:
        report("links", "planted .stdout.1 symlink", False, f"could not register: {code} {text[:200]}")
        return
    alloc_id = json.loads(text)["Allocations"][0]
    shared = os.path.join(agent.data_dir, "alloc", alloc_id, "alloc")
    deadline = time.time() + 30
    while not os.path.isdir(os.path.join(shared, "data")) and time.time() < deadline:
        time.sleep(0.05)
    link = os.path.join(shared, "logs", "t.stdout.1")
    os.symlink(target, link)
    open(os.path.join(shared, "data", "go"), "w").close()
    agent.wait_terminal("links")
    with open(target) as f:
        content = f.read()
    report("links", "planted .stdout.1 symlink at rotation", content == "root only\n",
           f"target holds {len(content)} bytes")


def attack_env(agent, work):
    src = os.path.join(work, "evil.c")
    lib = os.path.join(work, "evil.so")
    marker_dir = os.path.join(work, "markers")
    os.makedirs(marker_dir)
    os.chmod(marker_dir, 0o777)
    os.chmod(work, 0o755)
    with open(src, "w") as f:
        f.write('#include <stdio.h>\n#include <unistd.h>\n__attribute__((constructor)) static void pwn(void) {'
                f' char p[512]; snprintf(p, sizeof p, "{marker_dir}/uid-%d", (int)getuid());'
                ' FILE *f = fopen(p, "a"); if (f) { fputs("x\\n", f); fclose(f); } }\n')
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", lib, src], check=True)
    os.chmod(lib, 0o755)
    j = job("env", [task("t", "exec", {"command": "/bin/sh", "args": ["-c", "echo FOO=$FOO"]},
                         Env={"LD_PRELOAD": lib, "FOO": "bar"})])
    code, text = agent.register(j)
    allocs = agent.wait_terminal("env") if code == 200 else []
    root_marker = os.path.exists(os.path.join(marker_dir, "uid-0"))
    report("env", "LD_PRELOAD in an exec task's env", code == 200 and not root_marker,
           f"register {code}; markers: {sorted(os.listdir(marker_dir))}")
    if allocs:
        code, out = agent.get(f"/v1/client/fs/logs/{allocs[0]['ID']}?task=t&type=stdout&plain=true")
        report("env", "the task still gets its env", "FOO=bar" in out, f"stdout {out.strip()[:60]!r}")


def attack_java(agent, work):
    classes = os.path.join(work, "java")
    os.makedirs(classes)
    with open(os.path.join(classes, "Who.java"), "w") as f:
        f.write('public class Who { public static void main(String[] a) throws Exception {'
                ' for (String l : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status")))'
                ' if (l.startsWith("Uid:")) System.out.println(l); } }\n')
    subprocess.run(["javac", "-d", classes, os.path.join(classes, "Who.java")], check=True)
    for p in [work, classes, os.path.join(classes, "Who.class")]:
        os.chmod(p, 0o755)
    j = job("java", [task("t", "java", {"class": "Who", "class_path": classes})])
    code, text = agent.register(j)
    allocs = agent.wait_terminal("java") if code == 200 else []
    out = ""
    if allocs:
        _, out = agent.get(f"/v1/client/fs/logs/{allocs[0]['ID']}?task=t&type=stdout&plain=true")
    uid = out.split()[1] if out.startswith("Uid:") else "?"
    report("java", "a java task's uid by default", uid not in ("0", "?"), f"register {code}; {out.strip()!r}")
    j = job("java-root", [task("t", "java", {"class": "Who", "class_path": classes, "user": "root"})])
    code, text = agent.register(j)
    report("java", "user = root without the operator's leave", code == 400, f"{code} {text[:120]!r}")


def raw(agent, data, read=True):
    with socket.create_connection(("127.0.0.1", agent.port), timeout=10) as s:
        s.sendall(data)
        if not read:
            return b""
        out = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                out += chunk
        except socket.timeout:
            pass
        return out


def attack_http(agent, work):
    body = json.dumps({"Job": job("csrf", [task("t")])}).encode()
    cases = {
        "text/plain from a foreign Origin": {"Content-Type": "text/plain", "Origin": "http://evil.example"},
        "text/plain, no Origin": {"Content-Type": "text/plain"},
        "JSON from a foreign Origin": {"Content-Type": "application/json", "Origin": "http://evil.example"},
        "JSON with a rebound Host": {"Content-Type": "application/json", "Host": "evil.example"},
    }
    for label, headers in cases.items():
        host = headers.pop("Host", f"127.0.0.1:{agent.port}")
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        resp = raw(agent, (f"PUT /v1/jobs HTTP/1.1\r\nHost: {host}\r\n{head}Content-Length: {len(body)}\r\n"
                           f"Connection: close\r\n\r\n").encode() + body)
        status = resp.split(b"\r\n", 1)[0].decode(errors="replace")
        report("http", label, b" 200 " not in status.encode() and " 200" not in status, status)
    code, listing = agent.get("/v1/jobs")
    report("http", "nothing registered by those", "csrf" not in listing, f"GET /v1/jobs {code}")
    resp = raw(agent, f"GET /v1/jobs HTTP/1.1\r\nHost: evil.example:{agent.port}\r\nConnection: close\r\n\r\n"
               .encode())
    report("http", "a read with a rebound Host", b" 200 " not in resp.split(b"\r\n", 1)[0] + b" ",
           resp.split(b"\r\n", 1)[0].decode(errors="replace"))


def attack_slow(agent, work):
    socks = []
    try:
        for _ in range(40):
            s = socket.create_connection(("127.0.0.1", agent.port), timeout=5)
            s.sendall(b"GET /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            socks.append(s)
        for _ in range(600):
            try:
                socks.append(socket.create_connection(("127.0.0.1", agent.port), timeout=5))
            except OSError:
                break
        t0 = time.time()
        try:
            code, _ = agent.get("/v1/jobs")
        except OSError as e:
            code = str(e)
        took = time.time() - t0
        report("slow", f"a request beside 40 slow-header and {len(socks) - 40} idle connections",
               code == 200 and took < 3, f"{code} in {took:.2f}s")
    finally:
        for s in socks:
            s.close()


def attack_caps(agent, work):
    tasks = [task(f"t{i}", config={"run_for": "1h"}) for i in range(20)]
    t0 = time.time()
    code, text = agent.register(job("caps", tasks, count=10000))
    report("caps", "10,000 allocations x 20 tasks", code == 400, f"{code} in {time.time() - t0:.1f}s "
                                                                  f"{text[:120]!r}")


def attack_terminal(agent, work):
    evil = "\x1b]0;pwned\x07\x1b[2J\rFAKE LINE"
    j = job("term", [task("t", config={"run_for": "10ms", "exit_code": 3, "exit_err_msg": evil})])
    agent.register(j)
    allocs = agent.wait_terminal("term")
    if not allocs:
        report("terminal", "escape sequences in an event message", False, "no allocation")
        return
    env = dict(os.environ, DROVER_ADDR=agent.base)
    out = subprocess.run([DROVER, "alloc", "status", "-verbose", allocs[0]["ID"]], capture_output=True,
                         env=env, timeout=60)
    both = out.stdout + out.stderr
    report("terminal", "alloc status with ESC/CR in an event message", b"\x1b" not in both and b"\r" not in both,
           f"exit {out.returncode}, ESC bytes: {both.count(ESC)}")
    out = subprocess.run([DROVER, "job", "status"], capture_output=True, env=env, timeout=60)
    report("terminal", "job status", b"\x1b" not in out.stdout + out.stderr, f"exit {out.returncode}")


def plugin_agent(work, name, prepare):
    """An agent whose plugin_dir is a copy of plugins/dist that `prepare(pdir)` then changed."""
    pdir = os.path.join(work, f"plugins-{name}")
    os.makedirs(pdir)
    os.chmod(pdir, 0o755)
    for jar in os.listdir(os.path.join(ROOT, "plugins", "dist")):
        shutil.copy(os.path.join(ROOT, "plugins", "dist", jar), pdir)
    prepare(pdir)
    return pdir, Agent(work, plugin_dir=pdir, data_dir=os.path.join(work, f"pdata-{name}"))


def plant_bomb(pdir):
    with zipfile.ZipFile(os.path.join(pdir, "bomb.jar"), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nPlugin-Id: bomb\nPlugin-Version: 1.0.0\n\n")
        with z.open("META-INF/extensions.idx", "w", force_zip64=True) as e:
            chunk = b"\n" * (1 << 20)
            for _ in range(600):  # 600 MiB of newlines, about 0.6 MB deflated
                e.write(chunk)


def plant_writable(pdir):
    writable = os.path.join(pdir, "writable.jar")
    os.rename(os.path.join(pdir, sorted(j for j in os.listdir(pdir) if "mock" in j)[0]), writable)
    os.chmod(writable, 0o666)


def attack_plugins(work):
    pdir, agent = plugin_agent(work, "bomb", plant_bomb)
    try:
        up = agent.wait_ready(90)
        log = agent.output()
        report("plugins", "a zip-bomb extensions.idx", up and "bomb.jar" in log and "Exception" not in log,
               f"agent up: {up}; bomb named: {'bomb.jar' in log}")
    finally:
        agent.stop()
    pdir, agent = plugin_agent(work, "writable", plant_writable)
    try:
        agent.wait_ready(90)
        code, body = agent.get("/v1/plugins")
        loaded = [p for p in json.loads(body) if isinstance(p, dict) and str(p.get("Path", "")).endswith(
            "writable.jar") and str(p.get("Health", "")).startswith("heal")] if code == 200 else []
        report("plugins", "a 0666 JAR", not loaded,
               f"loaded and healthy: {bool(loaded)}; named in the log: {'writable.jar' in agent.output()}")
    finally:
        agent.stop()
    pdir, agent = plugin_agent(work, "nobody", lambda d: os.chown(d, NOBODY.pw_uid, NOBODY.pw_gid))
    try:
        agent.wait_ready(90)
        code, body = agent.get("/v1/plugins")
        loaded = [p for p in json.loads(body) if isinstance(p, dict) and pdir in str(p.get("Path", ""))
                  and str(p.get("Health", "")).startswith("heal")] if code == 200 else []
        report("plugins", "a plugin_dir owned by nobody", not loaded,
               f"{len(loaded)} healthy drivers loaded from it; {code} {body[:160]!r}")
    finally:
        agent.stop()


def attack_datadir(work):
    data = os.path.join(work, "dd")
    os.makedirs(os.path.join(data, "state"))
    os.chmod(data, 0o1777)
    os.chown(os.path.join(data, "state"), NOBODY.pw_uid, NOBODY.pw_gid)
    agent = Agent(work, data_dir=data)
    rc = agent.wait_exit(90)
    report("datadir", "a state/ owned by nobody", rc not in (None, 0), f"agent exit {rc}: "
                                                                       f"{agent.output().strip()[-160:]!r}")
    agent.stop()
    data = os.path.join(work, "dd2")
    agent = Agent(work, data_dir=data)
    agent.wait_ready(90)
    agent.register(job("kept", [task("t")]))
    agent.wait_terminal("kept")
    agent.stop()
    state = os.path.join(data, "state")
    moved = os.path.join(work, "moved")
    os.makedirs(moved)
    for f in os.listdir(state):
        if "journal" in f:
            shutil.move(os.path.join(state, f), moved)
    agent = Agent(work, data_dir=data)
    ready = agent.wait_ready(60)
    if ready:
        allocs = agent.allocs("kept")
        report("datadir", "the journal moved away", bool(allocs), f"agent started with {len(allocs)} allocs")
    else:
        report("datadir", "the journal moved away", True, f"agent refused: {agent.output().strip()[-160:]!r}")
    agent.stop()


def attack_tokens(work):
    for label, token in {"empty": "", "blank": " ", "one character": "x"}.items():
        agent = Agent(work, extra_config=f'acl {{ token = "{token}" }}', data_dir=os.path.join(work, f"t{label}"))
        rc = agent.wait_exit(90)
        report("tokens", f"acl token {label}", rc not in (None, 0), f"agent exit {rc}")
        agent.stop()


AGENT_CLASSES = {"names": attack_names, "links": attack_links, "env": attack_env, "java": attack_java,
                 "http": attack_http, "slow": attack_slow, "terminal": attack_terminal, "caps": attack_caps}
OWN_AGENT_CLASSES = {"plugins": attack_plugins, "datadir": attack_datadir, "tokens": attack_tokens}


def main(argv):
    wanted = argv or list(AGENT_CLASSES) + list(OWN_AGENT_CLASSES)
    if not os.path.exists(os.path.join(ROOT, "plugins", "dist")):
        subprocess.run([DROVER, "--help"], capture_output=True, timeout=900)
    work = tempfile.mkdtemp(prefix="drover-attack-")
    os.chmod(work, 0o755)
    try:
        agent_classes = [c for c in wanted if c in AGENT_CLASSES]
        if agent_classes:
            agent = Agent(work)
            try:
                if not agent.wait_ready(120):
                    print("the agent did not start:\n" + agent.output())
                    return 100
                for c in agent_classes:
                    try:
                        AGENT_CLASSES[c](agent, work)
                    except Exception as e:  # an attack that breaks the agent is a finding too
                        report(c, "the attack itself", False, f"{type(e).__name__}: {e}")
                code, _ = agent.get("/v1/jobs")
                report("agent", "still serving after the attacks", code == 200, f"GET /v1/jobs {code}")
            finally:
                agent.stop()
        for c in wanted:
            if c in OWN_AGENT_CLASSES:
                try:
                    OWN_AGENT_CLASSES[c](work)
                except Exception as e:
                    report(c, "the attack itself", False, f"{type(e).__name__}: {e}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    holes = sum(1 for r in results if not r[2])
    print(f"{len(results) - holes} held, {holes} holes")
    return holes


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
