"""A torch file from outside cannot make its reader allocate more than the file holds
(agents/ppo/torch_file.py): a policy file of a few kB whose tensors are expanded views (stride 0),
views sharing one storage, or compressed records (a zip bomb) is refused with a ValueError
naming the file, in well under a second and before any network is built, by every reader of
policy files (`load_policy`, `agents.load`, policy tables, league entries, `train.soup`,
`train.ppo --init`) and by the checkpoint reader (`--resume`, `train.export_policy`)."""

from __future__ import annotations

import time
import zipfile

import pytest
import torch

import agents
from agents.ppo import file as ppo_file
from agents.ppo.by_players import FORMAT as TABLE_FORMAT
from agents.ppo.by_players import PPOByPlayers
from agents.ppo.file import FORMAT, load_policy, parameter_shapes, save_policy
from agents.ppo.net import PolicyNet
from agents.ppo.torch_file import load_torch_file
from noir_env.game import get_game
from train import soup as soup_cli
from train.league import load_member
from train.ppo_args import Args, check_init
from train.ppo_run import CHECKPOINT_KEYS, read_checkpoint

WIDE = {"obs_size": 8, "num_actions": 4, "hidden": [8192, 8192], "game": "noir"}  # 67M weights
DEEP = {"obs_size": 8, "num_actions": 4, "hidden": [512] * 16, "game": "noir"}  # 16 x 512 x 512
BOMB = {"obs_size": 8, "num_actions": 4, "hidden": [2048, 2048], "game": "noir"}  # 4M weights
FAST_S = 2.0  # a refusal reads the archive's directory and the pickle: milliseconds


def expanded_policy(path, config) -> None:
    """A policy file whose every tensor is a one-element storage expanded to the config's
    shape: a few kB on the disk, tens of millions of parameters once materialized."""
    state = {name: torch.ones(1, dtype=torch.float16).expand(shape).reshape(shape)
             if shape else torch.tensor(1.0)
             for name, shape in parameter_shapes(config).items()}  # fmt: skip
    assert any(t.stride() and 0 in t.stride() for t in state.values())
    torch.save({"format": FORMAT, "config": config, "state_dict": state}, path)


def shared_storage_policy(path, config) -> None:
    """Contiguous tensors that all view one storage (as large as the largest tensor): the
    file holds it once, the tensors together many times over."""
    shapes = parameter_shapes(config)
    base = torch.ones(max(torch.Size(s).numel() for s in shapes.values()), dtype=torch.float16)
    state = {name: base[: torch.Size(s).numel()].view(s) for name, s in shapes.items()}
    torch.save({"format": FORMAT, "config": config, "state_dict": state}, path)


def zip_bomb_policy(path, config) -> None:
    """A sound policy file of the config's size whose records are then deflated: the zeros
    compress a thousandfold."""
    net_state = {name: torch.zeros(shape, dtype=torch.float16)
                 for name, shape in parameter_shapes(config).items()}  # fmt: skip
    net_state["obs_var"] = torch.ones(config["obs_size"])
    net_state["obs_count"] = torch.tensor(1.0)
    plain = path.with_suffix(".plain")
    torch.save({"format": FORMAT, "config": config, "state_dict": net_state}, plain)
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(path, "w") as out:
        for record in src.infolist():
            out.writestr(record.filename, src.read(record), zipfile.ZIP_DEFLATED)
    plain.unlink()


# kind -> (how to write it, its config, the file's most bytes, what the error says)
CRAFTED = {
    "expanded views": (expanded_policy, WIDE, 10_000, "not contiguous ones"),
    "shared storage": (shared_storage_policy, DEEP, 600_000, "tensors that share their storage"),
    "zip bomb": (zip_bomb_policy, BOMB, 20_000, "is compressed"),
}


@pytest.fixture
def no_net_built(monkeypatch):
    """Fails the test if a policy reader builds a net (it must refuse before)."""

    def refuse(*args, **kwargs):
        raise AssertionError("a net was built for a file that cannot hold it")

    monkeypatch.setattr(ppo_file, "PolicyNet", refuse)


def _table(folder, policy) -> str:
    table = folder / "table.json"
    table.write_text(f'{{"format": "{TABLE_FORMAT}", "policies": '
                     f'{{"3": "{policy.name}", "4": "{policy.name}", "5": "{policy.name}", '
                     f'"6": "{policy.name}"}}}}')  # fmt: skip
    return str(table)


def _soup(path, folder):
    good = folder / "good.pt"
    save_policy(PolicyNet(8, 4, (16,)), good)
    with pytest.raises(SystemExit) as exit_info:
        soup_cli.main([str(path), str(good), "--out", str(folder / "soup.pt")])
    assert exit_info.value.code == 2
    raise ValueError("exit 2")  # what the CLI printed is checked by the test below


