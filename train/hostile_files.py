# mypy: disable-error-code="misc"
# (the variants are lambdas binding their loop values as defaults, whose types mypy does
# not infer)
"""The hostile probes of the readers of files above the games (`noir_env.hostile` has the
games' own): policy files (`load_policy`, `agents.load`), policy tables, train.ppo
checkpoints (`read_checkpoint`, behind `--resume` and `train.export_policy`) and saved game
histories (`load_history` + `play_back`, behind `train.replay`). Each is derived from a real
file written in a scratch folder: pickles with payloads (a marker file is written if one
runs), stride-0 expanded tensors, huge shapes in a tiny file, truncated and garbled archives,
wrong dtypes, a missing or edited checksum, NaN and inf weights, every config and table
field given a hostile value, and hostile paths in tables.
"""

from __future__ import annotations

import json
import math
import pickle
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from noir_env.game import get_game
from noir_env.hostile.games import pickle_payload
from noir_env.hostile.outcomes import Probe
from noir_env.hostile.values import code_payload, text_variants, variants

GAME = "district_noir"  # the policies' game: a small observation, quick to play
HIDDEN = (16,)
PLAY_EDGES = [-1, 2**31, 2**63, 10**9]  # config integers: negative, past int32/int64, huge


def _write_torch(path: Path, data: Any) -> Path:
    torch.save(data, path)
    return path


def _with_record(src: Path, dst: Path, name_end: str, content: bytes | None) -> Path:
    """A copy of the torch archive `src` whose record ending in `name_end` is replaced by
    `content` (None: left out)."""
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst, "w") as b:
        for record in a.infolist():
            if record.filename.endswith(name_end):
                if content is not None:
                    b.writestr(record, content)
            else:
                b.writestr(record, a.read(record))
    return dst


