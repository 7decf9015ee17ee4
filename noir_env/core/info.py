"""What the decision of NOIR's agent to act is about, as noir_v2's infos show it (`turn_of`,
`window`, `attack`, `queue`, `reaction`, ...; see "Reaction windows" in noir_v2's docstring),
read from views of one game's fields."""

from __future__ import annotations

from typing import Any

from . import constants as C
from .names import TARGET_NAMES

_TARGET_NAMES = TARGET_NAMES

# the fields `decision_info` reads: views of one game's fields (`f`) and [1]-arrays of its
# scalar fields (`f1`)
INFO_FIELDS: tuple[str, ...] = ("atk_g", "biz", "ho_top", "rq_kind", "rq_player", "rq_tp", "rq_ts")
INFO_FIELDS += ("rq_standing", "rq_dice", "rq_power")
INFO_SCALARS = (
    "phase",
    "active",
    "sel_a",
    "sel_b",
    "win_kind",
    "win_owner",
    "atk_player",
    "atk_slot",
    "rq_n",
    "rt_kind",
)


def decision_info(ph: str, f1, f, names: list[str]) -> dict:
    """What the decision of the agent to act is about (`ph`: the phase's name)."""
    info: dict[str, Any] = {"phase": ph, "turn_of": names[f1["active"][0]]}
    phase = f1["phase"][0]
    if phase == C.PH_MOVE_TO or phase == C.PH_DEPLOY_TO:
        info["selected_power"] = int(f1["sel_a"][0]) + 1
    win = f1["win_kind"][0]
    if win != C.WIN_NONE:
        info["window"] = C.WINDOW_NAMES[win]
        info["window_owner"] = names[f1["win_owner"][0]]
    if f1["atk_player"][0] >= 0:
        info["attack"] = _attack_info(f1, f, names)
    if f1["rq_n"][0] > 0:
        info["queue"] = _queue_info(f, int(f1["rq_n"][0]), names)
    if phase == C.PH_REACT_TARGET or phase == C.PH_TURNCOAT_POWER:
        info["reaction"] = C.PLAY_NAMES[f1["rt_kind"][0]]
        if phase == C.PH_TURNCOAT_POWER:
            info["turncoat_target"] = {
                "player": names[f1["sel_a"][0]],
                "place": _TARGET_NAMES[f1["sel_b"][0]],
            }
    return info


def _queue_info(f, n: int, names: list[str]) -> list[dict]:
    """The reactions waiting in the window, in the order they will act (R5.3)."""
    out = []
    for k in range(n):
        kind = int(f["rq_kind"][k])
        entry = {
            "card": k + 1,
            "kind": C.QUEUE_NAMES[kind],
            "player": names[f["rq_player"][k]],
            "target": names[f["rq_tp"][k]],
            "place": _TARGET_NAMES[f["rq_ts"][k]],
        }
        if kind == C.RQ_DRIVEBY:
            entry["dice"] = int(f["rq_dice"][k])
        elif kind == C.RQ_TURNCOAT:
            entry["power"] = int(f["rq_power"][k]) + 1
        elif kind == C.RQ_POKER:
            del entry["target"], entry["place"]  # a host, no target
        else:
            entry["standing"] = bool(f["rq_standing"][k])
        out.append(entry)
    return out


def _attack_info(f1, f, names) -> dict:
    t = int(f1["atk_slot"][0])
    q = int(f1["atk_player"][0])
    counts = f["atk_g"].tolist()
    biz = f["biz"]
    business = None
    if t < C.NUM_SLOTS and biz[q, t] > 0:
        business = C.BUSINESS_NAMES[biz[q, t] - 1]
    elif t == C.TGT_HIDEOUT and f["ho_top"][q] >= 0:
        business = C.BUSINESS_NAMES[biz[q, f["ho_top"][q]] - 1]
    return {
        "attacker": names[f1["active"][0]],
        "target": names[q],
        "place": _TARGET_NAMES[t],
        "business": business,
        "attackers": counts,
        "power": counts[0] + 2 * counts[1] + 3 * counts[2] + 4 * counts[3],
    }
