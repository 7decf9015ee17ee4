"""Rule sets: the `Rules` dataclass, its presets, and the integer form the kernels read.

Every rule on which the three NOIR texts differ is a field (docs/RULES.md, section V, lists
them with their sources). `noirburg` (the printed rulebook) is the default.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

import numpy as np

from noir_env.engine.jit import kernel

from .._shown import shown
from . import constants as C

_BANK_TRIGGERS = {
    "off": C.BANK_TRIGGER_OFF,
    "short": C.BANK_TRIGGER_SHORT,
    "empty": C.BANK_TRIGGER_EMPTY,
}
_POKER_BOXED = {"never": 0, "after_countdown": 1, "always": 2}
_STEP_ORDERS = ("noirburg", "prep_first")
_HIDEOUT_ATTACKS = ("breach", "raze_first")
_WINDOW_STEPS = tuple(C.STEP_NAMES[: C.ST_END])  # a window before the end is R5.2(b)


@dataclass(frozen=True)
class Rules:
    """A NOIR rule set. Field comments name the rule in docs/RULES.md."""

    name: str = "noirburg"
    # R2.1: "noirburg" = Tribute, Move Gangsters, Attack, Deploy, Move Hideout, Discard, Draw;
    # "prep_first" = Tribute, Move Gangsters, Discard, Draw, Move Hideout, Attack, Deploy.
    step_order: str = "noirburg"
    restricted_first_round: bool = True  # R2.3: round 1 is Deploy, Move Hideout, Discard, Draw
    mulligan_max: int = 2  # R1.6: free mulligan of up to this many cards (0: none)
    discard_limit: int = 4  # R4.7: cards one may discard in the Discard step
    forced_discard_to_hand_limit: bool = False  # R4.7: must discard down to 6 (original)
    first_business_on_hideout: bool = True  # R4.5: a player's first business covers the Hideout
    hideout_attack: str = "breach"  # R3.6: "breach" (declared) or "raze_first" (original)
    destroy_strict: bool = False  # R3.3: business destroyed only if damage EXCEEDS its total
    turncoat_casino_for_4: bool = True  # R5.7: taking a power-4 gangster needs own Casino
    turncoat_hidden: bool = True  # R5.7: HIDDEN gangsters may be taken
    turncoat_attackers: bool = False  # R5.7: a pending attack's gangsters may be taken
    poker_first_round: bool = False  # R5.8: Poker Night playable in round 1
    poker_boxed: str = "after_countdown"  # R5.8: when a played Poker Night leaves the game
    money_win: bool = True  # R6.2: money win at the end of one's own turn
    war_win: bool = True  # R6.1: eliminating two players wins (else only last one standing)
    money_win_threshold: tuple[int, int, int, int] | None = None  # 3..6 players; None: > half
    trophy_points: int = 10  # R6.4: points per Hideout trophy
    countdown_tokens: int = 4  # R6.3
    countdown_on_hideout: bool = True  # R6.3 trigger 1
    countdown_on_bank: str = "short"  # R6.3 trigger 2: "short", "empty" or "off"
    countdown_on_third: bool = True  # R6.3 trigger 3
    countdown_starts_next_turn: bool = True  # R6.3: first token at the end of the NEXT turn
    attack_window: bool = True  # R5.2(a): reaction window after each attack declaration
    end_turn_window: bool = True  # R5.2(b): reaction window at the end of each turn
    # R5.2(d): a reaction window opens before each of these turn steps (C.STEP_NAMES)
    step_windows: tuple[str, ...] = ("attack",)
    hideout_gangsters_attack: bool = True  # R3.1: gangsters on the Hideout may attack
    poker_all_in: bool = False  # R5.8: a player with 1 coin stakes it (else needs 2)
    unplaced_discard_weakest: bool = False  # R4.2: returning gangsters placed strongest first
    away_discard: bool = False  # R4.2: a returning (HIDDEN) gangster may be discarded instead

    def __post_init__(self) -> None:
        """Reject a field of the wrong type or outside its meaningful range (ValueError /
        TypeError naming the field); numpy ints and bools are stored as Python ones."""
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"Rules.name must be a non-empty str, got {shown(self.name)}")
        for field, value, allowed in [
            ("step_order", self.step_order, _STEP_ORDERS),
            ("hideout_attack", self.hideout_attack, _HIDEOUT_ATTACKS),
            ("countdown_on_bank", self.countdown_on_bank, tuple(_BANK_TRIGGERS)),
            ("poker_boxed", self.poker_boxed, tuple(_POKER_BOXED)),
        ]:
            if not isinstance(value, str) or value not in allowed:
                raise ValueError(f"Rules.{field}={shown(value)} is not one of {allowed}")
        for f in dataclasses.fields(self):
            if f.type == "bool":
                self._set(f.name, _as_bool(getattr(self, f.name), f.name))
        for field, (lo, hi) in _INT_RANGES.items():
            self._set(field, _as_int_in(getattr(self, field), lo, hi, f"Rules.{field}"))
        windows = self.step_windows
        if not isinstance(windows, tuple | list) or any(w not in _WINDOW_STEPS for w in windows):
            raise ValueError(
                f"Rules.step_windows={shown(windows)}: a tuple of step names from {_WINDOW_STEPS}"
            )
        self._set("step_windows", tuple(windows))
        self._set("money_win_threshold", _thresholds(self.money_win_threshold))

    def _set(self, field: str, value) -> None:
        object.__setattr__(self, field, value)  # normalising a frozen instance's own field

    def replace(self, **changes) -> Rules:
        """A copy with some fields changed (`Rules.replace(end_turn_window=False)`)."""
        return dataclasses.replace(self, **changes)

    def money_threshold(self, num_players: int) -> int:
        """Coins a player must hold at the end of their own turn to win (R6.2)."""
        if self.money_win_threshold is not None:
            return self.money_win_threshold[num_players - 3]
        return int(total_money(num_players)) // 2 + 1  # "more than half"

    def kernel(self) -> RulesK:
        """The integer NamedTuple that numba kernels take."""
        return RulesK(
            prep_first=int(self.step_order == "prep_first"),
            restricted_first_round=int(self.restricted_first_round),
            mulligan_max=self.mulligan_max,
            discard_limit=self.discard_limit,
            forced_discard=int(self.forced_discard_to_hand_limit),
            first_business_on_hideout=int(self.first_business_on_hideout),
            raze_first=int(self.hideout_attack == "raze_first"),
            destroy_strict=int(self.destroy_strict),
            turncoat_casino_for_4=int(self.turncoat_casino_for_4),
            turncoat_hidden=int(self.turncoat_hidden),
            poker_first_round=int(self.poker_first_round),
            poker_boxed=_POKER_BOXED[self.poker_boxed],
            money_win=int(self.money_win),
            money_thr=(
                self.money_threshold(3),
                self.money_threshold(4),
                self.money_threshold(5),
                self.money_threshold(6),
            ),
            trophy_points=self.trophy_points,
            cd_tokens=self.countdown_tokens,
            cd_hideout=int(self.countdown_on_hideout),
            cd_bank=_BANK_TRIGGERS[self.countdown_on_bank],
            cd_third=int(self.countdown_on_third),
            war_win=int(self.war_win),
            cd_next_turn=int(self.countdown_starts_next_turn),
            attack_window=int(self.attack_window),
            end_turn_window=int(self.end_turn_window),
            step_windows=sum(1 << C.STEP_NAMES.index(w) for w in set(self.step_windows)),
            hideout_attackers=int(self.hideout_gangsters_attack),
            poker_all_in=int(self.poker_all_in),
            discard_weakest=int(self.unplaced_discard_weakest),
            turncoat_attackers=int(self.turncoat_attackers),
            away_discard=int(self.away_discard),
        )


# meaningful ranges of the integer fields (the kernels store them as int16)
_INT_RANGES = {
    "mulligan_max": (0, C.HAND_SIZE),  # at most the opening hand
    "discard_limit": (0, 99),  # 99: no limit in practice (a hand never holds that many)
    "trophy_points": (0, 1000),
    "countdown_tokens": (1, 100),
}


def _as_bool(value, field: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"Rules.{field} must be a bool, got {type(value).__name__} {shown(value)}")
    return bool(value)


def _as_int_in(value, lo: int, hi: int, what: str) -> int:
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise TypeError(f"{what} must be an int, got {type(value).__name__} {shown(value)}")
    if not lo <= value <= hi:
        raise ValueError(f"{what}={value} must be in {lo}..{hi}")
    return int(value)


def _thresholds(value) -> tuple[int, int, int, int] | None:
    """money_win_threshold as a tuple of 4 ints, each a possible amount of money for its
    player count (1..all the coins in play), or None."""
    if value is None:
        return None
    if not isinstance(value, tuple | list) or len(value) != 4:
        raise ValueError(
            "Rules.money_win_threshold needs 4 values (3, 4, 5, 6 players) or None, "
            f"got {shown(value)}"
        )
    t3, t4, t5, t6 = (
        _as_int_in(v, 1, int(total_money(n)), f"Rules.money_win_threshold[{k}] ({n} players)")
        for k, (v, n) in enumerate(zip(value, range(3, 7), strict=True))
    )
    return t3, t4, t5, t6


# a RulesK field: `Rules.kernel` fills it with ints, the kernel `rules_of` with np.int64
# (numba types a NamedTuple by its values, and a Python int is an int64 there too)
KernelInt: TypeAlias = int | np.int64


class RulesK(NamedTuple):
    """`Rules` as plain ints, for numba (which takes NamedTuples, not dataclasses)."""

    prep_first: KernelInt
    restricted_first_round: KernelInt
    mulligan_max: KernelInt
    discard_limit: KernelInt
    forced_discard: KernelInt
    first_business_on_hideout: KernelInt
    raze_first: KernelInt
    destroy_strict: KernelInt
    turncoat_casino_for_4: KernelInt
    turncoat_hidden: KernelInt
    poker_first_round: KernelInt
    poker_boxed: KernelInt
    money_win: KernelInt
    money_thr: tuple[KernelInt, KernelInt, KernelInt, KernelInt]
    trophy_points: KernelInt
    cd_tokens: KernelInt
    cd_hideout: KernelInt
    cd_bank: KernelInt
    cd_third: KernelInt
    war_win: KernelInt
    cd_next_turn: KernelInt
    attack_window: KernelInt
    end_turn_window: KernelInt
    step_windows: KernelInt  # bit ST_* set: a window opens before that step
    hideout_attackers: KernelInt
    poker_all_in: KernelInt
    discard_weakest: KernelInt
    turncoat_attackers: KernelInt  # after the others: their columns keep their place (rules v2)
    away_discard: KernelInt  # rules v3: in the state's row only, after the money thresholds


@kernel
def total_money(num_players):
    """Coins in play: 50/60/70/80 for 3/4/5/6 players (R1.2). The one home of this rule."""
    return 20 + 10 * np.int64(num_players)


NOIRBURG = Rules()
NOIRBROUGH = Rules(
    name="noirbrough",
    step_order="prep_first",
    restricted_first_round=False,
    first_business_on_hideout=False,
    destroy_strict=True,
    poker_first_round=True,
    poker_boxed="never",
    countdown_on_bank="empty",
    countdown_starts_next_turn=False,
    hideout_gangsters_attack=False,
    turncoat_attackers=True,
    away_discard=True,
)
ORIGINAL = Rules(
    name="original",
    step_order="prep_first",
    restricted_first_round=False,
    mulligan_max=0,
    discard_limit=99,
    forced_discard_to_hand_limit=True,
    first_business_on_hideout=False,
    hideout_attack="raze_first",
    destroy_strict=True,
    turncoat_casino_for_4=False,
    turncoat_attackers=True,
    poker_first_round=True,
    poker_all_in=True,
    unplaced_discard_weakest=True,
    poker_boxed="never",
    money_win_threshold=(30, 35, 40, 45),
    trophy_points=15,
    countdown_tokens=5,
    countdown_on_hideout=False,
    countdown_on_bank="empty",
    countdown_on_third=False,
    war_win=False,
)
PRESETS: dict[str, Rules] = {"noirburg": NOIRBURG, "noirbrough": NOIRBROUGH, "original": ORIGINAL}


def get_rules(rules: str | Rules | None = None) -> Rules:
    """Resolve a preset name (or pass a `Rules` through). Unknown names raise ValueError."""
    if rules is None:
        return NOIRBURG
    if isinstance(rules, Rules):
        return rules
    if not isinstance(rules, str):
        raise TypeError(f"rules must be a preset name or a Rules, got {type(rules).__name__}")
    if rules not in PRESETS:
        raise ValueError(f"unknown rules preset {shown(rules)}; presets: {sorted(PRESETS)}")
    return PRESETS[rules]


# --- rules stored in the state: one int16 row per game -------------------------------------
# The row: the fields of rules v2 in RulesK's order, the four money thresholds, then the
# fields added since. The observation holds the first NUM_OBSERVED_RULE_FIELDS values (its
# layout stays that of rules v2); a later field shows in the legal actions it changes.
LATER_RULE_FIELDS = ["away_discard"]
NUM_OBSERVED_RULE_FIELDS = 31
RULE_FIELDS = [f for f in RulesK._fields if f != "money_thr" and f not in LATER_RULE_FIELDS]
RULE_FIELDS += ["money_thr_3", "money_thr_4", "money_thr_5", "money_thr_6", *LATER_RULE_FIELDS]
NUM_RULE_FIELDS = len(RULE_FIELDS)
OBSERVED_RULE_FIELDS = RULE_FIELDS[:NUM_OBSERVED_RULE_FIELDS]


def rules_row(rules: Rules) -> np.ndarray:
    """The int16 row that `State.rules` holds for a game played under `rules`."""
    k = rules.kernel()._asdict()
    thr = k.pop("money_thr")
    later = [k.pop(f) for f in LATER_RULE_FIELDS]
    return np.array([*k.values(), *thr, *later], dtype=np.int16)


def rules_from_row(row) -> dict:
    """The kernel rule values of a `State.rules` row, by name (for display / JSON)."""
    return {name: int(v) for name, v in zip(RULE_FIELDS, row, strict=True)}


# kernel field -> Rules field, for the fields stored as 0 / 1 and those that name a choice
_KERNEL_BOOLS = {
    "restricted_first_round": "restricted_first_round",
    "forced_discard": "forced_discard_to_hand_limit",
    "first_business_on_hideout": "first_business_on_hideout",
    "destroy_strict": "destroy_strict",
    "turncoat_casino_for_4": "turncoat_casino_for_4",
    "turncoat_hidden": "turncoat_hidden",
    "poker_first_round": "poker_first_round",
    "money_win": "money_win",
    "cd_hideout": "countdown_on_hideout",
    "cd_third": "countdown_on_third",
    "war_win": "war_win",
    "cd_next_turn": "countdown_starts_next_turn",
    "attack_window": "attack_window",
    "end_turn_window": "end_turn_window",
    "hideout_attackers": "hideout_gangsters_attack",
    "poker_all_in": "poker_all_in",
    "discard_weakest": "unplaced_discard_weakest",
    "turncoat_attackers": "turncoat_attackers",
    "away_discard": "away_discard",
}
_KERNEL_CHOICES = {
    "prep_first": ("step_order", dict(enumerate(_STEP_ORDERS))),
    "raze_first": ("hideout_attack", dict(enumerate(_HIDEOUT_ATTACKS))),
    "poker_boxed": ("poker_boxed", {v: k for k, v in _POKER_BOXED.items()}),
    "cd_bank": ("countdown_on_bank", {v: k for k, v in _BANK_TRIGGERS.items()}),
}
_KERNEL_INTS = {
    "mulligan_max": "mulligan_max",
    "discard_limit": "discard_limit",
    "trophy_points": "trophy_points",
    "cd_tokens": "countdown_tokens",
}


def rules_from_kernel_values(values: dict[str, int], name: str = "loaded") -> Rules:
    """The `Rules` whose kernel row holds `values` (a value for every name of RULE_FIELDS,
    as `rules_from_row` gives them): the inverse of `rules_row`, so the values are checked
    by `Rules` itself. A value no `Rules` can have raises ValueError naming the field."""
    fields: dict = {"name": name}
    for key, value in values.items():
        if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
            raise ValueError(f"rules.{key}={shown(value)}: must be an int")
        if key in _KERNEL_BOOLS:
            if value not in (0, 1):
                raise ValueError(f"rules.{key}={shown(value)}: must be 0 or 1")
            fields[_KERNEL_BOOLS[key]] = bool(value)
        elif key in _KERNEL_CHOICES:
            field, choices = _KERNEL_CHOICES[key]
            if value not in choices:
                raise ValueError(f"rules.{key}={shown(value)}: must be one of {sorted(choices)}")
            fields[field] = choices[value]
        elif key in _KERNEL_INTS:
            fields[_KERNEL_INTS[key]] = int(value)
    fields["step_windows"] = _windows_of_bits(values["step_windows"])
    fields["money_win_threshold"] = tuple(values[f"money_thr_{n}"] for n in range(3, 7))
    try:
        return Rules(**fields)
    except (TypeError, ValueError) as err:  # Rules names its own field and range
        raise ValueError(f"rules: {err}") from None


def _windows_of_bits(bits) -> tuple[str, ...]:
    """The `step_windows` names of a kernel bit set (bit ST_* set: a window before that step)."""
    names = tuple(w for w in _WINDOW_STEPS if bits >> C.STEP_NAMES.index(w) & 1)
    if bits < 0 or bits != sum(1 << C.STEP_NAMES.index(w) for w in names):
        raise ValueError(
            f"rules.step_windows={shown(bits)}: a bit set of steps before which a window opens "
            f"({', '.join(f'{1 << C.STEP_NAMES.index(w)}: {w}' for w in _WINDOW_STEPS)})"
        )
    return names


_THR = RULE_FIELDS.index("money_thr_3")
assert RULE_FIELDS[:_THR] == [f for f in RulesK._fields if f != "money_thr"][:_THR]
assert RULE_FIELDS[_THR + 4 :] == list(RulesK._fields[_THR + 1 :]) == LATER_RULE_FIELDS
assert _THR + 4 == NUM_OBSERVED_RULE_FIELDS == 31  # the observation's rules part (rules v2)
assert _THR == 27 and RulesK._fields.index("money_thr") == 13  # the literal indices of rules_of


@kernel
def rules_of(s, i):
    """Game i's rules as a RulesK (built from its row of `s.rules`: the order of the
    NamedTuple's fields, with the four money thresholds after those of rules v2)."""
    a = s[i].rules
    return RulesK(
        np.int64(a[0]),
        np.int64(a[1]),
        np.int64(a[2]),
        np.int64(a[3]),
        np.int64(a[4]),
        np.int64(a[5]),
        np.int64(a[6]),
        np.int64(a[7]),
        np.int64(a[8]),
        np.int64(a[9]),
        np.int64(a[10]),
        np.int64(a[11]),
        np.int64(a[12]),
        (np.int64(a[27]), np.int64(a[28]), np.int64(a[29]), np.int64(a[30])),
        np.int64(a[13]),
        np.int64(a[14]),
        np.int64(a[15]),
        np.int64(a[16]),
        np.int64(a[17]),
        np.int64(a[18]),
        np.int64(a[19]),
        np.int64(a[20]),
        np.int64(a[21]),
        np.int64(a[22]),
        np.int64(a[23]),
        np.int64(a[24]),
        np.int64(a[25]),
        np.int64(a[26]),
        np.int64(a[31]),
    )