def _bytes_file(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def archive_variants(real: Path, folder: Path, marker: str) -> list[tuple[str, Callable]]:
    """Hostile variants of any torch archive: payload pickles, truncations, garbage."""
    raw = real.read_bytes()

    class System:  # a payload by os.system, as published exploits of torch.load use
        def __reduce__(self):
            import os

            return (os.system, (f"touch {marker}",))

    def out(name: str) -> Path:
        return folder / f"{name}.pt"

    made: list[tuple[str, Callable]] = [
        ("plain pickle with a payload", lambda: _bytes_file(out("p1"), pickle_payload(marker))),
        ("data.pkl replaced by a payload",
         lambda: _with_record(real, out("p2"), "data.pkl", pickle_payload(marker))),
        ("data.pkl replaced by an os.system payload",
         lambda: _with_record(real, out("p3"), "data.pkl", pickle.dumps(System(), protocol=2))),
        ("data.pkl left out", lambda: _with_record(real, out("p4"), "data.pkl", None)),
        ("a tensor's storage left out", lambda: _with_record(real, out("p5"), "data/0", None)),
        ("a tensor's storage emptied", lambda: _with_record(real, out("p6"), "data/0", b"")),
        ("empty file", lambda: _bytes_file(out("e"), b"")),
        ("random bytes", lambda: _bytes_file(out("r"), np.random.default_rng(0).bytes(4096))),
        ("JSON text", lambda: _bytes_file(out("j"), b'{"format": "noir-ppo/1"}')),
        ("a folder", lambda: _folder(out("d"))),
        ("no file", lambda: out("missing")),
    ]  # fmt: skip
    for cut in sorted({22, len(raw) // 10, len(raw) // 2, len(raw) * 9 // 10, len(raw) - 1}):
        made.append((f"truncated to {cut} bytes",
                     lambda cut=cut: _bytes_file(out(f"t{cut}"), raw[:cut])))  # fmt: skip
    rng = np.random.default_rng(1)
    for at in rng.integers(0, len(raw), 4).tolist():
        garbled = raw[:at] + bytes([raw[at] ^ 0xFF]) + raw[at + 1 :]
        made.append((f"byte {at} flipped", lambda at=at, g=garbled: _bytes_file(out(f"g{at}"), g)))
    return made


def _folder(path: Path) -> Path:
    path.mkdir(exist_ok=True)
    return path


def _policy_data(folder: Path) -> tuple[Path, dict]:
    from agents.ppo.file import save_policy
    from agents.ppo.net import PolicyNet

    game = get_game(GAME)
    real = folder / "real.pt"
    save_policy(PolicyNet(game.obs_size, game.num_actions, HIDDEN, game=GAME), real)
    return real, torch.load(real, weights_only=True)


def policy_variants(folder: Path, marker: str) -> list[tuple[str, Callable[[], Path]]]:
    """(label, write the file and return its path) of every hostile policy file."""
    from agents.ppo.file import parameter_shapes, policy_checksum

    real, data = _policy_data(folder)
    state, config = data["state_dict"], data["config"]
    made = archive_variants(real, folder, marker)
    n = [0]

    def save(label: str, edit: Callable[[dict], Any], checksum: bool = False) -> None:
        def make() -> Path:
            new = {**data, "state_dict": dict(state), "config": dict(config)}
            edit(new)
            if checksum:
                new["sha256"] = policy_checksum(new["config"], new["state_dict"])
            else:
                new.pop("sha256", None)
            n[0] += 1
            return _write_torch(folder / f"v{n[0]}.pt", new)

        made.append((label, make))

    big = {**config, "hidden": [8192, 8192]}
    save("huge shapes as expanded views in a tiny file",
         lambda d: d.update(config=big, state_dict={k: _expanded(s)
                            for k, s in parameter_shapes(big).items()}))  # fmt: skip
    save("a tensor expanded (stride 0)",
         lambda d: d["state_dict"].update({"pi.bias": torch.zeros(1).expand(state["pi.bias"].shape)}))  # fmt: skip  # noqa: E501
    for dtype in (torch.int64, torch.bool, torch.complex64, torch.uint8, torch.float8_e4m3fn):
        save(f"weights of dtype {dtype}",
             lambda d, dt=dtype: d["state_dict"].update({k: v.to(dt) for k, v in state.items()}))  # fmt: skip  # noqa: E501
    save("checksum missing", lambda d: None)
    save("checksum edited", lambda d: None, checksum=False)
    made[-1] = ("checksum edited", _edited_checksum(data, folder / "sum.pt"))
    made.append(("a weight edited after the checksum", _edited_weight(data, folder / "w.pt")))
    for bad in (math.nan, math.inf):
        save(f"a weight {bad}, checksum matching", lambda d, b=bad: d["state_dict"].update(
            {"pi.bias": torch.full_like(state["pi.bias"], b)}), checksum=True)  # fmt: skip
    save("a negative variance", lambda d: d["state_dict"].update(
        {"obs_var": -torch.ones_like(state["obs_var"])}), checksum=True)  # fmt: skip
    save("a tensor missing", lambda d: d["state_dict"].pop("pi.bias"))
    save("an extra tensor", lambda d: d["state_dict"].update({"extra": torch.ones(3)}))
    save("a tensor of another shape", lambda d: d["state_dict"].update({"pi.bias": torch.ones(2)}))
    save("a tensor as a list", lambda d: d["state_dict"].update({"pi.bias": [1.0, 2.0]}))
    save("the format edited", lambda d: d.update(format="noir-ppo/9"))
    itself = folder / f"v{n[0] + 1}.pt"  # the file the next `save` writes
    save("a prior naming the file itself", lambda d: d.update(
        config={**config, "prior": str(itself)}, state_dict={**state, "prior_weight": torch.tensor(0.5)}))  # fmt: skip  # noqa: E501
    save("a prior naming a folder", lambda d: d.update(
        config={**config, "prior": str(folder)}, state_dict={**state, "prior_weight": torch.tensor(0.5)}))  # fmt: skip  # noqa: E501
    for v in variants(config, PLAY_EDGES, marker):
        if v.label.startswith(("deep", "huge")):  # torch.save cannot pickle them / too big
            continue
        save(f"config {v.where()} {v.label}", lambda d, v=v: d.update(config=v.build(config)))
    return made


def _expanded(shape: tuple[int, ...]) -> torch.Tensor:
    """One stored value viewed as a tensor of `shape` (stride 0): bytes in the file, a
    whole tensor once copied."""
    return torch.ones(1).expand(shape) if shape else torch.tensor(1.0)


def _edited_checksum(data: dict, path: Path) -> Callable[[], Path]:
    return lambda: _write_torch(path, {**data, "sha256": "0" * 64})


def _edited_weight(data: dict, path: Path) -> Callable[[], Path]:
    state = dict(data["state_dict"])
    state["pi.bias"] = state["pi.bias"] + 1
    return lambda: _write_torch(path, {**data, "state_dict": state})


def _plays_policy(net: Any) -> None:
    game = get_game(GAME)
    state = game.init(2, seeds=0)
    logits = net(torch.as_tensor(game.observe(state)))
    tensors = logits if isinstance(logits, tuple) else (logits,)
    assert all(torch.isfinite(t).all() for t in tensors), "the net's outputs are not finite"


def _plays_agent(agent: Any) -> None:
    game = get_game(GAME)
    state = game.init(2, seeds=0)
    mask = game.legal_action_mask(state)
    actions = agent.act(game.observe(state), mask)
    assert all(mask[i, a] for i, a in enumerate(actions)), "the agent chose an illegal action"


def policy_probes(folder: Path, marker: str) -> list[Probe]:
    """Every hostile policy file for `load_policy` and for `agents.load`."""
    import agents
    from agents.ppo.file import load_policy

    out = []
    for label, make in policy_variants(folder, marker):
        out.append(Probe("policy file (load_policy)", label, make, load_policy, _plays_policy))
        out.append(Probe("policy file (agents.load)", label, make,
                         lambda p: agents.load(str(p)), _plays_agent))  # fmt: skip
    return out


def table_probes(folder: Path, marker: str) -> list[Probe]:
    """Hostile policy tables: every field of a real one, hostile names, hostile bytes."""
    from agents.ppo.by_players import FORMAT, PPOByPlayers
    from agents.ppo.file import save_policy
    from agents.ppo.net import PolicyNet

    noir = get_game("noir")
    sub = folder / "table"
    sub.mkdir(exist_ok=True)
    save_policy(PolicyNet(noir.obs_size, noir.num_actions, HIDDEN, game="noir"), sub / "p.pt")
    (folder / "outside.pt").write_bytes((sub / "p.pt").read_bytes())
    policies: dict[str, str] = {str(k): "p.pt" for k in range(3, 7)}
    real: dict[str, Any] = {"format": FORMAT, "policies": policies}
    n = [0]

    def table(text: Any) -> Path:
        n[0] += 1
        path = sub / f"t{n[0]}.json"
        path.write_bytes(text if isinstance(text, bytes) else str(text).encode("utf-8", "replace"))
        return path

    made: list[tuple[str, Callable[[], Path]]] = []
    for v in variants(real, PLAY_EDGES, marker):
        if not v.label.startswith("deep"):
            made.append((f"{v.where()} {v.label}", lambda v=v: table(json.dumps(v.build(real)))))
    text = json.dumps(real)
    made += [(label, lambda m=m: table(m() if m() is not None else b""))
             for label, m in text_variants(text, code_payload(marker))]  # fmt: skip
    names = ["../outside.pt", str(folder / "outside.pt"), "/etc/passwd", "p.pt\x00x", "x" * 5000,
             ".", "", "t1.json", "missing.pt", "~/p.pt", "C:\\p.pt", "./../table/p.pt"]  # fmt: skip
    link = sub / "link.pt"
    if not link.exists():
        link.symlink_to(folder / "outside.pt")
    names.append("link.pt")
    for name in names:
        edited = {**policies, "4": name}
        made.append((f"policy name {name[:40]!r}",
                     lambda p=edited: table(json.dumps({**real, "policies": p}))))  # fmt: skip

    def plays(agent: Any) -> None:
        state = noir.init(2, seeds=0)
        mask = noir.legal_action_mask(state)
        actions = agent.act(noir.observe(state), mask)
        assert all(mask[i, a] for i, a in enumerate(actions)), "an illegal action"

    return [Probe("policy table", label, make, PPOByPlayers, plays) for label, make in made]


def checkpoint_probes(folder: Path, marker: str) -> list[Probe]:
    """Hostile train.ppo checkpoints for `read_checkpoint` (what --resume and
    train.export_policy read first) and for `train.export_policy`'s whole path."""
    from agents.ppo.net import PolicyNet
    from train.ppo_run import CHECKPOINT_KEYS, read_checkpoint

    from . import export_policy

    game = get_game(GAME)
    net = PolicyNet(game.obs_size, game.num_actions, HIDDEN, game=GAME)
    optimizer = torch.optim.Adam(net.parameters())
    real_data: dict[str, Any] = {
                 "net": net.state_dict(), "optimizer": optimizer.state_dict(), "snapshots": [],
                 "update": 3, "global_step": 100, "elapsed": 1.0, "py_rng": (3, (1,) * 625, None),
                 "np_rng": {"kind": "MT19937", "keys": torch.zeros(624, dtype=torch.int64),
                            "pos": 0, "has_gauss": 0, "cached_gaussian": 0.0},
                 "torch_rng": torch.get_rng_state(), "args": {}, "league": {}}  # fmt: skip
    assert set(real_data) >= CHECKPOINT_KEYS
    cdir = folder / "ckpt"
    cdir.mkdir(exist_ok=True)
    real = _write_torch(cdir / "real.pt", real_data)
    made = archive_variants(real, cdir, marker)
    for key in sorted(CHECKPOINT_KEYS):
        made.append((f"key {key} missing", lambda k=key: _write_torch(
            cdir / f"m_{k}.pt", {x: v for x, v in real_data.items() if x != k})))  # fmt: skip
    made.append(("net tensors expanded to huge shapes", lambda: _write_torch(cdir / "big.pt", {
        **real_data, "net": {k: _expanded((8192, 8192)) for k in real_data["net"]}})))  # fmt: skip  # noqa: E501

    def export(path: Path) -> Any:
        run = folder / "run"
        run.mkdir(exist_ok=True)
        (run / "checkpoint.pt").write_bytes(path.read_bytes() if path.is_file() else b"")
        try:
            export_policy.main([str(run), "--out", str(folder / "exported.pt")])
        except SystemExit as stop:
            if stop.code == 2:
                raise ValueError("train.export_policy: exit 2") from None
            raise
        return None

    out = [Probe("checkpoint (read_checkpoint)", label, make, read_checkpoint, lambda c: None)
           for label, make in made]  # fmt: skip
    out += [Probe("checkpoint (export_policy)", label, make, export, lambda c: None)
            for label, make in made]  # fmt: skip
    return out


def history_file_probes(folder: Path, marker: str) -> list[Probe]:
    """Hostile saved histories for `load_history` + `play_back` (train.replay's reading)."""
    from noir_env.aec import GameAECEnv
    from noir_env.history import load_history, play_back

    env = GameAECEnv(GAME)
    env.reset(seed=0)
    for _ in range(10):
        env.step(int(np.flatnonzero(env.action_mask())[0]))
    text = json.dumps(env.history)
    hdir = folder / "histories"
    hdir.mkdir(exist_ok=True)
    n = [0]

    def write(value: Any) -> Path:
        n[0] += 1
        path = hdir / f"h{n[0]}.json"
        data = value if isinstance(value, bytes) else str(value or "").encode("utf-8", "replace")
        path.write_bytes(data)
        return path

    return [Probe("history file (train.replay)", label, lambda m=m: write(m()),
                  lambda p: play_back(load_history(p)), lambda e: None)
            for label, m in text_variants(text, code_payload(marker))]  # fmt: skip


FILE_READERS = {
    "policy files": policy_probes,
    "policy tables": table_probes,
    "checkpoints": checkpoint_probes,
    "history files": history_file_probes,
}


def file_probes(folder: str | Path, marker: str) -> list[Probe]:
    """Every hostile file probe, written under `folder` as each probe runs."""
    return [p for make in FILE_READERS.values() for p in make(Path(folder), marker)]