READERS = {
    "load_policy": lambda path, folder: load_policy(path),
    "agents.load": lambda path, folder: agents.load(str(path)),
    "policy table": lambda path, folder: PPOByPlayers(_table(folder, path)),
    "league entry": lambda path, folder: load_member(str(path)),
    "--init": lambda path, folder: check_init(Args(init=str(path)), get_game("noir")),
    "train.soup": _soup,
}


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("kind", CRAFTED)
def test_a_small_file_claiming_a_large_net_is_refused_at_once(kind, reader, tmp_path,
                                                              no_net_built, capsys):  # fmt: skip
    make, config, most, says = CRAFTED[kind]
    path = tmp_path / "policy.pt"
    make(path, config)
    size = sum(torch.Size(s).numel() for s in parameter_shapes(config).values())
    assert path.stat().st_size <= most < size  # fewer bytes than the net has weights
    start = time.perf_counter()
    with pytest.raises(ValueError) as err:
        READERS[reader](path, tmp_path)
    assert time.perf_counter() - start < FAST_S
    shown = capsys.readouterr().err if reader == "train.soup" else str(err.value)
    assert str(path) in shown and says in shown, shown
    assert len(shown.strip().splitlines()) == 1


def test_a_crafted_checkpoint_is_refused_at_once(tmp_path):
    path = tmp_path / "checkpoint.pt"
    crafted = dict.fromkeys(CHECKPOINT_KEYS, 0)  # every key a checkpoint has
    torch.save(crafted | {"net": {"w": torch.zeros(1).expand(1 << 20, 1 << 12)}}, path)
    start = time.perf_counter()
    with pytest.raises(ValueError, match="checkpoint.pt: not a sound checkpoint: .* strides"):
        read_checkpoint(path)
    assert time.perf_counter() - start < FAST_S


def with_pickle(path, pickled: bytes) -> None:
    """Replace the pickle of the torch file at `path` (its other records kept)."""
    with zipfile.ZipFile(path) as src:
        records = {r.filename: src.read(r) for r in src.infolist()}
    with zipfile.ZipFile(path, "w") as out:
        for name, data in records.items():
            out.writestr(name, pickled if name.endswith("/data.pkl") else data)


def test_a_deeply_nested_object_is_walked_without_recursion(tmp_path):
    path = tmp_path / "deep.pt"
    torch.save([], path)
    depth = 100_000  # far deeper than Python's recursion limit (the unpickler keeps a stack)
    with_pickle(path, b"\x80\x02" + b"]" * (depth + 1) + b"a" * depth + b".")
    nested = load_torch_file(path, "torch file")
    assert isinstance(nested, list) and len(nested) == 1


def test_sound_files_still_load_and_odd_strides_do_not(tmp_path):
    net = PolicyNet(8, 4, (16, 8))
    save_policy(net, tmp_path / "p.pt")
    assert load_policy(tmp_path / "p.pt").config == net.config
    # strides that are not the contiguous ones along a dimension of size 1: nothing is held
    # twice, but the checksum's view of the tensor as bytes would fail on them
    odd = torch.zeros(3, 1, 4).as_strided((3, 1, 4), (4, 99, 1))
    torch.save({"t": odd}, tmp_path / "odd.pt")
    with pytest.raises(ValueError, match=r"strides \(4, 99, 1\), not contiguous ones"):
        load_torch_file(tmp_path / "odd.pt", "torch file")
    torch.save({"t": torch.zeros(2, 0, 3), "u": torch.tensor(1.0)}, tmp_path / "empty.pt")
    assert load_torch_file(tmp_path / "empty.pt", "torch file")["t"].shape == (2, 0, 3)


def test_a_damaged_archive_and_a_float8_tensor_are_value_errors(tmp_path):
    path = tmp_path / "p.pt"
    save_policy(PolicyNet(8, 4, (16,)), path)
    raw = bytearray(path.read_bytes())
    central = raw.index(b"PK\x01\x02")
    raw[central + 6] = 132  # "version needed to extract": 13.2, which zipfile cannot read
    path.write_bytes(bytes(raw))
    with pytest.raises(ValueError, match="p.pt: not a readable policy file: a damaged zip"):
        load_policy(path)
    state = {name: torch.zeros(shape) for name, shape in parameter_shapes(WIDE | {
        "hidden": [4]}).items()}  # fmt: skip
    state["body.0.weight"] = state["body.0.weight"].to(torch.float8_e4m3fn)
    torch.save({"format": FORMAT, "config": WIDE | {"hidden": [4]}, "state_dict": state}, path)
    with pytest.raises(ValueError, match="'body.0.weight' is torch.float8_e4m3fn, not floating"):
        load_policy(path)
